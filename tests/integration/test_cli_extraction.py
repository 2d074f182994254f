"""The CLI of the LLM pipeline: no model → offline (said once), dry run, GM decisions, recap."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphrag_core import cli_extraction
from graphrag_core.cli import app
from tests.integration.cli_world import run as _run

pytestmark = pytest.mark.integration


def test_without_a_model_llm_falls_back_to_offline_and_says_so_once(
    env: dict[str, str], world: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_extraction, "_said_offline", False)
    code, output = _run(env, "ingest", str(world), "--extractor", "llm", "--dry-run")
    assert code == 0 and "no LLM model configured" in output and "no LLM calls" in output
    code, output = _run(env, "ingest", str(world), "--extractor", "llm")
    assert code == 0 and "no LLM model configured" not in output and "Ingested" in output


def test_dry_run_prints_tokens_calls_and_cost_before_any_call(
    env: dict[str, str], world: Path
) -> None:
    env = {
        **env,
        "LOREGRAPH_LLM_MODEL": "gpt-4o-mini",
        "LOREGRAPH_LLM_BASE_URL": "http://127.0.0.1:9/v1",
    }
    code, output = _run(env, "ingest", str(world), "--extractor", "llm", "--dry-run")
    assert code == 0, output
    for label in ("chunks:", "LLM calls:", "prompt tokens (exact):", "expected completion"):
        assert label in output
    assert "estimated cost:              $0.0" in output


def test_gm_decisions_from_the_command_line(env: dict[str, str], world: Path) -> None:
    assert _run(env, "ingest", str(world))[0] == 0
    code, output = _run(env, "entity", "alias", "add", "Torven", "Old Salt", "--reason", "nickname")
    assert code == 0 and "GM decision 1 stored" in output
    code, output = _run(env, "entity", "merge", "Quiet Lantern Inn", "the Red Oak")
    assert code == 0 and "GM decision 2 stored: merge quiet-lantern-inn" in output
    code, output = _run(env, "entity", "Old Salt", "--json")
    assert code == 0 and "torven-blackwater" in output
    code, output = _run(env, "entity", "merge", "Nobody", "Torven")
    assert code == 1 and "unknown entity" in output


def test_recap_draft_needs_a_model(env: dict[str, str], tmp_path: Path) -> None:
    recap = tmp_path / "recap.md"
    recap.write_text("Torven died.")
    code, output = _run(env, "recap", "draft", str(recap), "--session", "3")
    assert code == 1 and "LOREGRAPH_LLM_MODEL" in output


@pytest.mark.parametrize(
    "command", [["entity", "merge"], ["entity", "split"], ["entity", "alias", "add"],
                ["recap", "draft"], ["entity"]],
)  # fmt: skip
def test_new_commands_have_help(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"])
    assert result.exit_code == 0 and "Usage" in result.output
