"""Forms of listed names that made new entities beside a name list (branch ex17): surname
particles ("Pieter van der Meer", "P. van der Meer", "Van der Meer" opening a sentence), a
saint's "St." read as a full stop ("St. Brendan's Mission"), a place's name written the
other way round ("Mesa del Cuervo" of Cuervo Mesa), a listed name with an office after it
("Hannah Rooke Quartermaster"), a word of the office a listed title holds ("the Boatswain" of
"Bosun Billy"). Every text here is written for these
tests (a Dutch trading town, a frontier mesa); each test fails on the code before its rule."""

from __future__ import annotations

from pathlib import Path

from extraction.prose_entities import sentences
from tests.unit.prose_helpers import entities_of, names_in, world

_TRADERS = """entities:
  - {id: joost-van-den-berg, name: Joost van den Berg, type: NPC, aliases: [Van den Berg]}
  - {id: berg-house, name: The Van den Berg House, type: Faction, aliases: [the Berg house]}
  - {id: st-walburga, name: St. Walburga's Chapel, type: Location, aliases: [St. Walburga's]}
  - {id: st-kitts, name: St. Kitts, type: Location}
  - {id: crow-mesa, name: Crow Mesa, type: Location, aliases: [the mesa]}
  - {id: ada-vell, name: Ada Vell, type: NPC}
"""
_TRADERS_PROSE = """# The Traders

- **The Van den Berg house** of Kitts: old Joost and his clerks, who sell powder to all.
- Mijnheer Joost van den Berg has been very obliging. Van den Berg trades at night.
- The clerks of van den Berg keep a van at the quay.

| Day | Master | From |
|---|---|---|
| 9 Feb | J. van den Berg | St. Kitts |
| 4 Mar | J. van den Berg | St. Kitts |

Ada Vell prays at St. Walburga's Chapel. Under St. Walburga's is a cellar. Ada Vell went
up to St. Walburga's again. The Spaniards call the hill *Mesa del Crow*, and Ada Vell says
Mesa del Crow is haunted.
"""


def _extras(tmp_path: Path) -> set[str]:
    extraction = world(tmp_path, _TRADERS, _TRADERS_PROSE, "lore.md")
    listed = {"joost-van-den-berg", "berg-house", "st-walburga", "st-kitts", "crow-mesa"}
    return {e.name for e in extraction.entities if e.id not in listed | {"ada-vell"}}


def test_surname_particles_join_a_given_name_to_its_surname() -> None:
    assert names_in("Mijnheer Pieter van der Meer has been obliging.") == [
        "Mijnheer Pieter van der Meer"
    ]
    assert names_in("Maria de la Cruz sang and Jan ter Horst listened.") == [
        "Maria de la Cruz",
        "Jan ter Horst",
    ]
    assert names_in("Ludwig von Starke waited.") == ["Ludwig von Starke"]


def test_a_surname_opens_with_its_particles() -> None:
    assert names_in("Van der Meer sells powder. A van came.") == ["Van der Meer"]
    assert names_in("P. van der Meer, of the house of van der Meer.") == [
        "van der Meer",
        "van der Meer",
    ]
    assert names_in("De Vaux rode out, and the delivery van came.") == ["De Vaux"]


def test_a_particle_that_is_a_word_or_an_article_opens_no_surname() -> None:
    assert names_in("We paid Tench ten Spanish dollars.") == ["Tench", "Spanish"]
    assert names_in("Orm drove the van Ruth bought.") == ["Orm", "Ruth"]
    assert names_in("Orm calls it *la Mesa del Cuervo*.") == ["Orm", "Mesa del Cuervo"]


def test_a_saints_stop_ends_no_sentence_and_parts_no_name() -> None:
    text = "Doyle keeps a hospice at St. Brendan's for sailors. Under St. Brendan's is a cellar."
    assert [text[a:b] for a, b in sentences(text)] == [
        "Doyle keeps a hospice at St. Brendan's for sailors.",
        "Under St. Brendan's is a cellar.",
    ]
    assert names_in("They met at St. Brendan's Mission.") == ["St. Brendan's Mission"]


