"""Draft a session changelog from a recap without a model: deterministic patterns.

Each sentence of the recap is read for the changes it states (``extraction.recap_rules``):
a death, a destruction (a faction broken up: disbanded), a disappearance (an item: lost), a
capture, a release from captivity (alive), a turn against the party. The entity a change is
about must be one the campaign knows, named by its name, an alias or an unambiguous short form
(``extraction.recap_names``); a change told only with a pronoun is left to the game master.
Hedged wording ("tried to kill", "barely survived", "was wounded", "if X dies") is never
proposed; each hedged statement is listed as skipped, so the reviewer sees why.

A change stated under a GM heading (``## GM Notes``, ``## Secrets``, see
``extraction.markdown``), or about a GM-only entity, is proposed with ``visibility: gm``: posting
the draft as it stands never tells players a secret.

The draft has the shape the LLM path gives (``extraction.recap.RecapDraft``): a change set
``loregraph changelog post`` reads, each update quoting its sentence verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import pairwise

from extraction.markdown import sections as markdown_sections
from extraction.recap import RecapDraft
from extraction.recap_names import Found, RecapNames
from extraction.recap_rules import (
    CLAUSE,
    DOUBT,
    HEDGE,
    NAME_ENDS_PHRASE,
    OBJECT_GAP,
    PARTY_OBJECT,
    RULES,
    SUBJECT_BARRIER,
    SUBJECT_GAP,
    SURVIVAL,
    ChangeKind,
    Rule,
    passive,
    verb_role,
)
from graphrag_core.models import STATUS_VOCABULARY, Entity

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+|\n[ \t]*\n|\n(?=[ \t]*(?:[-*+]|\d+\.|#))")
_OF_COMPLEMENT = re.compile(r"\b(?:of|from|with|for)\s+(?:the\s+)?$", re.IGNORECASE)
"""A name after "of" is no subject: in "the barge of the Red Lanterns sank" the barge sank."""
_MARKUP = re.compile(r"^(?:[-*+]|\d+\.)\s+")
_HEADING_LINE = re.compile(r"^[ \t]*#{1,6}[ \t][^\n]*$", re.MULTILINE)
STATUS_OF: dict[ChangeKind, tuple[str, ...]] = {
    "death": ("dead",),
    "destruction": ("destroyed", "disbanded"),
    "missing": ("missing", "lost"),
    "captured": ("captured",),
    "freed": ("alive",),
}
"""The status a change gives, the first one the entity's type allows."""


def draft_offline(text: str, *, session: int, entities: Sequence[Entity]) -> RecapDraft:
    """The change set the recap ``text`` states about the known ``entities``."""
    draft = RecapDraft({"session_id": session, "title": f"Session {session} (draft)",
                        "entity_updates": [], "relationship_updates": []})  # fmt: skip
    names = RecapNames(entities)
    seen: set[tuple[str, str]] = set()
    for sentence, gm in _sentences_with_visibility(text):
        mentions = names.find(sentence)
        if not mentions:
            continue
        for rule, start, end in _matches(sentence):
            entity = _affected(sentence, start, end, rule, mentions)
            if entity is None or not _applies(rule, entity, sentence, start, end):
                continue
            verb = sentence[start:end]
            if reason := _hedged(sentence, start, end, rule, entity, mentions):
                draft.skipped.append(f"{rule.kind} of {entity.name!r} ({verb!r}): {reason}")
            elif (entity.id, rule.kind) not in seen:
                seen.add((entity.id, rule.kind))
                _add(draft, rule.kind, entity, sentence, gm or entity.visibility == "gm")
    return draft


def _sentences_with_visibility(text: str) -> Iterator[tuple[str, bool]]:
    """Each sentence, and whether it stands under a GM heading (``## GM Notes``)."""
    for section in markdown_sections(text):
        for sentence in sentences(text[section.start : section.end]):
            yield sentence, section.gm


def sentences(text: str) -> Iterator[str]:
    """The sentences of ``text`` (paragraph and list item breaks end one too), without list
    marks; heading lines are titles, not statements, and are left out."""
    for block in _HEADING_LINE.split(text):
        for piece in _SENTENCE_END.split(block):
            sentence = _MARKUP.sub("", piece.strip())
            if sentence:
                yield sentence


