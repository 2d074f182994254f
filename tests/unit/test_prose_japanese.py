"""Japanese names in prose: honorifics taken off for matching ("Isobe-sama" is Isobe,
"O-Tsuru" is Tsuru), family names written first (where the list shows it), and the particle
"no" ("Kawasemi no Gonzō" is Gonzō of the Kawasemi). Western names keep their behaviour."""

from __future__ import annotations

import pytest

from extraction.gazetteer import Gazetteer
from extraction.honorifics import bare_name, family_name_first
from graphrag_core.models import Entity
from tests.unit.test_prose_campaigns import _named, _run
from tests.unit.test_prose_folds import _with_list


@pytest.mark.parametrize(
    ("written", "bare"),
    [("Isobe-sama", "Isobe"), ("Ishikawa-dono", "Ishikawa"), ("Tsuru-san", "Tsuru"),
     ("Dōan-sensei", "Dōan"), ("Kihei-dan'na", "Kihei"), ("Kii-bō", "Kii"),
     ("Eishun-oshō", "Eishun"), ("Han-oyabun", "Han"), ("Toku-jii", "Toku"),
     ("O-Tsuru", "Tsuru"), ("O-Kin", "Kin"), ("Isobe Gendayū-sama", "Isobe Gendayū"),
     ("Minoya no O-Kin", "Minoya no Kin"),
     # nothing to take off, or nothing left but a title
     ("Oshō-sama", "Oshō-sama"), ("O-bugyō-sama", "O-bugyō"), ("O'Brien", "O'Brien"),
     ("Marta Hollis", "Marta Hollis"), ("Anne-Sophie", "Anne-Sophie")],
)  # fmt: skip
def test_an_honorific_comes_off_a_name(written: str, bare: str) -> None:
    assert bare_name(written) == bare


def test_only_an_honorific_on_the_first_word_says_the_family_name_comes_first() -> None:
    assert family_name_first("Isobe Gendayū", ["Isobe-sama", "the Karō"])
    assert not family_name_first("Marta Hollis", ["Marta", "Ma Hollis"])  # a given name
    assert not family_name_first("Tsuru", ["O-Tsuru"])  # one word: nothing comes first


def test_the_gazetteer_finds_an_honorific_alias_without_it_only_for_the_own_name() -> None:
    gazetteer = Gazetteer(
        [
            Entity(id="isobe", name="Isobe Gendayū", type="NPC", aliases=("Isobe-sama",)),
            Entity(id="hime", name="Kurogawa-hime", type="Deity", aliases=("Suijin-sama",)),
        ]
    )
    found = gazetteer.find_mentions("Isobe frowned. Isobe-sama left. Suijin stirred.")
    assert [(m.entity_id, m.surface) for m in found] == [
        ("isobe", "Isobe"),
        ("isobe", "Isobe-sama"),
    ]  # "Suijin" of "Suijin-sama" is no word of "Kurogawa-hime"


_KUROGAWA = """entities:
  - {id: isobe-gendayu, name: Isobe Gendayū, type: NPC, aliases: [Isobe-sama, the Karō]}
  - {id: tsuchiya-kodayu, name: Tsuchiya Kōdayū, type: NPC, aliases: [Tsuchiya-sama]}
  - {id: marta-hollis, name: Marta Hollis, type: NPC, aliases: [Marta]}
  - {id: kawasemi-gonzo, name: Gonzō, type: NPC, aliases: [Kawasemi no Gonzō]}
  - {id: calla, name: Calla, type: NPC}
  - {id: ember, name: The Order of the Ember, type: Faction}
"""


def test_a_listed_family_name_alone_is_the_person_not_a_new_one() -> None:
    prose = (
        "# Notes\n\n"
        "The tax rice went by barge. Isobe signed the passes. Isobe's men guard the gate.\n"
        "Tsuchiya counted the sacks. Nobody trusts Tsuchiya.\n"
    )
    ids = {e.id for e in _with_list(_KUROGAWA, prose).entities}
    assert not {"isobe", "tsuchiya"} & ids


def test_a_western_first_word_alone_is_no_family_name() -> None:
    prose = "# Notes\n\nHollis keeps the inn. Everyone owes Hollis money.\n"
    found = {e.id: e for e in _with_list(_KUROGAWA, prose).entities}
    assert "hollis" not in found  # her surname, last, as before
    assert "marta-hollis" in found


def test_a_name_with_the_particle_no_in_english_is_the_listed_person() -> None:
    prose = (
        "# The donors\n\n"
        "Gonzō of the Kawasemi gave 120 monme. Gonzō of the Kawasemi counted it twice.\n"
        "Calla of the Order of the Ember gave a candle. Calla of the Order of the Ember left.\n"
    )
    ids = {e.id for e in _with_list(_KUROGAWA, prose).entities}
    assert "gonzo-of-the-kawasemi" not in ids
    # no alias joins them, but both are listed: the phrase names the two, and is no third
    assert "calla-of-the-order-of-the-ember" not in ids


