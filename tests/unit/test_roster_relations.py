"""Relations roster lines and possessive kinship state (``extraction.roster_lines`` and
``extraction.prose_relations``): a cast list ("Name — role; notes", a Markdown table, a
definition list) names its subject once and leaves it unsaid in every clause after."""

from __future__ import annotations

from pathlib import Path

import pytest

from extraction.roster_lines import role_of
from graphrag_core.models import Extraction
from tests.unit.prose_helpers import stated_relations, world

NAMES = """\
entities:
  - {id: tova-rask, name: Tova Rask, type: NPC, aliases: [Tova]}
  - {id: ilse-rask, name: Ilse Rask, type: NPC, aliases: [Ilse]}
  - {id: drill-union, name: The Deep Drill Union, type: Faction, aliases: [the Union]}
  - {id: ore-exchange, name: The Ore Exchange, type: Location, aliases: [the Exchange]}
  - {id: malo-senn, name: Malo Senn, type: NPC, aliases: [the director]}
  - {id: pim-senn, name: Pim Senn, type: NPC, aliases: [Pim]}
  - {id: kessler-dock, name: Kessler Dock, type: Location}
  - {id: juno-varga, name: Juno Varga, type: NPC}
  - {id: ada-varga, name: Ada Varga, type: NPC}
  - {id: oskar-lind, name: Oskar Lind, type: NPC}
"""


def _world(tmp_path: Path, prose: str) -> Extraction:
    return world(tmp_path, NAMES, prose, "crew.md")


def test_a_roster_list_states_kin_roles_and_membership_of_its_subjects(tmp_path: Path) -> None:
    prose = (
        "# Crew of Shaft Nine\n\n"
        "- Tova Rask — boss of the Deep Drill Union; hard but fair.\n"
        "- Ilse Rask — Tova's kid sister; runs with the Union.\n"
        "- Malo Senn — owner of the Ore Exchange; never smiles.\n"
        "- Pim Senn — the director's son; a clerk on the Exchange's payroll.\n"
        "- Dr Juno Varga — medic at Kessler Dock; patient.\n"
        "- Ada Varga — her daughter; sells tea.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert {
        ("tova-rask", "leads", "drill-union"),
        ("ilse-rask", "related_to", "tova-rask"),
        ("ilse-rask", "member_of", "drill-union"),
        ("malo-senn", "owns", "ore-exchange"),
        ("malo-senn", "parent_of", "pim-senn"),
        ("pim-senn", "works_for", "ore-exchange"),
        ("juno-varga", "works_for", "kessler-dock"),
        ("juno-varga", "parent_of", "ada-varga"),
    } <= stated


def test_a_table_row_and_a_definition_are_roster_lines_too(tmp_path: Path) -> None:
    prose = (
        "# Who's who\n\n"
        "| Name | Role |\n"
        "|---|---|\n"
        "| Ilse Rask | Tova's big sister |\n"
        "| Oskar Lind | bodyguard to Malo Senn |\n\n"
        "Pim Senn\n"
        ": the director's younger son\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert ("ilse-rask", "related_to", "tova-rask") in stated
    assert ("oskar-lind", "serves", "malo-senn") in stated
    assert ("malo-senn", "parent_of", "pim-senn") in stated


def test_outside_a_roster_line_an_unsaid_holder_states_nothing(tmp_path: Path) -> None:
    prose = (
        "# Session 2\n\n"
        "Pim Senn met the director's son at the bar.\n"
        "Tova Rask spoke with the curator of the Ore Exchange.\n"
        "- Bring the Exchange's ledger to Kessler Dock.\n"
        "- Ada Varga — her daughter; sells tea.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert not any(s == "malo-senn" and t == "pim-senn" for s, _, t in stated)
    assert not any(k == "works_for" for _, k, _ in stated)
    # "her" on a roster line needs a roster line before it, under the same heading
    assert not any(t == "ada-varga" and k == "parent_of" for _, k, t in stated)


def test_a_pronoun_on_a_roster_line_skips_a_subject_of_the_other_gender(tmp_path: Path) -> None:
    prose = (
        "# Dock crew\n\n"
        "Oskar Lind lost his boots. Oskar Lind sold his cart.\n\n"
        "- Oskar Lind — a clerk at Kessler Dock.\n"
        "- Ada Varga — her daughter; sells tea.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert ("oskar-lind", "works_for", "kessler-dock") in stated
    assert not any("ada-varga" in (s, t) for s, k, t in stated if k == "parent_of")


@pytest.mark.parametrize(
    ("sentence", "relation"),
    [("Ilse Rask is Tova Rask's kid sister.", ("ilse-rask", "related_to", "tova-rask")),
     ("Malo Senn is Pim Senn's old man.", ("malo-senn", "parent_of", "pim-senn")),
     ("Ada Varga is Oskar Lind's missus.", ("ada-varga", "married_to", "oskar-lind")),
     ("Pim Senn, Juno Varga's half-brother, waved.", ("pim-senn", "related_to", "juno-varga")),
     ("Juno Varga, curator of the Ore Exchange, waved.",
      ("juno-varga", "works_for", "ore-exchange")),
     ("Oskar Lind runs with the Deep Drill Union.", ("oskar-lind", "member_of", "drill-union")),
     ("Oskar Lind is on the Union's payroll.", ("oskar-lind", "works_for", "drill-union"))],
)  # fmt: skip
def test_prose_states_slang_kin_apposed_roles_and_payrolls(
    tmp_path: Path, sentence: str, relation: tuple[str, str, str]
) -> None:
    assert relation in stated_relations(_world(tmp_path, f"# Notes\n\n{sentence}\n"))


def test_its_boss_named_in_apposition_leads_and_is_the_sentence_subject(tmp_path: Path) -> None:
    prose = (
        "# The Union\n\n"
        "The Deep Drill Union controls the lower shafts. "
        "Its boss, a woman named Tova Rask, owns the Ore Exchange.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert ("tova-rask", "leads", "drill-union") in stated
    assert ("tova-rask", "owns", "ore-exchange") in stated
    assert ("drill-union", "owns", "ore-exchange") not in stated


@pytest.mark.parametrize(
    ("before", "relation"),
    [("- Ann — curator of the ", "works_for"), ("Ann, the boss of ", "leads"),
     ("Ann is a Treasury agent with the ", "member_of"), ("Ann — bodyguard to ", "serves"),
     ("Ann — publisher and editor of the ", "owns"), ("Ann — right hand of ", "serves"),
     ("Ann — keeper of ", "owns"), ("Ann — bodyguard at ", None), ("they met a man of ", None)],
)  # fmt: skip
def test_a_role_noun_and_its_preposition_name_the_relation(
    before: str, relation: str | None
) -> None:
    role = role_of(before)
    assert (role.relation if role else None) == relation


def test_its_or_their_never_stands_for_a_person(tmp_path: Path) -> None:
    prose = (
        "# The road\n\n"
        "Malo Senn keeps the gate with the Deep Drill Union. They search the carts. "
        "Their captain is Oskar Lind, a grey man.\n"
    )
    stated = stated_relations(_world(tmp_path, prose))
    assert not any(s == "oskar-lind" and k == "leads" and t == "malo-senn" for s, k, t in stated)
