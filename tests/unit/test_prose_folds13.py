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
