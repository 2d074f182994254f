"""Draft a session changelog from a transcript or recap with an LLM.

Every proposed change must quote the passage it rests on, verbatim: a change whose quote is
not in the text is skipped (with a record), and so is any change the model marks as only
attempted, or whose quote says it was only tried ("tried to kill" is not a death). The draft
is a change set in the shape ``loregraph changelog post`` reads; the GM reviews it first."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from extraction.ledger import Ledger
from extraction.llm_calls import structured_call
from extraction.llm_schema import ProposedChange, RecapChanges
from extraction.prompt_files import load_prompt
from extraction.slugs import normalise_name
from graphrag_core.ports import ChatModel

ATTEMPT = re.compile(
    r"\b(tried|tries|try|trying|attempt\w*|fail\w*|almost|nearly|would have|wanted to|"
    r"missed|plotted|threatened)\b",
    re.IGNORECASE,
)
ATTITUDES = ("allied", "neutral", "hostile")


@dataclass
class RecapDraft:
    changeset: dict[str, Any]
    skipped: list[str] = field(default_factory=list)

    @property
    def proposed(self) -> int:
        sets = self.changeset
        return len(sets.get("entity_updates", [])) + len(sets.get("relationship_updates", []))


def draft_recap(
    chat: ChatModel, text: str, *, session: int, ledger: Ledger, max_tokens: int = 1024
) -> RecapDraft:
    messages = load_prompt("recap_draft").messages(session=session, text=text)
    found, _ = structured_call(
        chat, messages, RecapChanges, stage="recap", ledger=ledger, max_tokens=max_tokens
    )
    draft = RecapDraft({"session_id": session, "title": f"Session {session} (draft)",
                        "entity_updates": [], "relationship_updates": []})  # fmt: skip
    for change in found.changes:
        reason = _rejection(change, text)
        if reason:
            draft.skipped.append(f"{change.kind} {change.entity!r}: {reason}")
        else:
            _add(draft.changeset, change)
    return draft


def _rejection(change: ProposedChange, text: str) -> str | None:
    quote = change.quote.strip()
    if not quote or normalise_name(quote) not in normalise_name(text):
        return f"its quote is not in the transcript ({quote[:60]!r})"
    if change.attempted_only:
        return "only attempted"
    if change.kind in ("death", "destruction") and ATTEMPT.search(_clause(quote, change.entity)):
        return f"the quote says it was only tried: {quote!r}"
    if change.kind == "attitude" and change.new_value.lower() not in ATTITUDES:
        return f"attitude {change.new_value!r} is not one of {', '.join(ATTITUDES)}"
    return None


def _clause(quote: str, entity: str) -> str:
    """The clause of ``quote`` about ``entity`` (so 'X tried to flee, Y killed him' is ok)."""
    parts = re.split(r"[,;]| but | and ", quote)
    name = normalise_name(entity).split(" ")[0] if entity.strip() else ""
    about = [p for p in parts if name and name in normalise_name(p)]
    return " ".join(about) or quote


def _add(changeset: dict[str, Any], change: ProposedChange) -> None:
    note = {"quote": change.quote.strip()}
    if change.kind == "death":
        changeset["entity_updates"].append({"entity_id": change.entity, "status": "dead", **note})
    elif change.kind == "destruction":
        changeset["entity_updates"].append(
            {"entity_id": change.entity, "status": "destroyed", **note}
        )
    elif change.kind == "attitude":
        changeset["relationship_updates"].append(
            {"from": change.entity, "to": "party", "new_status": change.new_value.lower(), **note}
        )
    else:
        changeset["entity_updates"].append(
            {"entity_id": change.entity, "properties": {"owner": change.new_value}, **note}
        )
