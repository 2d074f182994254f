"""The labelled question sets of ``benchmarks/questions`` parse, and the ids of the prose-first
campaigns' sets name entities of their name lists (a typo would silently score 0)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from graphrag_core.services.evaluation import parse_questions

ROOT = Path(__file__).resolve().parents[2]
SETS = sorted((ROOT / "benchmarks" / "questions").glob("*.yaml"))
TYPES = {"current_state", "as_of", "status_trap", "relationship", "lookup", "narrative", "global"}


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_every_question_set_parses(path: Path) -> None:
    questions = parse_questions(path.read_text(encoding="utf-8"), path.name)
    assert questions.campaign and len(questions.questions) >= 40


@pytest.mark.parametrize(
    "campaign",
    [
        "saltreach",
        "duneveil",
        "vardholm",
        "caldergap",
        "sallowmere",
        "gullport",
        "gantrydeep",
        "vesper",
        "brimstone",
        "meridian",
        "glasshive",
        "kurogawa",
        "portmercy",
        "madinat",
        "lanternwick",
        "jadegate",
        "zolotoy",
        "tlalocan",
        "caervindo",
        "galata",
        "waset",
        "fiorenza",
        "ashfall",
        "agra",
        "shanghai",
        "cusco",
    ],
)
def test_a_name_list_campaign_set_names_its_entities_and_covers_every_type(campaign: str) -> None:
    path = ROOT / "benchmarks" / "questions" / f"{campaign}.yaml"
    questions = parse_questions(path.read_text(encoding="utf-8"), path.name).questions
    names = yaml.safe_load((ROOT / "examples" / campaign / "world" / "names.yaml").read_text())
    ids = {entity["id"] for entity in names["entities"]}
    for q in questions:
        assert set(q.gold) | set(q.forbidden) | set(q.expect_status) <= ids, q.question
    assert {q.type for q in questions} == TYPES
