"""The office titles one entity bears alone (:mod:`graphrag_core.titles`)."""

from __future__ import annotations

from graphrag_core.titles import borne_titles


def test_a_title_one_entity_bears_before_a_name_is_that_entitys() -> None:
    found = borne_titles(
        [
            ("mawle", ["Thomas Mawle", "Colonel Mawle"]),
            ("alvarado", ["Diego de Alvarado", "Don Diego", "Capitán Alvarado"]),
            ("tench", ["Silas Tench", "Captain Tench", "Old Silas"]),
            ("mott", ["Ezekiel Mott", "Captain Mott"]),
            ("house", ["Government House", "the Governor's house"]),
            ("blount", ["Sir Humphrey Blount", "Governor Blount"]),
            ("reeve", ["the Reeve"]),
            ("anna", ["Anna Vell", "Reeve Anna"]),
        ]
    )
    assert found == {
        "colonel": "mawle",
        "don": "alvarado",
        "capitán": "alvarado",
        "capitan": "alvarado",  # the same word unaccented
        "governor": "blount",  # the house's alias is in the possessive: it bears nothing
    }  # two captains: nobody's; "old" is no office; "the Reeve" is an entity's whole name


def test_a_word_of_the_same_office_is_borne_too() -> None:
    found = borne_titles(
        [
            ("fitch", ["William Fitch", "Bosun Billy"]),
            ("ortiz", ["Luis Ortiz", "Capitan Ortiz"]),
            ("tench", ["Silas Tench", "Captain Tench"]),
        ]
    )
    assert found["bosun"] == found["boatswain"] == "fitch"  # "the Boatswain" of the articles
    assert found["capitán"] == found["capitan"] == "ortiz"  # one word, spelt two ways
    assert "skipper" not in found  # no office is another's by its meaning alone


def test_a_word_of_the_same_office_two_entities_bear_or_a_whole_name_holds_is_nobodys() -> None:
    found = borne_titles(
        [
            ("fitch", ["William Fitch", "Bosun Billy"]),
            ("grubb", ["Ned Grubb", "Boatswain Grubb"]),
            ("cole", ["Amos Cole", "Bosun Amos"]),
            ("ship", ["the Boatswain"]),
        ]
    )
    assert "bosun" not in found and "boatswain" not in found


def test_arabic_offices_and_their_spellings_are_borne() -> None:
    found = borne_titles(
        [
            ("azdi", ["Ahmad ibn Yusuf al-Azdi", "Qadi Abu Umar"]),
            ("anbari", ["Hamid ibn Makhlad al-Anbari", "Wazir Hamid"]),
            ("ishaq", ["Ishaq ibn Sabit", "Shaykh Ishaq"]),
            ("tustari", ["Abd al-Wahid al-Tustari", "Sheikh Abd al-Wahid"]),
            ("mutadid", ["Ahmad al-Mu'tadid", "Caliph Ahmad"]),
        ]
    )
    assert found == {
        "qadi": "azdi",
        "wazir": "anbari",
        "vizier": "anbari",  # the same office spelt otherwise
        "caliph": "mutadid",
        "khalifa": "mutadid",
    }  # two shaykhs, one spelt "Sheikh": the office is nobody's
