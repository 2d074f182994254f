"""Arabic names in prose: "ibn", "bint" (and the Hebrew "ben", "bat") join a name, the
article "al-" and its sun-letter forms belong to the word they prefix, "Abu", "Umm", "Bab"
open a name and are none alone; a listed person's ism with a nasab or a kunya folds into that
person (issue: the held-out Madinat, Abbasid Baghdad). Every text here is written for these
tests; each test fails on the code before its rule."""

from __future__ import annotations

from pathlib import Path

from extraction.prose_names import common_words, name_spans
from tests.unit.prose_helpers import entities_of, names_in, world

_CITY = """entities:
  - {id: bishr, name: Bishr ibn Ghalib al-Karkhi, type: NPC, aliases: [Abu Kilab, Bishr]}
  - {id: ghalib, name: Abu Ghalib ibn Bashshar, type: NPC, aliases: [the Muhtasib]}
  - {id: nadhir, name: Nadhir al-Khadim, type: NPC, aliases: [the Ustadh, Nadhir],
     gm_aliases: [the Night Owl]}
  - {id: mikhail, name: Mikha'il ibn Qustanta, type: NPC, aliases: [Abu Isa, the Hakim]}
  - {id: yazid, name: Yazid ibn Hatim al-Muhallabi, type: NPC, aliases: [al-Muhallabi]}
"""


def test_ibn_and_bint_join_a_name() -> None:
    assert names_in("Sahl ibn Natan paid Maryam bint Wahb.") == [
        "Sahl ibn Natan",
        "Maryam bint Wahb",
    ]
    assert names_in("Natan ben Levi wrote to Harun ibn Bahram al-Khurasani.") == [
        "Natan ben Levi",
        "Harun ibn Bahram al-Khurasani",
    ]


def test_an_english_or_german_bin_joins_nothing() -> None:
    assert names_in("Orm threw it in the bin. Then Orm left.") == ["Orm", "Orm"]
    assert names_in("Orm said: *Ich bin Tourist.*") == ["Orm", "Tourist"]
    assert names_in("Orm saw a bat. Wahb bat Orm.") == ["Orm", "Wahb bat Orm"]


def test_the_article_belongs_to_the_word_it_prefixes() -> None:
    assert names_in("They met Yazid al-Muhallabi at Bab al-Sha'ir.") == [
        "Yazid al-Muhallabi",
        "Bab al-Sha'ir",
    ]
    assert names_in("From Madinat al-Salam, Abu l-Hasan writes.") == [
        "Madinat al-Salam",
        "Abu l-Hasan",
    ]
    assert names_in("Nasir ad-Din met al-Warraq.") == ["Nasir ad-Din", "al-Warraq"]


def test_an_english_word_after_an_article_like_prefix_is_no_name() -> None:
    assert names_in("Orm came ad-hoc, an at-home visit.") == ["Orm"]


def test_abu_umm_bab_are_no_names_alone() -> None:
    assert names_in("They call him Abu Hurayra. Abu said nothing.") == ["Abu Hurayra"]
    assert names_in("Umm Habiba keeps the khan by the Bab.") == ["Umm Habiba"]


def test_a_kunya_opening_a_sentence_stays_though_a_chat_writes_it_in_lower_case() -> None:
    text = "abu umar has it now, not me.\n\nAbu Hurayra knows those lanes."
    assert [s.name for s in name_spans(text, common_words([text]))] == ["Abu Hurayra"]


def test_an_ism_with_a_nasab_or_kunya_folds_into_the_listed_person(tmp_path: Path) -> None:
    prose = (
        "The boatman rowed while Bishr ibn Ghalib waited. Later Bishr Abu Kilab sang. "
        "Yazid al-Muhallabi did nothing. Abu Isa of the Banu Qustanta came.\n"
    )
    found = world(tmp_path, _CITY, prose, "session.md")
    ids = {e.id for e in found.entities}
    assert ids == {"bishr", "ghalib", "nadhir", "yazid", "mikhail"}
    said = {
        m for chunk in found.chunks if chunk.source_path == "session.md" for m in chunk.mentions
    }
    assert {"bishr", "yazid", "mikhail"} <= said


def test_a_name_two_listed_people_share_parts_of_folds_into_neither(tmp_path: Path) -> None:
    prose = "Then Abu Ghalib ibn Hatim arrived. Abu Ghalib ibn Hatim, the scribe, sat.\n"
    found = world(tmp_path, _CITY, prose, "session.md")
    assert "abu-ghalib-ibn-hatim" in {e.id for e in found.entities}


def test_a_party_read_owl_never_folds_into_a_gm_only_alias(tmp_path: Path) -> None:
    found = world(tmp_path, _CITY, "Bishr says the Owl pays better.\n", "session.md")
    nadhir = next(e for e in found.entities if e.id == "nadhir")
    assert "Owl" not in nadhir.aliases
    assert all("Owl" not in a for e in found.entities for a in e.aliases)


def test_without_a_list_the_shorter_forms_of_an_arabic_name_fold_into_the_longest() -> None:
    found = entities_of(
        (
            "session.md",
            "Maryam bint Wahb, the papermaker's daughter, came. Maryam paid. Maryam bint Wahb "
            "sang. Mihran ibn Farrukh, the katib, wrote. Mihran ibn Farrukh lied. Ibn Farrukh "
            "lied. Ibn Farrukh wept. Maryam laughed. Yazid ibn Hatim al-Muhallabi rode out. "
            "Yazid ibn Hatim al-Muhallabi sat. Yazid al-Muhallabi did nothing. Yazid "
            "al-Muhallabi slept. Wahb slept. Wahb woke.",
        )
    )
    assert "Maryam" in found["Maryam bint Wahb"].aliases
    assert "Ibn Farrukh" in found["Mihran ibn Farrukh"].aliases
    assert "Yazid al-Muhallabi" in found["Yazid ibn Hatim al-Muhallabi"].aliases
    assert "Wahb" not in found["Maryam bint Wahb"].aliases  # her father, another man
    assert {"Maryam", "Ibn Farrukh", "Yazid al-Muhallabi"}.isdisjoint(found)


def test_without_a_list_a_given_name_two_arabic_names_open_folds_into_neither() -> None:
    found = entities_of(
        (
            "session.md",
            "Yazid ibn Hatim rode out. Yazid ibn Khalid stayed. Yazid laughed. Yazid left.",
        )
    )
    assert "Yazid" in found
