"""Capitalised words in first-person recaps that name nothing: pronoun contractions, days and
months alone, a car make after a colour or a possessive (issue 12, after the Gullport run)."""

from __future__ import annotations

import hashlib

import pytest

from extraction.offline import extract
from extraction.prose_names import common_words, contraction, name_spans
from extraction.prose_types import place_head_type
from graphrag_core.models import Entity, SourceDocument


def _names(text: str) -> list[str]:
    return [s.name for s in name_spans(text, common_words([text]))]


def _entities(text: str) -> dict[str, Entity]:
    sha = hashlib.sha256(text.encode()).hexdigest()
    doc = SourceDocument(path="session-01.md", kind="markdown", sha256=sha, text=text)
    return {e.name: e for e in extract([doc], chunk_size=1200).entities}


@pytest.mark.parametrize(
    "word", ["I'm", "I’m", "I'd", "I've", "I'll", "We're", "They'd", "It's", "Let's", "She's"]
)
def test_a_pronoun_contraction_is_one(word: str) -> None:
    assert contraction(word)


@pytest.mark.parametrize("word", ["Evie's", "Dorsey's", "O'Brien", "Szabo's", "Im"])
def test_a_name_or_its_possessive_is_no_contraction(word: str) -> None:
    assert not contraction(word)


def test_pronoun_contractions_are_never_names() -> None:
    text = (
        "I'm sure of it. Then I'd say we're done, and I've no doubt I'll be back. "
        "Tonight I'm Rosa Tarrant's guest. We're late, so They'll wait."
    )
    assert _names(text) == ["Rosa Tarrant"]


def test_a_day_or_a_month_alone_is_never_a_name() -> None:
    text = (
        "On Friday we met Mira Coll at the docks. Since March the mill is shut. "
        "By Sunday, Mira Coll sails. Friday's catch was poor."
    )
    assert _names(text) == ["Mira Coll", "Mira Coll"]


def test_a_day_or_a_month_inside_a_longer_name_is_kept() -> None:
    text = "We still talk of the Black Friday Raid. The May Day Fair fills Crown Square."
    assert _names(text) == ["Black Friday Raid", "May Day Fair", "Crown Square"]


def test_a_first_person_recap_makes_no_entity_of_i_m_or_friday() -> None:
    found = _entities(
        "# Session 1\n\nI'm the one who found Jonah Crewe on Friday. I'm still shaking. "
        "On Friday night Jonah Crewe said nothing.\n"
    )
    assert "Jonah Crewe" in found
    assert not {"I'm", "I", "Im", "Friday"} & set(found)


@pytest.mark.parametrize(
    "text",
    ["Evie drives a yellow Ford", "We took Evie's yellow Ford", "She parked her Ford",
     "He crashed his big Ford", "Lou sold a black Rock"],
)  # fmt: skip
def test_a_capitalised_head_noun_after_a_colour_or_possessive_is_no_place(text: str) -> None:
    word = text.rsplit(" ", 1)[1]
    assert place_head_type(text, len(text) - len(word), len(text)) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [("We rode on to Ashford", "Location"), ("We crossed Stony Ford", "Location"),
     ("We reached the yellow Mill Bridge", "Location")],
)  # fmt: skip
def test_a_place_head_noun_elsewhere_still_types_a_place(text: str, kind: str) -> None:
    name = "Ashford" if "Ashford" in text else text.split(" ", 2)[2].removeprefix("the yellow ")
    start = text.index(name)
    assert place_head_type(text, start, start + len(name)) == kind


def test_a_car_make_after_a_colour_is_not_typed_a_place() -> None:
    found = _entities(
        "# Session 2\n\nEvie drives a yellow Ford. We piled into Evie's yellow Ford and "
        "drove to Kettle Bridge. The yellow Ford stalled at Kettle Bridge.\n"
    )
    assert found["Kettle Bridge"].type == "Location"
    assert "Ford" not in found or found["Ford"].type != "Location"
