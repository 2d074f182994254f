"""``recap draft``: read a transcript, find its lasting changes (with the LLM, or offline with
deterministic patterns over the campaign's known entities), write a change-set draft (YAML) the
game master reviews before ``loregraph changelog post``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import yaml

from extraction.ledger import Ledger
from extraction.recap import RecapDraft, draft_recap
from extraction.recap_offline import draft_offline
from graphrag_core.errors import SourceError
from graphrag_core.models import Entity
from graphrag_core.services.extraction import LlmSetup

HEADER = (
    "# Draft proposed by {model} from {source}. Review every change (each quotes the passage\n"
    "# it rests on), fix or delete what is wrong, then: loregraph changelog post {path}\n"
)


OFFLINE = "loregraph's offline recap patterns (no model)"


def _read(transcript: Path) -> str:
    try:
        return transcript.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(str(transcript), f"cannot read the transcript: {exc}") from exc


def draft_to_file(llm: LlmSetup, transcript: Path, session: int, output: Path) -> RecapDraft:
    text = _read(transcript)
    ledger = Ledger(llm.chat.model_id)
    s = llm.settings
    draft = draft_recap(
        llm.chat, text, session=session, ledger=ledger, max_tokens=s.max_tokens,
        max_chars=s.recap_chunk_chars,
    )  # fmt: skip
    draft.ledger = ledger.stages(llm.prices)
    _write(draft, HEADER.format(model=llm.chat.model_id, source=transcript, path=output), output)
    return draft


def offline_draft_to_file(
    transcript: Path, session: int, output: Path, entities: Sequence[Entity]
) -> RecapDraft:
    """The offline draft: changes stated about the campaign's ``entities``, no model."""
    draft = draft_offline(_read(transcript), session=session, entities=entities)
    _write(draft, HEADER.format(model=OFFLINE, source=transcript, path=output), output)
    return draft


def _write(draft: RecapDraft, header: str, output: Path) -> None:
    skipped = "".join(f"# skipped: {line}\n" for line in draft.skipped)
    body = yaml.safe_dump(draft.changeset, sort_keys=False, allow_unicode=True, width=100)
    output.write_text(header + skipped + body, encoding="utf-8")
