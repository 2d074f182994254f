"""Prose-only types from a list line's label, a house's sign, a saint's possessive and an
animal in apposition (branch ex17): "Taverns and lodgings: the Drowned Man (Ma Greaves), ..."
and "drinking at the Drowned Man" make a tavern named for a man a place; "at St. Wendel's" is
the saint's house, not the saint; "Old Bishop, the great hammerhead" is a creature, not a
bishop. Every text here is written for these tests (a harbour town, a reef); each test fails
on the code before its rule."""

from __future__ import annotations

from extraction.prose_names import common_words, name_spans
from extraction.prose_types import (
    apposition_type,
    label_type,
    listed_type,
    place_head_type,
    title_type,
)
from tests.unit.prose_helpers import entities_of


def _listed(text: str) -> dict[str, str | None]:
    return {
        s.name: listed_type(text, s.start, s.end) for s in name_spans(text, common_words([text]))
    }


def test_a_list_labelled_by_plural_nouns_of_one_kind_types_its_whole_items() -> None:
    found = _listed(
        "- Inns and lodgings: the Hanged Sailor (Ma Rudd), the Widow Crane's rooms on "
        "Pitch Lane, where the crew sleeps."
    )
    assert found["Hanged Sailor"] == "Location"
    assert found["Ma Rudd"] is None  # in brackets: who keeps it
    assert found["Crane"] is None and found["Pitch Lane"] is None  # inside an item, not it
    assert _listed("**Gangs:** the Red Hands, the Gulls and the Tar Boys.") == {
        "Gangs": None,
        "Red Hands": "Faction",
        "Gulls": "Faction",
        "Tar Boys": "Faction",
    }
    assert _listed("Places: Orm Hall; the Green Man.")["Green Man"] == "Location"


def test_a_label_of_no_kind_or_of_two_kinds_or_in_the_singular_types_nothing() -> None:
    assert label_type("Legends") is None
    assert label_type("Allies") is None
    assert label_type("Inns and gangs") is None  # two kinds
    assert label_type("Tavern") is None  # a field's label, not a list of its kind
    assert _listed("Legends: Davy Jones, whom every hand toasts.")["Davy Jones"] is None


def test_a_name_the_list_names_only_in_a_sentence_is_not_typed_by_its_label() -> None:
    text = "Taverns: none since the Hanged Sailor burned, said Orm Vell."
    assert _listed(text)["Orm Vell"] is None


def test_a_tavern_named_for_a_man_is_a_place_when_a_list_says_so() -> None:
    found = entities_of(
        (
            "town.md",
            "# The Town\n\n"
            "- Inns and lodgings: the Hanged Sailor (Ma Rudd), the Widow Crane's rooms.\n\n"
            "The crew drank at the Hanged Sailor. The Hanged Sailor burned down in May.\n",
        )
    )
    assert found["Hanged Sailor"].type == "Location"


def test_an_animal_in_apposition_makes_a_creature() -> None:
    text = "Legends: Old Deacon, the great hammerhead that haunts the reef."
    start = text.index("Deacon")
    assert apposition_type(text, start, start + len("Deacon")) == "Creature"
    found = entities_of(
        (
            "reef.md",
            "# The Reef\n\n"
            "Legends: Old Deacon, the great hammerhead that haunts the reef.\n\n"
            "Old Deacon, the big hammerhead, took a diver. Old Deacon was harpooned.\n",
        )
    )
    assert found["Deacon"].type == "Creature"


def test_a_person_who_hunts_an_animal_is_no_creature() -> None:
    text = "Tom Sharkey, a harpooner who fears no shark, signed on."
    assert apposition_type(text, 0, len("Tom Sharkey")) == "NPC"


def test_a_name_headed_by_a_persons_noun_at_the_sign_is_a_house() -> None:
    found = entities_of(
        (
            "town.md",
            "# The Town\n\n"
            "We drank at the Jolly Sailor. Orm waited outside the Jolly Sailor. "
            "The Jolly Sailor burned down.\n",
        )
    )
    assert found["Jolly Sailor"].type == "Location"
    assert _head("met at the Jolly Sailor", "Jolly Sailor") == "Location"


def test_a_persons_noun_elsewhere_or_in_the_possessive_still_names_a_person() -> None:
    assert _head("we laughed at the Pirate King's hat", "Pirate King") == "NPC"
    assert _head("a letter from the Pirate King", "Pirate King") == "NPC"
    assert _head("the Pirate King swore", "Pirate King") == "NPC"


def _head(text: str, name: str) -> str | None:
    start = text.index(name)
    return place_head_type(text, start, start + len(name))


def test_a_saints_name_in_the_possessive_is_the_place_called_after_the_saint() -> None:
    found = entities_of(
        (
            "town.md",
            "# The Town\n\n"
            "The sick go up to St. Wendel's. Father Orm keeps a hospice at St. Wendel's.\n",
        )
    )
    assert found["Wendel"].type == "Location"
    assert title_type("St", possessive=True) == "Location"


def test_a_saint_named_plainly_is_still_the_saint() -> None:
    found = entities_of(
        ("town.md", "# The Town\n\nPilgrims pray to St Wendel. St Wendel drowned long ago.\n")
    )
    assert found["Wendel"].type == "Deity"
    assert title_type("Captain", possessive=True) == "NPC"  # "Captain Orm's ship" is his
