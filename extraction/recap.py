"""Draft a session changelog from a transcript or recap with an LLM.

A long transcript is sent in pieces of at most ``max_chars`` characters (split at paragraph,
then line, then sentence ends); the changes of all pieces are pooled, duplicates dropped.

Every proposed change must quote the passage it rests on, verbatim (compared after Unicode
NFKC normalisation and case folding, so any script works): a change whose quote is not in
the text is skipped, with a record. So is a change the model marks as only attempted. For a
death or a destruction the quote itself must bear it out, clause by clause (clauses split at
";", "but", "and", "yet", "then", "while"):

* a clause with a completed verb ("killed", "slew", "died", "burned", ...) and no attempt cue
  carries it: "X tried to flee and Y killed him" is a death;
* else an attempt cue ("tried", "almost", "missed", ...) makes it only tried: "tried to kill
  Marta, but Pip pulled her away" is no death;
* and a survival cue ("survived", "escaped", "wounded", "spared", "fled", ...) in a clause
  about the entity (or about no one else) makes it survived: "stabbed Dace Rook, who barely
  survived" is no death.

The draft is a change set in the shape ``loregraph changelog post`` reads; the GM reviews it."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from extraction.ledger import Ledger
from extraction.llm_calls import structured_call
from extraction.llm_schema import ProposedChange, RecapChanges
from extraction.name_match import core_words
from extraction.prompt_files import load_prompt
from graphrag_core.models import LedgerStage
from graphrag_core.ports import ChatModel

ATTEMPT = re.compile(
    r"\b(tried|tries|try|trying|attempt\w*|fail\w*|almost|nearly|would have|wanted to|"
    r"missed|plotted|threatened)\b",
    re.IGNORECASE,
)
SURVIVAL = re.compile(
    r"\b(surviv\w*|escap\w*|wounded|injured|spared|fled|flees|unharmed|recover\w*|rescued|"
    r"lived|still alive)\b",
    re.IGNORECASE,
)
COMPLETED = re.compile(
    r"\b(kill(?:ed|s)|slew|slain|slays|died|dies|dead|murdered|executed|perished|beheaded|"
    r"drowned|burn(?:ed|t|s)|destroyed|razed|collapsed|crumbled|demolished|shattered)\b",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r";|\b(?:but|and|yet|then|while)\b", re.IGNORECASE)
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "«": '"', "»": '"'})
ATTITUDES = ("allied", "neutral", "hostile")


@dataclass
class RecapDraft:
    changeset: dict[str, Any]
    skipped: list[str] = field(default_factory=list)
    ledger: dict[str, LedgerStage] = field(default_factory=dict)

    @property
    def proposed(self) -> int:
        sets = self.changeset
        return len(sets.get("entity_updates", [])) + len(sets.get("relationship_updates", []))


def draft_recap(
    chat: ChatModel,
    text: str,
    *,
    session: int,
    ledger: Ledger,
    max_tokens: int = 1024,
    max_chars: int = 6000,
) -> RecapDraft:
    prompt = load_prompt("recap_draft")
    draft = RecapDraft({"session_id": session, "title": f"Session {session} (draft)",
                        "entity_updates": [], "relationship_updates": []})  # fmt: skip
    seen: set[tuple[str, str, str]] = set()
    transcript = normalise_quote(text)
    for piece in split_transcript(text, max_chars):
        messages = prompt.messages(session=session, text=piece)
        found, _ = structured_call(
            chat, messages, RecapChanges, stage="recap", ledger=ledger, max_tokens=max_tokens
        )
        for change in found.changes:
            key = (change.kind, change.entity.casefold(), change.new_value.casefold())
            reason = "the same change again" if key in seen else _rejection(change, transcript)
            if reason:
                draft.skipped.append(f"{change.kind} {change.entity!r}: {reason}")
            else:
                seen.add(key)
                _add(draft.changeset, change)
    return draft


def split_transcript(text: str, max_chars: int) -> list[str]:
    """Pieces of at most ``max_chars``, cut at paragraph, else line, else sentence ends."""
    if len(text) <= max_chars:
        return [text]
    for separator in ("\n\n", "\n", ". "):
        parts = text.split(separator)
        if len(parts) > 1 and all(len(p) <= max_chars for p in parts):
            return _packed(parts, separator, max_chars)
    return [text[i : i + max_chars] for i in range(0, len(text), max_chars)]


def _packed(parts: list[str], separator: str, max_chars: int) -> list[str]:
    pieces: list[str] = []
    for part in parts:
        if pieces and len(pieces[-1]) + len(separator) + len(part) <= max_chars:
            pieces[-1] += separator + part
        else:
            pieces.append(part)
    return [p for p in pieces if p.strip()]


def normalise_quote(text: str) -> str:
    """NFKC, case-folded, typographic quotes made plain, whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    return " ".join(folded.split())


def _rejection(change: ProposedChange, transcript: str) -> str | None:
    """Why ``change`` is skipped, or ``None``; ``transcript`` as ``normalise_quote`` gives it."""
    quote = change.quote.strip()
    if not quote or normalise_quote(quote) not in transcript:
        return f"its quote is not in the transcript ({quote[:60]!r})"
    if change.attempted_only:
        return "only attempted"
    if change.kind in ("death", "destruction"):
        return _not_borne_out(quote, change.entity)
    if change.kind == "attitude" and change.new_value.lower() not in ATTITUDES:
        return f"attitude {change.new_value!r} is not one of {', '.join(ATTITUDES)}"
    return None


def _not_borne_out(quote: str, entity: str) -> str | None:
    """Why the quote does not bear out a death or destruction, or ``None`` if it does."""
    clauses = _CLAUSES.split(quote)
    words = set(core_words(entity))
    survived = any(SURVIVAL.search(c) and _about(c, words) for c in clauses)
    completed = any(
        COMPLETED.search(c) and not ATTEMPT.search(c) and not SURVIVAL.search(c) for c in clauses
    )
    if completed and not survived:
        return None
    if ATTEMPT.search(quote):
        return f"the quote says it was only tried: {quote!r}"
    if survived:
        return f"the quote says it was survived or escaped: {quote!r}"
    return None


def _about(clause: str, entity_words: set[str]) -> bool:
    """Whether a clause is about the entity: it names it, or names no one else."""
    named = set(core_words(" ".join(re.findall(r"\b[A-Z]\w+", clause))))
    return bool(named & entity_words) or not (named - entity_words)


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
