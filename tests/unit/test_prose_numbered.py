"""Names with a number or a letter ("Pit 4", "Deck 12", "Ward C"), the roles at the table
("the PCs", "GM"), a nickname quoted in a table's name, a saint's possessive that names the
chapel, "X calls it Y" and "Director" as a title (round 10, branch numx).

Every text here is written for these tests; each test fails on the code before its rule."""

from __future__ import annotations

import hashlib

from extraction.offline import extract
from extraction.prose_names import common_words, name_spans
from extraction.resolution import EntityResolver
from graphrag_core.models import PARTY_ID, Extraction, SourceDocument
from tests.unit.test_prose_campaigns import _named, _run


def _spans(text: str) -> list[str]:
    return [s.name for s in name_spans(text, common_words([text]))]


def test_a_capitalised_head_and_a_number_is_one_name() -> None:
    assert _spans("Orla Venn, warden of Pit 4, met us at Deck 12 and at Ward 7B.") == [
        "Orla Venn",
        "Pit 4",
        "Deck 12",
        "Ward 7B",
    ]
    # a common word opening a sentence is a name when a number designates it
    assert _spans("Deck 12 flooded at dawn.") == ["Deck 12"]
    # two numbers, two places; the head alone is no name
    assert _spans("They climbed from Deck 12 to Deck 14.") == ["Deck 12", "Deck 14"]


def test_a_number_that_counts_dates_or_tells_the_time_is_no_part_of_a_name() -> None:
    text = "Session 4 ended on Day 3. We met Orla at 23:00 on March 3. Orla paid Brin 5 crowns."
    assert _spans(text) == ["Session", "Day", "Orla", "Orla", "Brin"]
    assert "Chapter 2" not in _spans("Chapter 2 opens at the Gate.")


def test_numbered_places_are_entities_and_a_spelt_number_alone_folds_in() -> None:
    text = (
        "# The Works\n\n"
        "Pit 4 is the deepest working in the valley. Orla Venn runs Pit 4.\n"
        "Nobody goes down Four after dark. The bosses sealed Four last winter.\n"
        "The night crew sleeps on Deck 12. Deck 12 has no heat. Deck 14 is worse.\n"
        "Deck 14 floods.\n"
    )
    entities = _named(_run(text))
    assert {"Pit 4", "Deck 12", "Deck 14"} <= set(entities)
    assert "Pit" not in entities and "Deck" not in entities and "Four" not in entities
    assert "Four" in entities["Pit 4"].aliases


def test_the_roles_at_the_table_are_never_entities_and_the_pcs_are_the_party() -> None:
    text = (
        "# Prep\n\n"
        "The PCs arrive at Brinmoor by barge. The GM should let the PCs rest first.\n"
        "Every NPC in Brinmoor fears the reeve. One PC may know Orla Venn. Orla Venn waits.\n"
    )
    names = set(_named(_run(text)))
    assert not names & {"PCs", "PC", "GM", "NPC", "The PCs"}
    assert EntityResolver([]).resolve("the PCs") == PARTY_ID


def test_a_lone_letter_or_an_everyday_acronym_is_never_a_name() -> None:
    text = (
        "The station AI opened the lock. Orla went out by EVA, then back to HQ.\n"
        "Somebody signs the notes C.V. and Plan B failed. Ward C flooded. Orla met KME.\n"
    )
    spans = _spans(text)
    assert not set(spans) & {"AI", "EVA", "HQ", "C", "V", "B"}
    # a letter that designates, and an acronym nobody speaks every day, still name things
    assert {"Ward C", "KME", "Orla"} <= set(spans)


def test_a_nickname_quoted_inside_a_tables_name_is_an_alias_not_a_word_of_it() -> None:
    text = (
        "# Crew\n\n"
        "| Name | Role | Notes |\n"
        "|---|---|---|\n"
        '| Bram "Hatchet" Okoye | Cook | Burns everything. |\n'
        "| Sela Dunn | Pilot | Flies drunk. |\n"
    )
    entities = _named(_run(text))
    assert "Bram Hatchet Okoye" not in entities
    assert "Hatchet" in entities["Bram Okoye"].aliases


