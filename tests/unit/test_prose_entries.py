"""Relations a list entry states of its subject without naming it again, and where a directory
line places someone (``extraction.prose_entries``, ``extraction.prose_relations``)."""

from __future__ import annotations

from pathlib import Path

from graphrag_core.models import Extraction
from tests.unit.prose_helpers import stated_relations, world

NAMES = """\
entities:
  - {id: hema-iyer, name: Hemalatha Iyer, type: NPC, aliases: [Gran Static]}
  - {id: anand-sethu, name: Anand Sethuraman, type: NPC, aliases: [Doc Sethu]}
  - {id: fernanda-amaral, name: Fernanda Amaral, type: NPC, aliases: [Tia Fe]}
  - {id: abiodun-falana, name: Abiodun Falana, type: NPC, aliases: [Mr. Blue]}
  - {id: sade-ogunleye, name: Folasade Ogunleye, type: NPC, aliases: [Madam Ogunleye]}
  - {id: joaquim-sa, name: Joaquim Sa, type: NPC, aliases: [Quim]}
  - {id: rui-mendonca, name: Rui Mendonca, type: NPC, aliases: [Bico]}
  - {id: mercy-calloway, name: Mercy Calloway, type: NPC}
  - {id: wash-tully, name: Wash Tully, type: NPC, aliases: [Wash]}
  - {id: sixteen-bells, name: The Sixteen Bells, type: Faction, aliases: [the Bells]}
  - {id: orisun, name: Orisun Biotech, type: Faction, aliases: [Orisun]}
  - {id: calloway-gang, name: The Calloways, type: Faction, aliases: [Calloway gang]}
  - {id: bone-orchard, name: The Bone Orchard, type: Location, aliases: [the Orchard]}
  - {id: marigold, name: The Marigold Clinic, type: Location, aliases: [Marigold]}
  - {id: lucky-bubbles, name: Lucky Bubbles Laundromat, type: Location, aliases: [Lucky Bubbles]}
  - {id: wellhouse, name: The Orisun Wellhouse, type: Location, aliases: [the Wellhouse]}
  - {id: bar-saudade, name: Bar Saudade, type: Location, aliases: [Saudade]}
"""


def _world(tmp_path: Path, prose: str) -> Extraction:
    return world(tmp_path, NAMES, prose, "notes.md")


def test_a_roster_entrys_later_sentences_keep_its_subject(tmp_path: Path) -> None:
    prose = (
        "# People I trust\n\n"
        "- **Gran Static** — Hemalatha Iyer. Hema-amma. Leads the Sixteen Bells, old-school\n"
        "  netrunners. Keeps the Bone Orchard (their haven in the net).\n"
        "- **Mr. Blue** (the Suit) — Abiodun Falana. Handler for Orisun Biotech. Pays on\n"
        "  time. Reports to Madam Ogunleye at the Wellhouse.\n"
        "- **Quim** — Joaquim Sa. Owns Bar Saudade on Rua Nova.\n\n"
        "Zed was a runner for the Sixteen Bells; he has a tree in the Bone Orchard now.\n"
    )
    assert {
        ("hema-iyer", "leads", "sixteen-bells"),
        ("hema-iyer", "owns", "bone-orchard"),
        ("abiodun-falana", "works_for", "orisun"),
        ("abiodun-falana", "works_for", "sade-ogunleye"),
        ("sade-ogunleye", "located_in", "wellhouse"),
        ("joaquim-sa", "owns", "bar-saudade"),
    } <= stated_relations(_world(tmp_path, prose))


def test_a_sentence_with_its_own_subject_is_not_the_entrys(tmp_path: Path) -> None:
    prose = (
        "- **Quim** — Joaquim Sa. Bico owns Bar Saudade. Mercy Calloway leads the Calloways.\n"
        "Owns the Bone Orchard.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert ("rui-mendonca", "owns", "bar-saudade") in stated
    assert not {r for r in stated if r[0] == "joaquim-sa"}


def test_a_list_entry_says_who_runs_it_without_naming_it_again(tmp_path: Path) -> None:
    prose = (
        "## Factions\n\n"
        '- **Orisun Biotech** — rival corp, Madam Ogunleye leads, Abiodun Falana ("Mr. Blue")\n'
        "  is the street handler.\n\n"
        "== CHROME ==\n"
        "1. LUCKY BUBBLES LAUNDROMAT — rua nova. wash ur clothes in front. Tia Fe runs it\n"
        "   (fernanda amaral, ex-army medic). cheaper than marigold\n"
    )
    assert {
        ("sade-ogunleye", "leads", "orisun"),
        ("abiodun-falana", "works_for", "orisun"),
        ("fernanda-amaral", "owns", "lucky-bubbles"),
    } <= stated_relations(_world(tmp_path, prose))


def test_it_stands_for_no_person_nor_for_what_a_name_does_elsewhere(tmp_path: Path) -> None:
    prose = (
        "- **Wash** — a gunhand. Bico runs it, they say.\n"
        "- Orisun Biotech hired the crew; Bico killed Mercy Calloway, who leads.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert ("rui-mendonca", "owns", "wash-tully") not in stated
    assert not {r for r in stated if r[2] == "orisun"}


def test_a_directory_line_places_someone_an_event_does_not(tmp_path: Path) -> None:
    prose = (
        "Chrome: Doc Sethu at the Marigold Clinic, Bay 9.\n\n"
        "the marigold is gone. go to tia fe at lucky bubbles now.\n\n"
        "Bico killed Mercy Calloway at Saudade. The party meets Wash at the Wellhouse.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert {
        ("anand-sethu", "located_in", "marigold"),
        ("fernanda-amaral", "located_in", "lucky-bubbles"),
    } <= stated
    assert ("mercy-calloway", "located_in", "bar-saudade") not in stated
    assert ("wash-tully", "located_in", "wellhouse") not in stated


def test_reports_to_answers_to_and_fronts_for_are_work(tmp_path: Path) -> None:
    prose = (
        "Abiodun Falana reports to Madam Ogunleye directly. "
        "Wash answers to Mercy Calloway. Quim fronts for Orisun Biotech.\n"
    )
    assert {
        ("abiodun-falana", "works_for", "sade-ogunleye"),
        ("wash-tully", "works_for", "mercy-calloway"),
        ("joaquim-sa", "works_for", "orisun"),
    } <= stated_relations(_world(tmp_path, prose))


def test_a_whos_who_item_under_a_factions_heading_is_a_member(tmp_path: Path) -> None:
    prose = (
        "## The Calloways\n\n"
        "- **Mercy Calloway** — the sister, and the one with the brains.\n"
        "- Wash shot at them twice.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert ("mercy-calloway", "member_of", "calloway-gang") in stated
    assert ("wash-tully", "member_of", "calloway-gang") not in stated


def test_a_place_that_belongs_to_someone_is_owned_by_them(tmp_path: Path) -> None:
    prose = (
        "Bar Saudade belongs to Quim, but the kids who drink there belong to the Calloways. "
        "The Marigold Clinic is owned and run by Doc Sethu. Wash belongs to the Calloways.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert {
        ("bar-saudade", "owned_by", "joaquim-sa"),
        ("marigold", "owned_by", "anand-sethu"),
        ("wash-tully", "member_of", "calloway-gang"),
    } <= stated
    assert not {r for r in stated if r[0] == "bar-saudade" and r[2] == "calloway-gang"}
