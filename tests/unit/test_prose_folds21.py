"""A listed person's name written longer, shorter or turned round in the prose folds into them:
their own one-word titles before it ("Hetman Ostap Bulba" of the person listed as "the
Hetman"), the first words of a long name ("Marfa Ilyinichna" of Marfa Ilyinichna Gorelova),
a middle name between given name and surname ("Piotr Andreyevich Vlasov" of Piotr Vlasov), a
lone given name no other listed name holds ("Your servant, Gavrila."), a "<head> of <tail>"
name turned round ("Borovsk Butcher" of The Butcher of Borovsk) and its head alone after "the"
("the Thief" of The Thief of Kursk). Every text is written for these tests (a Cossack
frontier town)."""

from __future__ import annotations

from graphrag_core.models import Entity
from tests.unit.test_prose_folds import _with_list

_LIST = """entities:
  - {id: ostap, name: Ostap Bulba, type: NPC, aliases: [the Hetman, Bulba]}
  - {id: marfa, name: Marfa Ilyinichna Gorelova, type: NPC, aliases: [Marfusha]}
  - {id: vlasov, name: Piotr Vlasov, type: NPC, aliases: [the Clerk]}
  - {id: shuisky, name: Gavrila Shuisky, type: NPC}
  - {id: butcher, name: The Butcher of Borovsk, type: NPC, aliases: [the Pretender]}
  - {id: anna, name: Anna Sokol, type: NPC}
  - {id: kursk-thief, name: The Thief of Kursk, type: NPC}
  - {id: fort, name: Borovsk Fort, type: Location}
"""

_NOTES = """# Borovsk, winter

- Hetman Ostap Bulba holds the ford. Hetman Ostap Bulba drinks with the boatmen.
- Marfa Ilyinichna keeps the ledger. Marfa Ilyinichna never smiles.
- Piotr Andreyevich Vlasov writes the letters. Piotr Andreyevich Vlasov takes bribes.
- The Borovsk Butcher wants the fort. The Butcher sends riders, and the Butcher pays well.
- The Thief robs the salt carts. Everyone fears the Thief, and the Thief knows it.
- Maria Anna Sokol sells honey at Borovsk Fort. Maria Anna Sokol is Anna's aunt.

## A letter

Bring the salt before the thaw. Gavrila waits at the ford; Gavrila trusts nobody.
Your servant, Gavrila.
"""


def _entities() -> dict[str, Entity]:
    return {e.id: e for e in _with_list(_LIST, _NOTES).entities}


def test_a_listed_name_after_the_persons_own_one_word_title_is_that_person() -> None:
    entities = _entities()
    assert not any(e.name == "Hetman Ostap Bulba" for e in entities.values())
    assert "Hetman Ostap Bulba" in entities["ostap"].aliases


def test_a_longer_given_name_before_a_listed_name_is_someone_else() -> None:
    entities = _entities()  # "Maria Anna Sokol": no title of Anna Sokol's before her name
    assert any(e.name == "Maria Anna Sokol" for e in entities.values())
    assert "Maria Anna Sokol" not in entities["anna"].aliases


def test_the_first_words_of_a_long_listed_name_are_that_person() -> None:
    entities = _entities()
    assert not any(e.name == "Marfa Ilyinichna" for e in entities.values())
    assert "Marfa Ilyinichna" in entities["marfa"].aliases


def test_a_middle_name_between_a_listed_given_name_and_surname_is_that_person() -> None:
    entities = _entities()
    assert not any(e.name == "Piotr Andreyevich Vlasov" for e in entities.values())
    assert "Piotr Andreyevich Vlasov" in entities["vlasov"].aliases


def test_a_lone_given_name_no_other_listed_name_holds_is_that_person() -> None:
    entities = _entities()
    assert "shuisky" in entities and not any(e.name == "Gavrila" for e in entities.values())


def test_a_name_of_head_and_tail_turned_round_or_its_head_alone_is_that_person() -> None:
    entities = _entities()
    names = {e.name for e in entities.values()}
    assert not {"Borovsk Butcher", "Butcher", "Thief"} & names
    assert "Borovsk Butcher" in entities["butcher"].aliases
    assert "the Thief" in entities["kursk-thief"].aliases


_BORDER_LIST = """entities:
  - {id: f-roth, name: Ferdinand Roth, type: NPC, aliases: [Roth]}
  - {id: halszka, name: Halszka Zborowska, type: NPC, aliases: [the Swan]}
"""

_BORDER_NOTES = """# Notes

- Oberinspektor Roth runs the border post. Oberinspektor Roth hates smugglers. Roth drinks.
- His wife is the fairest woman on the Vistula; they call her the Swan, for her long neck.
- The Vistula carries the timber rafts down to the Vistula delta. Halszka sings by the river.
"""


def test_an_unknown_office_before_a_listed_persons_own_surname_is_that_person() -> None:
    entities = {e.id: e for e in _with_list(_BORDER_LIST, _BORDER_NOTES).entities}
    assert not any(e.name == "Oberinspektor Roth" for e in entities.values())
    assert "Oberinspektor Roth" in entities["f-roth"].aliases


def test_a_prose_entity_takes_no_name_the_list_gives_another() -> None:
    entities = {e.id: e for e in _with_list(_BORDER_LIST, _BORDER_NOTES).entities}
    river = next(e for e in entities.values() if e.name == "Vistula")
    assert not {"Swan", "the Swan"} & {*river.aliases, *river.gm_aliases}  # Halszka's