def test_a_saints_possessive_is_the_chapel_named_for_the_saint() -> None:
    text = (
        "# The Valley\n\n"
        "**The Chapel of St Wendra** — The valley's chapel. Mother Ilse keeps it.\n\n"
        "The wounded were carried to St Wendra's. Orla Venn was married at St Wendra's.\n"
        "The ferry is the *Saint Odo*. The *Saint Odo* sank in the flood. Orla saw the Saint "
        "Odo go down.\n"
    )
    entities = _named(_run(text))
    assert "Wendra" not in entities
    assert "St Wendra's" in entities["Chapel of St Wendra"].aliases
    assert "Odo" not in entities and entities["Saint Odo"].type != "Deity"


def test_a_saints_possessive_folds_into_the_listed_place_named_for_the_saint() -> None:
    pack = "entities:\n  - {id: wendra-chapel, name: The Chapel of St Wendra, type: Location}\n"
    prose = "# Notes\n\nThe wounded went to St Wendra's. Orla Venn wed at St Wendra's.\n"
    extraction = _with_list(pack, prose)
    assert "Wendra" not in {e.name for e in extraction.entities}
    assert "St Wendra's" in {e.id: e for e in extraction.entities}["wendra-chapel"].aliases


def test_calling_something_by_a_name_is_no_alias_of_the_caller() -> None:
    text = (
        "# Below\n\n"
        "Orla Venn found a vault of glass under Pit 4. Orla Venn calls it the Choir. "
        "The Choir sings at night. The Choir is hungry.\n"
    )
    entities = _named(_run(text))
    assert "Choir" in entities
    assert "Choir" not in entities["Orla Venn"].aliases


def test_director_is_a_title_and_the_director_alone_is_its_one_holder() -> None:
    text = (
        "# The Company\n\n"
        "Director Ama Sorel runs the works. The Director signs every order. "
        "Nobody crosses the Director.\n"
    )
    entities = _named(_run(text))
    assert "Director" not in entities and "Director Ama Sorel" not in entities
    assert {"Director Ama Sorel", "the Director"} <= set(entities["Ama Sorel"].aliases)


def _with_list(pack: str, prose: str) -> Extraction:
    docs = [
        SourceDocument(path="names.yaml", kind="worldpack", sha256="w", text=pack),
        SourceDocument(
            path="lore.md",
            kind="markdown",
            sha256=hashlib.sha256(prose.encode()).hexdigest(),
            text=prose,
        ),
    ]
    return extract(docs, chunk_size=1200)


def test_a_listed_numbered_place_takes_the_prose_name_and_the_head_alone_stays_out() -> None:
    pack = "entities:\n  - {id: pit-4, name: Pit 4, type: Location, aliases: [Four]}\n"
    prose = "# Notes\n\nOrla Venn runs Pit 4. Pit 4 floods every spring. Four is cursed.\n"
    entities = _with_list(pack, prose).entities
    assert {e.name for e in entities} >= {"Pit 4"}
    assert "Pit" not in {e.name for e in entities}


def test_a_tables_header_row_names_nothing() -> None:
    text = (
        "# Crew\n\n"
        "| Callsign | Station | Remarks |\n"
        "|---|---|---|\n"
        "| Sela Dunn | Pilot | Flies drunk. |\n"
        "| Bram Okoye | Cook | Burns everything. |\n\n"
        "Sela Dunn and Bram Okoye argue about the Remarks column and the Station rota.\n"
    )
    names = set(_named(_run(text)))
    assert {"Sela Dunn", "Bram Okoye"} <= names
    assert not names & {"Callsign", "Station", "Remarks"}
