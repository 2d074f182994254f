"""Relations stated in prose between two known mentions."""

from __future__ import annotations

import pytest

from extraction.gazetteer import Gazetteer
from extraction.patterns import stated_relations
from graphrag_core.models import Entity

ENTITIES = [
    Entity(id="x", name="Red Oak Tavern", type="Location"),
    Entity(id="y", name="Millbrook Village", type="Location"),
]


def _stated(sentence: str) -> list[tuple[str, str, str, str | None]]:
    mentions = Gazetteer(ENTITIES).find_mentions(sentence)
    return [
        (s.source, s.relation, s.target, s.attitude) for s in stated_relations(sentence, mentions)
    ]


@pytest.mark.parametrize(
    ("between", "relation"),
    [
        ("is located in", "located_in"),
        (", located in", "located_in"),
        ("lies in the", "located_in"),
        (", the oldest inn around, is situated in", "located_in"),
        ("is ruled by", "ruled_by"),
        ("is a member of the", "member_of"),
        ("is a founding member of", "member_of"),
        ("belongs to", "member_of"),
        ("leads", "leads"),
        ("is the leader of", "leads"),
        ("worships", "worships"),
        ("owns", "owns"),
        ("is owned by", "owned_by"),
        ("serves", "serves"),
        ("guards", "guards"),
        ("is sacred to", "sacred_to"),
        ("works for", "works_for"),
        ("was slain by", "killed_by"),
    ],
)
def test_forward_rules(between: str, relation: str) -> None:
    sentence = f"Red Oak Tavern{'' if between.startswith(',') else ' '}{between} Millbrook Village."
    assert _stated(sentence) == [("x", relation, "y", None)]


def test_reverse_rule() -> None:
    assert _stated("Red Oak Tavern rules over Millbrook Village.") == [("y", "ruled_by", "x", None)]


@pytest.mark.parametrize(
    ("between", "relation", "attitude"),
    [
        ("is allied with", "allied_with", "allied"),
        ("is an ally of", "allied_with", "allied"),
        ("is hostile to", "hostile_to", "hostile"),
        ("is at war with the", "hostile_to", "hostile"),
    ],
)
def test_attitude_rules(between: str, relation: str, attitude: str) -> None:
    assert _stated(f"Red Oak Tavern {between} Millbrook Village") == [
        ("x", relation, "y", attitude)
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Red Oak Tavern is near Millbrook Village.",
        "Red Oak Tavern burned. Located in Millbrook Village, it was rebuilt.",
        "Red Oak Tavern, which nobody says is located in, Millbrook Village",
        "Red Oak Tavern and Red Oak Tavern are located in the same place.",
    ],
)
def test_no_relation(sentence: str) -> None:
    assert _stated(sentence) == []
