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
        "governor": "blount",  # the house's alias is in the possessive: it bears nothing
    }  # two captains: nobody's; "old" is no office; "the Reeve" is an entity's whole name
