"""``recap draft``: read a transcript, ask the LLM for the lasting changes, write a change-set
draft (YAML) the game master reviews before ``loregraph changelog post``."""

from __future__ import annotations

from pathlib import Path

import yaml

from extraction.ledger import Ledger
from extraction.recap import RecapDraft, draft_recap
from graphrag_core.errors import SourceError
from graphrag_core.services.extraction import LlmSetup

HEADER = (
    "# Draft proposed by {model} from {source}. Review every change (each quotes the passage\n"
    "# it rests on), fix or delete what is wrong, then: loregraph changelog post {path}\n"
)


def draft_to_file(llm: LlmSetup, transcript: Path, session: int, output: Path) -> RecapDraft:
    try:
        text = transcript.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(str(transcript), f"cannot read the transcript: {exc}") from exc
    ledger = Ledger(llm.chat.model_id)
    s = llm.settings
    draft = draft_recap(
        llm.chat, text, session=session, ledger=ledger, max_tokens=s.max_tokens,
        max_chars=s.recap_chunk_chars,
    )  # fmt: skip
    draft.ledger = ledger.stages(llm.prices)
    header = HEADER.format(model=llm.chat.model_id, source=transcript, path=output)
    skipped = "".join(f"# skipped: {line}\n" for line in draft.skipped)
    body = yaml.safe_dump(draft.changeset, sort_keys=False, allow_unicode=True, width=100)
    output.write_text(header + skipped + body, encoding="utf-8")
    return draft
