"""The CLI's answers to awkward input: an entity named like a subcommand, a campaign that
holds nothing, an empty question, a broken file reported once."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tests.integration.cli_world import run

pytestmark = pytest.mark.integration

ODD_NAMES = """\
entities:
  - {name: Split, type: Location, description: A rock split by lightning.}
  - {name: Merge, type: NPC, description: A ferryman.}
  - {name: Alias, type: NPC, description: A spy with many names.}
"""


def test_an_entity_named_like_a_subcommand_is_reachable(
    env: dict[str, str], tmp_path: Path
) -> None:
    world = tmp_path / "odd"
    world.mkdir()
    (world / "world.yaml").write_text(ODD_NAMES)
    assert run(env, "ingest", str(world), "--no-build")[0] == 0
    for args, name in [
        (["entity", "Split"], "Split"),
        (["entity", "split"], "Split"),
        (["entity", "Merge", "--json"], "Merge"),
        (["entity", "alias"], "Alias"),
        (["entity", "show", "merge", "--json"], "Merge"),
    ]:
        code, output = run(env, *args)
        assert code == 0, (args, output)
        assert name in output, args
    code, output = run(env, "entity", "Merge", "--json")
    assert json.loads(output)["id"] == "merge"


def test_a_campaign_that_holds_nothing_is_an_error_naming_the_others(
    env: dict[str, str], world: Path
) -> None:
    assert run(env, "ingest", str(world), "--no-build")[0] == 0
    for args in (["ask", "Where can we rest?"], ["entity", "Torven"]):
        code, output = run(env, *args, "--campaign", "nosuch")
        assert code == 1, output
        assert "campaign 'nosuch' holds nothing" in output
        assert "campaigns in this store: cli" in output
        assert "Traceback" not in output


def test_an_empty_question_is_an_error(env: dict[str, str], world: Path) -> None:
    assert run(env, "ingest", str(world), "--no-build")[0] == 0
    for question in ("", "   "):
        code, output = run(env, "ask", question)
        assert code == 1
        assert "the question is empty" in output


def test_a_broken_file_is_reported_once_without_warning_logs(
    env: dict[str, str], world: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (world / "broken.yaml").write_text("entities:\n  - name: X\n    colour: red\n")
    with caplog.at_level(logging.WARNING):
        code, output = run(env, "ingest", str(world), "--no-build")
    assert code == 3
    assert output.count("broken.yaml") == 1, output
    assert "failed broken.yaml" in output
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