def _matches(sentence: str) -> list[tuple[Rule, int, int]]:
    """Every rule match, longest first where matches overlap (``was killed`` as passive)."""
    found = [(rule, m.start(), m.end()) for rule in RULES for m in rule.verbs.finditer(sentence)]
    found.sort(key=lambda f: (f[1], -(f[2] - f[1])))
    kept: list[tuple[Rule, int, int]] = []
    for item in found:
        if not kept or item[1] >= kept[-1][2]:
            kept.append(item)
    return kept


def _affected(
    sentence: str, start: int, end: int, rule: Rule, mentions: list[Found]
) -> Entity | None:
    if verb_role(sentence, start, end, rule) == "object":
        after = next((m for m in mentions if m.start >= end), None)
        if after is not None and OBJECT_GAP.match(sentence[end : after.start]):
            return after.entity if _whole_phrase(sentence, after) else None
        return None
    if not rule.intransitive and not passive(sentence, start):
        return None
    floor = max((m.end() for m in SUBJECT_BARRIER.finditer(sentence, 0, start)), default=0)
    before = [m for m in mentions if floor <= m.start and m.end <= start]
    if not before or not SUBJECT_GAP.match(sentence[before[-1].end : start]):
        return None
    return None if _OF_COMPLEMENT.search(sentence, 0, before[-1].start) else before[-1].entity


def _whole_phrase(sentence: str, found: Found) -> bool:
    """Whether the name ends its noun phrase (not "the Mossgate smithy", not "Hob's")."""
    return NAME_ENDS_PHRASE.match(sentence[found.end :]) is not None


def _applies(rule: Rule, entity: Entity, sentence: str, start: int, end: int) -> bool:
    """Whether the change fits the entity's type (and a betrayal is of the party)."""
    if rule.kind == "hostile":
        verb = sentence[start:end].lower()
        stated = "hostile" in verb or " as " in verb or PARTY_OBJECT.match(sentence[end:])
        return bool(stated) and entity.type not in ("Location", "Item", "Event", "Quest")
    return _status(rule.kind, entity) is not None


def _status(kind: ChangeKind, entity: Entity) -> str | None:
    allowed = STATUS_VOCABULARY.get(entity.type, ())
    return next((s for s in STATUS_OF.get(kind, ()) if s in allowed), None)


def _hedged(
    sentence: str, start: int, end: int, rule: Rule, entity: Entity, mentions: list[Found]
) -> str | None:
    """Why the statement is not sure, or ``None``."""
    blank = _blanked(sentence, mentions)
    low = max((m.end() for m in CLAUSE.finditer(blank, 0, start)), default=0)
    high = next((m.start() for m in CLAUSE.finditer(blank, end)), len(blank))
    if cue := HEDGE.search(blank, low, high) or DOUBT.search(blank):
        return f"hedged ({cue.group(0).strip()!r}): {sentence!r}"
    if rule.kind in ("death", "missing") and _survived(blank, entity, mentions):
        return f"the sentence says it was survived: {sentence!r}"
    return None


def _blanked(sentence: str, mentions: list[Found]) -> str:
    """The sentence with every entity name blanked (a name like "Will" is no modal verb)."""
    chars = list(sentence)
    for m in mentions:
        chars[m.start : m.end] = "_" * (m.end - m.start)
    return "".join(chars)


def _survived(blank: str, entity: Entity, mentions: list[Found]) -> bool:
    """A survival clause about the entity, or about no one named, in the sentence."""
    bounds = [0, *(m.end() for m in CLAUSE.finditer(blank)), len(blank)]
    for low, high in pairwise(bounds):
        if SURVIVAL.search(blank, low, high):
            named = {m.entity.id for m in mentions if low <= m.start < high}
            if not named or entity.id in named:
                return True
    return False


def _add(draft: RecapDraft, kind: ChangeKind, entity: Entity, sentence: str, gm: bool) -> None:
    """Add the change; one stated in a GM section, or about a GM-only entity, is GM-only."""
    secret = {"visibility": "gm"} if gm else {}
    if kind == "hostile":
        draft.changeset["relationship_updates"].append(
            {"from": entity.id, "to": "party", "new_status": "hostile", "quote": sentence, **secret}
        )
        return
    draft.changeset["entity_updates"].append(
        {"entity_id": entity.id, "entity_type": entity.type, "status": _status(kind, entity),
         "quote": sentence, **secret}
    )  # fmt: skip
