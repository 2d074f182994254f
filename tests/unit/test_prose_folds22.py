"""Someone's listed thing, place or group, written with its owner before it in the
possessive, is that listed entity ("the Abbess's Copper Bell" of The Copper Bell): no second
entity beside it, and the longer form joins its names. Every text is written for these tests (a
canal town of lock-keepers and bargemen)."""

from __future__ import annotations

from graphrag_core.models import Entity
from tests.unit.test_prose_folds import _with_list

_LIST = """entities:
  - {id: abbess, name: Mother Hilde, type: NPC, aliases: [the Abbess]}
  - {id: fenn, name: Jory Fenn, type: NPC, aliases: [Old Fenn]}
  - {id: bell, name: The Copper Bell, type: Item, aliases: [the bell]}
  - {id: bargemen, name: The Tarpaulin Crews, type: Faction, aliases: [the Crews]}
  - {id: guild, name: The Lock-Keepers' Guild, type: Faction, aliases: [the Guild]}
  - {id: wharf, name: Low Wharf, type: Location}
"""

_NOTES = """# Canal notes

- The Abbess's Copper Bell rings for every barge. The Abbess's Copper Bell hangs at Low Wharf.
- Boss Garin's Tarpaulin Crews run the night barges. Boss Garin's Tarpaulin Crews pay no toll.
- Old Fenn of the Lock-Keepers' Guild opens the gates. Old Fenn of the Lock-Keepers' Guild
  drinks at Low Wharf.
"""


def _entities() -> dict[str, Entity]:
    return {e.id: e for e in _with_list(_LIST, _NOTES).entities}


def test_a_listed_thing_with_its_owner_before_it_is_that_thing() -> None:
    entities = _entities()
    assert not any(e.name == "Abbess's Copper Bell" for e in entities.values())
    assert "Abbess's Copper Bell" in entities["bell"].aliases


def test_a_listed_group_with_its_boss_before_it_is_that_group() -> None:
    entities = _entities()
    assert not any("Garin's Tarpaulin" in e.name for e in entities.values())
    assert "Boss Garin's Tarpaulin Crews" in entities["bargemen"].aliases


def test_someone_of_a_listed_group_is_not_the_group() -> None:
    entities = _entities()  # "Old Fenn of the Lock-Keepers' Guild": a keeper, not the Guild
    assert not any("Old Fenn" in a for a in entities["guild"].aliases)
    assert "Old Fenn" not in entities["guild"].aliases


_HOUSES = """entities:
  - {id: lapo, name: Lapo di Cosimo Ridolfi, type: NPC, aliases: [Messer Lapo, il Grasso]}
  - {id: marta, name: Marta Kettering, type: NPC, aliases: [Boss Kett, Ma Kettering]}
  - {id: rustline, name: The Rustline Company, type: Faction, aliases: [the Rustline]}
"""

_LEDGER = """# The ledger of favours

- Messer Lapo di Cosimo Ridolfi owes the dyers. Messer Lapo di Cosimo Ridolfi pays late.
- Boss Kettering of the Rustline runs the convoys. Kettering of the Rustline never sleeps.
"""


def test_a_full_name_after_a_title_of_the_persons_own_alias_is_that_person() -> None:
    entities = {e.id: e for e in _with_list(_HOUSES, _LEDGER).entities}
    assert not any(e.name == "Messer Lapo di Cosimo Ridolfi" for e in entities.values())
    assert "Messer Lapo di Cosimo Ridolfi" in entities["lapo"].aliases


def test_a_listed_persons_surname_with_their_group_after_it_is_no_one_new() -> None:
    entities = {e.id: e for e in _with_list(_HOUSES, _LEDGER).entities}
    assert set(entities) == {"lapo", "marta", "rustline"}


_SAHIBS = """entities:
  - {id: aldworth, name: Thomas Aldworth, type: PC, aliases: [Tom Aldworth, the Englishman]}
  - {id: bhim, name: Bhim Singh, type: PC}
"""

_DIARY = """# The diary

- Tom and Bhim found the boatman at the ghat. Tom paid him five rupees.
- A servant brought Tom a message. Tom has written to the Captain.
"""


def test_a_given_name_a_listed_persons_alias_writes_with_their_surname_is_that_person() -> None:
    entities = {e.id: e for e in _with_list(_SAHIBS, _DIARY).entities}
    assert not any(e.name == "Tom" for e in entities.values())
    assert "Tom" in entities["aldworth"].aliases


_HAREM = """entities:
  - {id: zeenat, name: Zeenat-un-Nissa, type: PC, aliases: [Zeenat Bibi, Bibi Zeenat, the Hakima]}
  - {id: hilal, name: Khwaja Hilal, type: NPC, aliases: [the Nazir]}
"""

_NEWS = """# Court news

- Bibi went to the Mahal with her medicine box. Bibi spoke with the Nazir.
- The Kotwal's men took Bibi to the Chabutra. Bibi was held there two nights.
"""


def test_a_word_two_of_one_listed_persons_names_hold_is_that_person() -> None:
    entities = {e.id: e for e in _with_list(_HAREM, _NEWS).entities}
    assert not any(e.name == "Bibi" for e in entities.values())
    assert "Bibi" in entities["zeenat"].aliases


_CHRONICLE_LIST = """entities:
  - {id: guild, name: The Lock-Keepers' Guild, type: Faction, aliases: [the Guild]}
  - {id: fenn, name: Jory Fenn, type: NPC}
"""

_CHRONICLE = """# A chronicle of the canal

## Of the Lock-Keepers' Guild

The Guild keeps the gates and takes the toll. Jory Fenn is its oldest member.

## Of Jory Fenn

He was born on a barge and has never slept ashore.
"""


def test_a_chronicles_of_heading_is_a_topic_not_a_thing() -> None:
    entities = {e.id: e for e in _with_list(_CHRONICLE_LIST, _CHRONICLE).entities}
    assert set(entities) == {"guild", "fenn"}