def test_prose_only_honorific_forms_are_one_person() -> None:
    text = (
        "# Letters\n\n"
        "O-Tsuru sang at the teahouse. Tsuru-san owes rent. Tsuru ran to the shrine.\n"
        "Isobe-sama signed the order. Isobe frowned at the clerk.\n"
    )
    found = _named(_run(text))
    assert not {"O-Tsuru", "Tsuru-san", "Isobe-sama"} & set(found)
    assert {"O-Tsuru", "Tsuru-san"} <= set(found["Tsuru"].aliases)
    assert "Isobe-sama" in found["Isobe"].aliases


def test_prose_only_a_name_joined_by_no_folds_into_the_given_name() -> None:
    text = (
        "# The town\n\n"
        "Onibi no Sakichi runs the Ōwada. Sakichi smiled at the bridge. Sakichi waited.\n"
        "Yoru no Ame is a tea bowl. Yoru no Ame is black.\n"
    )
    found = _named(_run(text))
    assert "Onibi no Sakichi" in found["Sakichi"].aliases
    assert "Yoru no Ame" in found  # no "Ame" alone: a name of its own


def test_an_o_prefixed_given_name_is_whole_not_a_short_form() -> None:
    text = (
        "# The ward\n\n"
        "Kingfisher Gonzō runs the dice hall. Kingfisher Gonzō limps.\n"
        "O-Kin keeps the inn. Kin cooks miso. Kin laughed at the clerk.\n"
    )
    found = _named(_run(text))
    assert "Kin" in found and "Kin" not in found["Kingfisher Gonzō"].aliases


def test_a_name_for_the_object_noun_is_no_alias_of_the_subject() -> None:
    text = (
        "# The houses\n\n"
        "Gonzō heads the house known as the Kawasemi-ikka. Gonzō limps. Gonzō drinks.\n"
        "The Kawasemi-ikka holds the river bank. The Kawasemi-ikka dices at night.\n"
        "Orm, the smith known as Redhand, shoes horses. Orm sings.\n"
    )
    found = _named(_run(text))
    assert "Kawasemi-ikka" not in found["Gonzō"].aliases
    assert "Redhand" in found["Orm"].aliases


_OFFICES = """entities:
  - {id: okamura, name: Okamura Heishirō, type: NPC, aliases: [Okamura-sama, the Magistrate]}
  - {id: crane, name: Marshal Elias Crane, type: NPC, aliases: [the Marshal]}
  - {id: sendo-za, name: The Kurogawa Boatmen's Guild, type: Faction, aliases: [the Sendō-za]}
  - {id: dorseys, name: Dorsey's Boarding House, type: Location,
     aliases: [the rooming house on Cable Street]}
"""


def test_an_office_of_a_place_is_the_one_listed_person_holding_the_office() -> None:
    prose = (
        "# Report\n\n"
        "Submitted to Okamura Heishirō-sama, Town Magistrate of Kurogawa. The Town Magistrate"
        " read it. The Town Magistrate sighed.\n"
        "Deputy Marshal Hoyt rode out. Deputy Marshal Hoyt rode back.\n"
    )
    found = {e.id: e for e in _with_list(_OFFICES, prose).entities}
    assert not {"town-magistrate", "town-magistrate-of-kurogawa"} & set(found)
    assert "crane" in found and "Deputy Marshal Hoyt" not in found["crane"].aliases


def test_a_listed_group_s_name_without_its_first_word_is_that_group() -> None:
    prose = (
        "# The river\n\n"
        "The Boatmen's Guild runs the barges. The Boatmen's Guild hates the castle.\n"
        "Cable Street floods in spring. Cable Street is mud.\n"
    )
    ids = {e.id for e in _with_list(_OFFICES, prose).entities}
    assert "boatmens-guild" not in ids
    assert "cable-street" in ids  # where the boarding house stands, not its name


def test_prose_only_the_english_of_a_no_name_is_the_same_person() -> None:
    text = (
        "# Donors\n\n"
        "Kawasemi no Gonzō runs the dice hall. Gonzō limps. Gonzō drinks plum wine.\n"
        "Gonzō of the Kawasemi gave 120 monme. Gonzō of the Kawasemi counted it twice.\n"
        "Calla of the Order of the Ember gave a candle. Calla of the Order of the Ember left.\n"
        "Calla sings.\n"
    )
    found = _named(_run(text))
    assert "Gonzō of the Kawasemi" in found["Gonzō"].aliases
    assert "Calla of the Order of the Ember" in found  # no "no" form names her so


def test_the_end_of_a_listed_alias_is_not_that_place() -> None:
    pack = """entities:
  - {id: berth-14, name: Berth 14, type: Location, aliases: [Sai Wan Container Terminal]}
"""
    prose = "# Ops\n\nThe Container Terminal was quiet. The Container Terminal smelled of rust.\n"
    assert "container-terminal" in {e.id for e in _with_list(pack, prose).entities}