def test_a_streets_stop_after_its_name_still_ends_a_sentence() -> None:
    text = "Orm lives on Cable St. The next day Orm left."
    assert [text[a:b] for a, b in sentences(text)] == [
        "Orm lives on Cable St.",
        "The next day Orm left.",
    ]


def test_forms_of_listed_names_with_particles_or_a_saint_make_no_entity(tmp_path: Path) -> None:
    extras = _extras(tmp_path)
    for fragment in ("Van", "Berg", "Walburga", "Walburga's Chapel", "Kitts", "Mesa del Crow"):
        assert fragment not in extras
    assert not any(name.endswith("van den Berg") for name in extras)


def test_a_place_named_the_other_way_round_is_the_listed_place(tmp_path: Path) -> None:
    extraction = world(tmp_path, _TRADERS, _TRADERS_PROSE, "lore.md")
    mesa = next(e for e in extraction.entities if e.id == "crow-mesa")
    assert "Mesa del Crow" in mesa.aliases


def test_only_a_place_or_group_is_named_the_other_way_round(tmp_path: Path) -> None:
    prose = "# Notes\n\nVell of Ada rode out. Vell of Ada came back. Ada Vell laughed.\n"
    extraction = world(tmp_path, _TRADERS, prose, "lore.md")
    person = next(e for e in extraction.entities if e.id == "ada-vell")
    assert "Vell of Ada" not in person.aliases
    assert "Vell of Ada" in {e.name for e in extraction.entities}


_CREW = """entities:
  - {id: silas-tench, name: Silas Tench, type: NPC, aliases: [Captain Tench, Tench]}
  - {id: hannah-rooke, name: Hannah Rooke, type: NPC, aliases: [Red Hannah]}
  - {id: billy-fitch, name: William Fitch, type: NPC, aliases: [Bosun Billy, Fitch]}
"""
_ARTICLES = """# The Articles

*Sworn at the Anchor, Silas Tench being chosen Captain and Hannah Rooke Quartermaster by the
voice of the crew.*

I. The Gunner, the Surgeon and the Boatswain take one share and a quarter. The Boatswain
keeps the rope. Red Hannah keeps the stores.
"""


def test_a_listed_name_with_an_office_after_it_is_that_person(tmp_path: Path) -> None:
    extraction = world(tmp_path, _CREW, _ARTICLES, "articles.md")
    names = {e.name for e in extraction.entities}
    assert "Hannah Rooke Quartermaster" not in names
    rooke = next(e for e in extraction.entities if e.id == "hannah-rooke")
    assert not any("Quartermaster" in alias for alias in rooke.aliases)  # no name of hers


def test_a_word_of_a_listed_persons_office_is_that_person(tmp_path: Path) -> None:
    extraction = world(tmp_path, _CREW, _ARTICLES, "articles.md")
    assert "Boatswain" not in {e.name for e in extraction.entities}
    assert any("billy-fitch" in chunk.mentions for chunk in extraction.chunks)


def test_an_office_after_a_name_no_person_bears_makes_its_own_entity(tmp_path: Path) -> None:
    prose = "# Notes\n\nAda Vell Quartermaster signed. Ada Vell Quartermaster left.\n"
    names = {e.name for e in world(tmp_path, _CREW, prose, "notes.md").entities}
    assert "Ada Vell Quartermaster" in names  # no listed person: the prose's name, as before


def test_without_a_list_a_place_named_the_other_way_round_is_one_place() -> None:
    found = entities_of(
        (
            "town.md",
            "# The Town\n\n"
            "Crow Mesa stands over the town. The herders call it *la Mesa del Crow*, and say\n"
            "Mesa del Crow is haunted. Nobody climbs Crow Mesa after dark.\n",
        )
    )
    assert "Mesa del Crow" not in found
    assert "Mesa del Crow" in found["Crow Mesa"].aliases


def test_without_a_list_people_named_the_other_way_round_stay_apart() -> None:
    found = entities_of(
        (
            "notes.md",
            "# Notes\n\nJon of Harrow smiled. Jon of Harrow said no.\n"
            "Harrow Jon wept. Harrow Jon left.\n",
        )
    )
    assert "Jon of Harrow" in found and "Harrow Jon" in found
