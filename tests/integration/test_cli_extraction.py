"""The CLI of the LLM pipeline: no model → offline (said once), dry run, GM decisions, recap."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graphrag_core.surfaces.cli import ingest as cli_extraction
from graphrag_core.surfaces.cli.app import app
from tests.integration.cli_world import run as _run
from tests.loopback_openai import LoopbackServer, Reply, completion, serve

__all__ = ["serve"]  # the fixture

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
    for label in ("chunks:", "LLM calls:", "prompt tokens (exact, o200k_base, with chat "
                  "framing and schema):", "expected completion"):  # fmt: skip
        assert label in output
    assert "estimated cost:              $0.0" in output
    env["LOREGRAPH_LLM_MODEL"] = "qwen2.5-coder-1.5b-instruct"
    code, output = _run(env, "ingest", str(world), "--extractor", "llm", "--dry-run")
    assert code == 0 and "prompt tokens (estimate: not an OpenAI model, o200k_base" in output


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


def test_without_a_model_the_recap_draft_is_offline_and_posts(
    env: dict[str, str], world: Path, tmp_path: Path
) -> None:
    recap = tmp_path / "recap.md"
    recap.write_text("Torven tried to flee and the guards killed Torven.\n\n"
                     "By dawn the Red Oak had burned to the ground.\n"
                     "The Quiet Lantern Inn was nearly destroyed.\n")  # fmt: skip
    code, output = _run(env, "recap", "draft", str(recap), "--session", "3")
    assert code == 1 and "holds nothing" in output
    assert _run(env, "ingest", str(world))[0] == 0
    draft = tmp_path / "draft.yaml"
    code, output = _run(env, "recap", "draft", str(recap), "--session", "3", "-o", str(draft))
    assert code == 0 and "Drafted 2 change(s)" in output, output
    assert "hedged ('nearly')" in output and "offline recap patterns" in draft.read_text()
    assert _run(env, "changelog", "post", str(draft))[0] == 0
    code, output = _run(env, "entity", "Torven", "--json")
    assert json.loads(output)["status"] == "dead"
    code, output = _run(env, "entity", "the Red Oak", "--json")
    assert json.loads(output)["status"] == "destroyed"
    unreachable = {**env, "LOREGRAPH_LLM_MODEL": "gpt-4o-mini",
                   "LOREGRAPH_LLM_BASE_URL": "http://127.0.0.1:9/v1"}  # fmt: skip
    code, output = _run(unreachable, "recap", "draft", str(recap), "--session", "3",
                        "-o", str(draft), "--offline")  # fmt: skip
    assert code == 0 and "Drafted 2 change(s)" in output, output


@pytest.mark.parametrize(
    "command", [["entity", "merge"], ["entity", "split"], ["entity", "alias", "add"],
                ["recap", "draft"], ["entity"]],
)  # fmt: skip
def test_new_commands_have_help(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"])
    assert result.exit_code == 0 and "Usage" in result.output


def _extraction_reply(body: dict[str, Any]) -> Reply:
    entities = [{"name": "Torven Blackwater", "type": "NPC"}]
    return 200, completion(json.dumps({"entities": entities, "relations": []})), 0


def test_a_model_server_that_goes_down_fails_the_ingest_and_writes_nothing(
    env: dict[str, str], world: Path, serve: Callable[..., LoopbackServer]
) -> None:
    """The real SDK against a server that answers once, then 503s: exit code 1, a red error
    naming what happened, the graph as it was, the paid answer cached for the re-run."""
    for name in ("a", "b"):
        (world / f"{name}.md").write_text(f"# {name}\nTorven was seen at {name}.\n")
    state = {"up": 1}

    def flaky(body: dict[str, Any]) -> Reply:
        if state["up"] <= 0:
            return 503, {"error": {"message": "server overloaded"}}, 0
        state["up"] -= 1
        return _extraction_reply(body)

    server = serve([], respond=flaky)
    env = {**env, "LOREGRAPH_LLM_MODEL": "tiny", "LOREGRAPH_LLM_BASE_URL": server.url,
           "LOREGRAPH_LLM__MAX_RETRIES": "0", "LOREGRAPH_LLM__CONCURRENCY": "1"}  # fmt: skip
    assert _run(env, "ingest", str(world), "--no-build")[0] == 0
    manifests = sorted((Path(env["LOREGRAPH_DATA_DIR"]) / "manifests" / "cli").iterdir())
    code, output = _run(env, "ingest", str(world), "--extractor", "llm", "--no-build")
    assert code == 1
    assert "error:" in output and "LLM extraction stopped: 2 of 3 chunk(s)" in output
    assert "Nothing was written to the graph" in output and "503" in output
    assert sorted((Path(env["LOREGRAPH_DATA_DIR"]) / "manifests" / "cli").iterdir()) == manifests
    code, output = _run(env, "ingest", str(world), "--extractor", "llm", "--dry-run")
    assert "3 (1 cached, free)" in output and "LLM calls:                   2" in output
    state["up"] = 10
    code, output = _run(env, "ingest", str(world), "--extractor", "llm", "--no-build")
    assert code == 0 and "LLM extract: 2 call(s)" in output and "1 cache hit(s)" in output


def test_a_gm_decision_that_no_longer_applies_is_reported(env: dict[str, str], world: Path) -> None:
    assert _run(env, "ingest", str(world), "--no-build")[0] == 0
    assert _run(env, "entity", "alias", "add", "Quiet Lantern Inn", "the Lantern")[0] == 0
    pack = world / "world.yaml"
    pack.write_text(pack.read_text().replace("Quiet Lantern Inn", "Sleepy Candle Inn"))
    code, output = _run(env, "ingest", str(world), "--no-build")
    assert code == 0
    assert "GM decision 1 skipped: no Location 'Quiet Lantern Inn'" in output


def test_recap_draft_prints_the_skipped_count_and_its_ledger(
    env: dict[str, str], tmp_path: Path, serve: Callable[..., LoopbackServer]
) -> None:
    text = "Torven Blackwater tried to flee and Captain Brannoc killed him.\n" + (
        "Marta stabbed Dace Rook, who barely survived.\n"
    )
    changes = [
        {"kind": "death", "entity": "Torven Blackwater", "quote": text.splitlines()[0]},
        {"kind": "death", "entity": "Dace Rook", "quote": text.splitlines()[1]},
    ]
    reply = completion(json.dumps({"changes": changes}))
    server = serve([], respond=lambda body: (200, reply, 0))
    env = {**env, "LOREGRAPH_LLM_MODEL": "tiny", "LOREGRAPH_LLM_BASE_URL": server.url}
    (tmp_path / "recap.md").write_text(text)
    draft = tmp_path / "drafts" / "session-8.yaml"
    draft.parent.mkdir()
    code, output = _run(env, "recap", "draft", str(tmp_path / "recap.md"), "--session", "8",
                        "-o", str(draft))  # fmt: skip
    assert code == 0, output
    assert "Drafted 1 change(s)" in output and "(1 skipped" in output
    assert "survived or escaped" in output and "LLM recap: 1 call(s)" in output
    assert f"loregraph changelog post {draft}" in draft.read_text()
