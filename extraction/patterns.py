"""Relations stated in prose between two known entity mentions.

Each rule is a regular expression that must match the *whole* text between two consecutive
mentions of the same sentence (an appositive may come first: "The Red Oak, the oldest inn in
town, lies in Millbrook"). ``reverse`` swaps the ends: "X rules Y" gives ``Y ruled_by X``.

| between the mentions                         | relation     | reverse | attitude |
|----------------------------------------------|--------------|---------|----------|
| is located / situated / hidden in, lies in   | located_in   |         |          |
| lives / dwells / resides in                  | located_in   |         |          |
| is ruled / governed by                       | ruled_by     |         |          |
| rules, governs                               | ruled_by     | yes     |          |
| is a member of, belongs to                   | member_of    |         |          |
| leads, is the leader / head of               | leads        |         |          |
| worships                                     | worships     |         |          |
| is allied with, is an ally of                | allied_with  |         | allied   |
| is hostile to, is at war with                | hostile_to   |         | hostile  |
| owns / is owned by                           | owns / owned_by |      |          |
| serves, guards, works for, employs           | serves, guards, works_for, employs | |    |
| is sacred to, was killed / slain by, is married to | sacred_to, killed_by, married_to | | |
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from extraction.gazetteer import Mention
from extraction.taxonomy import ATTITUDE_OF_TYPE
from graphrag_core.models import Attitude

_APPOSITIVE = r"(?:\s*,[^,;:.!?\n]{1,60},)?"
_THE = r"(?:the\s+)?"
_BE = r"(?:is|are|was|were)\s+"
_PLACED = r"(?:located|situated|nestled|hidden|found)"


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    relation: str
    reverse: bool = False


def _rule(between: str, relation: str, reverse: bool = False) -> Rule:
    pattern = re.compile(_APPOSITIVE + between + _THE, re.IGNORECASE)
    return Rule(pattern, relation, reverse)


RULES: tuple[Rule, ...] = (
    _rule(r",?\s+(?:" + _BE + r")?" + _PLACED + r"\s+(?:in|within|inside)\s+", "located_in"),
    _rule(r"\s+(?:lies|lay|sits|stands)\s+(?:in|within|inside)\s+", "located_in"),
    _rule(r"\s+(?:lives|lived|dwells|resides)\s+in\s+", "located_in"),
    _rule(r"\s+" + _BE + r"(?:ruled|governed)\s+by\s+", "ruled_by"),
    _rule(r"\s+(?:rules|ruled|governs)\s+(?:over\s+)?", "ruled_by", reverse=True),
    _rule(r"\s+" + _BE + r"(?:a|an)\s+(?:\w+\s+)?member\s+of\s+", "member_of"),
    _rule(r"\s+belongs?\s+to\s+", "member_of"),
    _rule(r"\s+(?:leads|led)\s+", "leads"),
    _rule(r"\s+" + _BE + r"the\s+(?:leader|head|master|captain)\s+of\s+", "leads"),
    _rule(r"\s+(?:worships|worshipped)\s+", "worships"),
    _rule(r"\s+" + _BE + r"allied\s+with\s+", "allied_with"),
    _rule(r"\s+" + _BE + r"(?:an\s+)?all(?:y|ies)\s+of\s+", "allied_with"),
    _rule(r"\s+" + _BE + r"hostile\s+to(?:wards?)?\s+", "hostile_to"),
    _rule(r"\s+" + _BE + r"at\s+war\s+with\s+", "hostile_to"),
    _rule(r"\s+owns\s+", "owns"),
    _rule(r"\s+" + _BE + r"owned\s+by\s+", "owned_by"),
    _rule(r"\s+(?:serves|served)\s+", "serves"),
    _rule(r"\s+(?:guards|guarded)\s+", "guards"),
    _rule(r"\s+works\s+for\s+", "works_for"),
    _rule(r"\s+employs\s+", "employs"),
    _rule(r"\s+" + _BE + r"sacred\s+to\s+", "sacred_to"),
    _rule(r"\s+" + _BE + r"(?:killed|slain|murdered)\s+by\s+", "killed_by"),
    _rule(r"\s+" + _BE + r"married\s+to\s+", "married_to"),
)  # fmt: skip


@dataclass(frozen=True)
class Stated:
    """A relation stated in a text: ``source`` ``relation`` ``target``."""

    source: str
    relation: str
    target: str
    attitude: Attitude | None


def stated_relations(text: str, mentions: Sequence[Mention]) -> list[Stated]:
    """Relations between consecutive mentions (in text order) that a rule matches."""
    found: list[Stated] = []
    for left, right in itertools.pairwise(mentions):
        if left.entity_id == right.entity_id:
            continue
        between = text[left.end : right.start]
        for rule in RULES:
            if rule.pattern.fullmatch(between):
                source, target = (right, left) if rule.reverse else (left, right)
                attitude = ATTITUDE_OF_TYPE.get(rule.relation)
                found.append(Stated(source.entity_id, rule.relation, target.entity_id, attitude))
                break
    return found
