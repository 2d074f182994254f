"""Relations a sentence of prose states, and weaker same-sentence links.

Per sentence: a cue phrase ("governed by", "belongs to", "keeper of", "worships", "was slain
by", ...) links the entity mentioned right after it (the target) to its source: the mention
just before the cue when only "is"/"was"/"who" stands between them, else the sentence's
subject (its opening mention; for a sentence opening with a pronoun, the previous sentence's
subject or the section's entity: "She belongs to the Millers' Compact"). ``reverse`` swaps the
ends ("X rules Y" → ``Y ruled_by X``). Hedged wording ("tried to kill", "nearly killed") is no
cue. The sentence is the relation's description, the chunk its citation.

Two entities named in one sentence with no cue between them get ``related_to`` with
``evidence="co_occurrence"``, unless some other relation already links them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from extraction.gazetteer import Mention
from extraction.markdown import unwrapped
from extraction.prose_entities import sentences
from extraction.taxonomy import ATTITUDE_OF_TYPE
from graphrag_core.models import Chunk, Relation

_BE = r"(?:(?:is|are|was|were|has\s+been|had\s+been)\s+)?"
_UNHEDGED = r"(?<!tried to )(?<!nearly )(?<!almost )(?<!barely )"


@dataclass(frozen=True)
class Cue:
    pattern: re.Pattern[str]
    relation: str
    reverse: bool = False


def _cue(phrase: str, relation: str, reverse: bool = False) -> Cue:
    pattern = re.compile(r"\b(?:" + phrase + r")\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
    return Cue(pattern, relation, reverse)


CUES: tuple[Cue, ...] = (
    _cue(_BE + r"(?:ruled|governed|led|commanded)\s+by", "ruled_by"),
    _cue(r"(?:rules|ruled|governs|governed)(?:\s+over)?", "ruled_by", reverse=True),
    _cue(r"(?:(?:is|was|are|were)\s+)?(?:a|an|the)?\s*(?:\w+\s+)?members?\s+of", "member_of"),
    _cue(r"(?:belongs?|belonged)\s+to|joined|(?:is|was)\s+one\s+of", "member_of"),
    _cue(r"(?:is|was)\s+(?:a|an)\s+(?:\w+\s+)?(?:squire|knight|soldier|agent|servant|acolyte|"
         r"initiate|priest|priestess)\s+of", "member_of"),
    _cue(r"(?:leads|led|heads|headed|commands)", "leads"),
    _cue(_BE + r"the\s+(?:leader|head|chief|captain|master|mistress|founder)\s+of", "leads"),
    _cue(r"(?:owns|owned|keeps|kept|runs|ran|carries|carried|wields|wielded|bears)", "owns"),
    _cue(_BE + r"(?:the\s+)?(?:keeper|owner|proprietor|landlord|landlady)\s+of", "owns"),
    _cue(_BE + r"(?:owned|kept|run)\s+by", "owned_by"),
    _cue(r"(?:worships|worshipped|prays\s+to|prayed\s+to|(?:a\s+)?(?:priest|priestess)\s+of)",
         "worships"),
    _cue(_BE + r"(?:allied\s+with|(?:an\s+)?all(?:y|ies)\s+of|friends?\s+(?:of|with))",
         "allied_with"),
    _cue(_BE + r"(?:hostile\s+to(?:wards?)?|at\s+war\s+with|(?:an\s+)?enem(?:y|ies)\s+of)",
         "hostile_to"),
    _cue(r"(?:hates|hated|betrayed|attacked|feuds?\s+with)", "hostile_to"),
    _cue(_BE + _UNHEDGED + r"(?:killed|slain|murdered)\s+by", "killed_by"),
    _cue(_UNHEDGED + r"(?:killed|slew|murdered)", "killed_by", reverse=True),
    _cue(r"(?:works|worked)\s+for", "works_for"),
    _cue(r"(?:employs|employed|hired)", "employs"),
    _cue(r"(?:serves|served)|(?:is|was|are|were)\s+loyal\s+to|(?:\w+\s+)?loyal\s+to", "serves"),
    _cue(r"(?:guards|guarded)", "guards"),
    _cue(r"(?:seeks|sought|searches\s+for|hunts\s+for)", "seeks"),
    _cue(_BE + r"sacred\s+to", "sacred_to"),
    _cue(_BE + r"(?:married\s+to|the\s+(?:wife|husband)\s+of)", "married_to"),
    _cue(_BE + r"the\s+(?:father|mother)\s+of", "parent_of"),
    _cue(_BE + r"the\s+(?:son|daughter)\s+of", "parent_of", reverse=True),
    _cue(r"(?:lives|lived|dwells|dwelt|resides|resided)\s+(?:in|at|on)", "located_in"),
    _cue(_BE + r"(?:located|situated|nestled|hidden|found|built)\s+(?:in|on|at|within|near|by)",
         "located_in"),
    _cue(r"(?:lies|lay|sits|sat|stands|stood)\s+(?:in|on|at|within|beside|by)", "located_in"),
    _cue(r"(?:is|was)\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}(?:in|on|at|near|beside|by)", "located_in"),
    _cue(r"^(?:its|their)\s+(?:keeper|owner|proprietor|landlord|landlady),?", "owns", True),
)  # fmt: skip
_NEAR = re.compile(
    r"^\s*(?:,?\s*(?:who|which|that)\s+)?(?:(?:is|was|are|were|has|had|also|now)\s+)*$"
)
_NOT_PROSE = re.compile(r"^\s*(?:[-*+>|#]|\d+[.)]|[\w' ]{1,40}:)|[^.!?'\")\]]$")
_PRONOUN = re.compile(r"^(?:She|He|It|They|Its|Her|His|Their)\b")


def sentence_relations(chunk: Chunk, mentions: Sequence[Mention]) -> list[Relation]:
    """The stated and co-occurrence relations of every sentence of ``chunk``."""
    found: list[Relation] = []
    previous = chunk.subject
    whole = unwrapped(chunk.text)  # a hard-wrapped paragraph is read as one
    for start, end in sentences(whole):
        inside = [m for m in mentions if start <= m.start and m.end <= end]
        text = whole[start:end]
        subject = _subject(text, inside, start, previous)
        found += _sentence(chunk, text, start, inside, subject)
        previous = subject or previous
    return found


def _subject(text: str, inside: list[Mention], start: int, previous: str | None) -> str | None:
    if _PRONOUN.match(text):
        return previous
    if inside and inside[0].start - start <= 12:
        return inside[0].entity_id
    return None


def _sentence(
    chunk: Chunk, text: str, offset: int, inside: list[Mention], subject: str | None
) -> list[Relation]:
    stated: list[Relation] = []
    for index, target in enumerate(inside):
        if text.startswith(("'s", "’s"), target.end - offset):
            continue  # "keeps the Compact's ledgers": the object is the ledgers
        before = text[: target.start - offset]
        left = inside[index - 1] if index else None
        for cue in CUES:
            match = cue.pattern.search(before)
            if match is None:
                continue
            source = _source(text, offset, match.start(), left, subject)
            if source is not None and source != target.entity_id:
                ends = (target.entity_id, source) if cue.reverse else (source, target.entity_id)
                stated.append(_relation(chunk, text, cue.relation, *ends))
            break
    return stated + _co_occurring(chunk, text, inside, stated)


def _source(
    text: str, offset: int, cue_start: int, left: Mention | None, subject: str | None
) -> str | None:
    near = left is not None and left.end - offset <= cue_start
    if left is not None and near and _NEAR.match(text[left.end - offset : cue_start]):
        return left.entity_id
    return subject


def _co_occurring(
    chunk: Chunk, text: str, inside: list[Mention], stated: list[Relation]
) -> list[Relation]:
    if _NOT_PROSE.search(text):  # a list or labelled line, a heading: no sentence
        return []
    linked = {frozenset((r.source, r.target)) for r in stated}
    ids = sorted({m.entity_id for m in inside})
    return [
        _relation(chunk, text, "related_to", a, b, evidence="co_occurrence")
        for a, b in itertools.combinations(ids, 2)
        if frozenset((a, b)) not in linked
    ]


def _relation(
    chunk: Chunk, text: str, kind: str, source: str, target: str, evidence: str = "stated"
) -> Relation:
    return Relation(
        source=source,
        target=target,
        type=kind,
        attitude=ATTITUDE_OF_TYPE.get(kind),
        visibility=chunk.visibility,
        description=text,
        source_path=chunk.source_path,
        chunk_id=chunk.id,
        evidence="co_occurrence" if evidence == "co_occurrence" else "stated",
    )


def without_weaker(relations: Iterable[Relation]) -> list[Relation]:
    """Drop each co-occurrence link whose two ends some other relation already links."""
    relations = list(relations)
    linked = {frozenset((r.source, r.target)) for r in relations if r.evidence == "stated"}
    return [
        r
        for r in relations
        if r.evidence == "stated" or frozenset((r.source, r.target)) not in linked
    ]
