"""Relations that notes and sourcebooks state as layout rather than prose: the chunk's subject
(the note's entity, or the entity its heading names) is related to every known entity listed

* on a labelled list line: ``**Condition Immunities** poisoned, charmed``,
  ``Classes: Wizard, Sorcerer``, ``- **Allies:** the Salt Guild and the Lantern Company``;
* in parentheses on a header line (a Markdown heading, or the emphasised line right under
  one): ``## Fireball (Wizard, Sorcerer)``, ``*Level 2 Evocation (Wizard)*``.

A list item counts only when it is, as a whole, the name or alias of a known entity
(case-insensitive: its place in the list marks it as a name; GM aliases and GM-only
entities only in GM chunks). The label picks the relation type when it names one ("Members",
"Allies", "Enemies", "Rivals", "Location", "Leader", "Ruler", "Deity", "Owner"); otherwise it
is ``related_to``, with the label as the relation's description.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from extraction.resolution import EntityResolver
from extraction.taxonomy import ATTITUDE_OF_TYPE
from graphrag_core.models import Chunk, Relation

_BULLET = r"^\s*(?:[-*+]\s+)?"
_BOLD_LABEL = re.compile(_BULLET + r"(\*\*|__)(?P<label>[^*_\n]{1,40}?):?\1:?\s+(?P<items>.+)$")
_COLON_LABEL = re.compile(_BULLET + r"(?P<label>[A-Z][\w' -]{0,38}[\w)]):\s+(?P<items>.+)$")
_HEADING = re.compile(r"^#{1,6}\s+(?P<text>.+)$")
_EMPHASIS = re.compile(r"^\s*([*_])(?P<text>[^*_\s].*?)\1\s*$")
_PARENTHESES = re.compile(r"\((?P<items>[^()]{1,200})\)")
_SEPARATORS = re.compile(r",|;|/|\band\b|\bor\b")
_MARKUP = re.compile(r"[*_`\[\]]")
MAX_ITEM = 60


@dataclass(frozen=True)
class _LabelType:
    pattern: re.Pattern[str]
    relation: str
    item_first: bool  # "Members: A" → A member_of subject


def _label(words: str, relation: str, item_first: bool = False) -> _LabelType:
    return _LabelType(re.compile(rf"^(?:{words})$", re.IGNORECASE), relation, item_first)


LABEL_TYPES = (
    _label(r"members?", "member_of", item_first=True),
    _label(r"all(?:y|ies)", "allied_with"),
    _label(r"enem(?:y|ies)|foes?", "hostile_to"),
    _label(r"rivals?", "rival_of"),
    _label(r"locat(?:ion|ed in)|region|home|lair", "located_in"),
    _label(r"leaders?|led by|head", "leads", item_first=True),
    _label(r"rulers?|ruled by", "ruled_by"),
    _label(r"deit(?:y|ies)|patrons?|gods?|worships?", "worships"),
    _label(r"owners?|owned by", "owned_by"),
)


@dataclass(frozen=True)
class _Listed:
    label: str  # "" for a parenthesised list
    items: str


def listed_relations(chunk: Chunk, resolver: EntityResolver) -> list[Relation]:
    """The relations between the chunk's subject and the entities its list lines name."""
    if chunk.subject is None:
        return []
    secret = chunk.visibility == "gm"
    found: list[Relation] = []

    def _may_name(entity_id: str) -> bool:  # a party chunk names no GM-only entity
        entity = resolver.get(entity_id)
        return secret or entity is None or entity.visibility == "party"

    for listed in _lists(chunk.text):
        relation, item_first = _relation_type(listed.label)
        for item in _items(listed.items):
            entity_id = resolver.resolve(item, include_gm=secret)
            if entity_id is None or entity_id == chunk.subject or not _may_name(entity_id):
                continue
            ends = (entity_id, chunk.subject) if item_first else (chunk.subject, entity_id)
            found.append(
                Relation(
                    source=ends[0],
                    target=ends[1],
                    type=relation,
                    attitude=ATTITUDE_OF_TYPE.get(relation),
                    visibility=chunk.visibility,
                    description=listed.label or "listed on its header line",
                    source_path=chunk.source_path,
                    chunk_id=chunk.id,
                )
            )
    return found


def _lists(text: str) -> Iterator[_Listed]:
    under_heading = False
    for line in text.splitlines():
        if not line.strip():
            continue
        heading = _HEADING.match(line)
        emphasis = _EMPHASIS.match(line) if under_heading else None
        header = heading or emphasis
        if header is not None:
            for group in _PARENTHESES.finditer(header["text"]):
                yield _Listed("", group["items"])
        else:
            labelled = _BOLD_LABEL.match(line) or _COLON_LABEL.match(line)
            if labelled is not None:
                yield _Listed(_MARKUP.sub("", labelled["label"]).strip(), labelled["items"])
        under_heading = heading is not None


def _items(text: str) -> Iterator[str]:
    for part in _SEPARATORS.split(_MARKUP.sub("", text)):
        item = part.strip().rstrip(".").strip()
        if item and len(item) <= MAX_ITEM:
            yield item


def _relation_type(label: str) -> tuple[str, bool]:
    for kind in LABEL_TYPES:
        if kind.pattern.match(label.strip()):
            return kind.relation, kind.item_first
    return "related_to", False
