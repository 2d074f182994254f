"""Prose-only folds of one person's other names: pet forms beyond English, dossier file-card
names ("VORONIN, Arkady Semyonovich — crypt. CARDINAL"), codenames and nicknames in brackets
after a name, and a given name alone whose full name the prose writes once."""

from __future__ import annotations

import pytest

from extraction.nicknames import pet_form, shortens
from tests.unit.test_prose_campaigns import _named, _run


@pytest.mark.parametrize(
    ("short", "full"),
    [("Toni", "Anton"), ("Resi", "Theresia"), ("Gustl", "Gustav"), ("Kazik", "Kazimierz"),
     ("Laci", "László"), ("Laci", "Laszlo"), ("Teddy", "Theodor"), ("Dot", "Dorothy"),
     ("Sasha", "Alexander"), ("Misha", "Mikhail"), ("Pepe", "José"), ("Paco", "Francisco"),
     ("Beppe", "Giuseppe"), ("Ferdl", "Ferdinand")],
)  # fmt: skip
def test_pet_forms_of_given_names_beyond_english(short: str, full: str) -> None:
    assert pet_form(short, full)


def test_a_foreign_pet_form_never_goes_the_other_way_nor_to_another_name() -> None:
    assert not pet_form("Anton", "Toni")
    assert not shortens("Toni", "Theresia")
    assert not pet_form("Pepe", "Paco")


def test_a_foreign_pet_form_with_the_surname_is_the_person() -> None:
    text = (
        "# The Ring\n\n"
        "Anton Pokorny runs the lorries. Anton Pokorny once studied law.\n"
        "Toni Pokorny sold us nylons. Toni Pokorny sold us out.\n"
    )
    entities = _named(_run(text))
    assert "Toni Pokorny" not in entities
    assert "Toni Pokorny" in entities["Anton Pokorny"].aliases


def test_a_file_card_names_the_person_given_name_first_with_its_cryptonym() -> None:
    text = (
        "# Personalities\n\n"
        "### 1. VORONIN, Arkady Semyonovich — crypt. CARDINAL\n\n"
        "- Cover: trade official.\n\n"
        "### 2. VORONINA, Vera Pavlovna\n\n"
        "- Teaches piano.\n\n"
        "## Notes\n\n"
        "CARDINAL met us on the wheel. CARDINAL wants out. Vera Pavlovna plays badly.\n"
        "Arkady Voronin drinks little. Vera Pavlovna is watched.\n"
    )
    entities = _named(_run(text))
    assert "CARDINAL" not in entities and "Vera Pavlovna" not in entities
    assert "CARDINAL" in entities["Arkady Voronin"].aliases
    assert "Vera Pavlovna" in entities["Vera Voronina"].aliases


def test_a_line_in_capitals_before_a_comma_names_no_one_by_a_weekday_or_an_initialism() -> None:
    from extraction.prose_aliases import file_card

    assert file_card("LONDON, Tuesday — rain.") is None
    assert file_card("KGB, Moscow") is None
    card = file_card("- Wife: KRANZ, Agnes, co-owner")
    assert card is not None and card.name == "Agnes Kranz"


def test_a_codename_in_brackets_beside_a_name_is_the_persons() -> None:
    text = (
        "# Team\n\n"
        "- **Miles Ashcombe** (HERON; the team leader). Miles Ashcombe leads.\n"
        "- Team: HERON (Ashcombe), WREN (Kells).\n"
        "- **Dot Kells** (WREN). Dot Kells types.\n\n"
        "HERON met WREN at the station. HERON paid. WREN signalled.\n"
    )
    entities = _named(_run(text))
    assert "HERON" not in entities and "WREN" not in entities
    assert "HERON" in entities["Miles Ashcombe"].aliases
    assert "WREN" in entities["Dot Kells"].aliases


def test_a_quoted_nickname_or_epithet_in_brackets_beside_a_name_folds_in() -> None:
    text = (
        "# Contacts\n\n"
        '- **Anton Pokorny** ("Herr Doktor"). Anton Pokorny sells nylons.\n'
        "- **Gustl Wendl** (the Sewer Rat). Gustl Wendl knows the drains.\n\n"
        "The Herr Doktor sold us. Herr Doktor was shot. The Sewer Rat took us through. "
        "The Sewer Rat was paid.\n"
    )
    entities = _named(_run(text))
    assert "Herr Doktor" not in entities and "Sewer Rat" not in entities
    assert "Herr Doktor" in entities["Anton Pokorny"].aliases
    assert "the Sewer Rat" in entities["Gustl Wendl"].aliases


def test_a_bracket_after_a_name_cut_short_or_shared_gives_no_alias() -> None:
    text = (
        "# Services\n\n"
        "Ilse Brenner couriers for the Ministry for State Security (the Stasi). "
        "The Stasi lends couriers. The Stasi pays.\n"
        "Walt Hennessey (CIA) came. Julian Thorne (CIA) came too.\n"
    )
    entities = _named(_run(text))
    assert "Stasi" in entities
    assert "CIA" not in entities.get("Walt Hennessey", entities["Stasi"]).aliases


def test_a_codename_never_folds_a_party_name_into_a_gm_only_person() -> None:
    text = (
        "# Team\n\nHERON met us. HERON paid. HERON left.\n\n"
        "## GM only\n\n- **Miles Ashcombe** (HERON). Miles Ashcombe is a traitor.\n"
    )
    extraction = _run(text)
    entities = _named(extraction)
    assert "HERON" in entities


def test_a_given_name_alone_folds_into_the_full_name_written_once() -> None:
    text = (
        "# Team\n\n"
        "Teddy drives. Teddy picks locks. Brandt is his grandmother's name. Brandt again.\n"
        "Teddy Brandt was born here. Teddy was captured.\n"
    )
    entities = _named(_run(text))
    assert "Teddy" not in entities and "Brandt" not in entities
    assert {"Teddy", "Brandt"} <= set(entities["Teddy Brandt"].aliases)


def test_a_given_name_of_two_people_written_once_each_stays_alone() -> None:
    text = (
        "# Team\n\n"
        "Teddy drives. Teddy picks locks. Brandt waits. Brandt again.\n"
        "Teddy Brandt was born here. Teddy Moss was not.\n"
    )
    entities = _named(_run(text))
    assert "Teddy" in entities
