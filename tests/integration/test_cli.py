"""The CLI as a user runs it: real embedded store, real model, small real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphrag_core.surfaces.cli.app import app
from tests.integration.cli_world import run as _run

pytestmark = pytest.mark.integration


def test_ingest_post_ask_entity(env: dict[str, str], world: Path, tmp_path: Path) -> None:
    code, output = _run(env, "ingest", str(world))
    assert code == 0, output
    assert "3 entities" in output
    code, output = _run(env, "ingest", str(world))
    assert code == 0 and "Nothing to do" in output

    change = tmp_path / "s1.json"
    change.write_text(
        json.dumps(
            {
                "session_id": 1,
                "entity_updates": [
                    {
                        "entity_id": "the Red Oak",
                        "status": "destroyed",
                        "destroyed_by": ["player_party"],
                    }
                ],
            }
        )
    )
    code, output = _run(env, "changelog", "post", str(change), "--json")
    assert code == 0, output
    assert json.loads(output)["action"] == "new"
    code, output = _run(env, "changelog", "post", str(change), "--json")
    assert json.loads(output)["action"] == "duplicate"

    # k = 10: community summaries are ranked items too (issue 12) and may precede the demoted
    # tavern, which must still be there, marked destroyed and unavailable
    code, output = _run(env, "ask", "Where can we rest for the night?", "--json", "-k", "10")
    assert code == 0, output
    data = json.loads(output)
    assert set(data) >= {"question", "campaign", "as_player", "historical", "results"}
    first = data["results"][0]
    assert set(first) >= {"id", "name", "type", "status", "score", "signals", "citations"}
    entities = [r for r in data["results"] if r["kind"] == "entity"]
    assert entities[0]["id"] == "quiet-lantern-inn"
    tavern = next(r for r in data["results"] if r["id"] == "tavern-redoak")
    assert tavern["status"] == "destroyed" and tavern["available"] is False

    code, output = _run(env, "entity", "Torven", "--as-player", "--json")
    assert code == 0, output
    assert "smuggler" not in output
    code, output = _run(env, "entity", "Torven", "--json")
    assert "smuggler" in output


def test_errors_are_clear_and_exit_nonzero(
    env: dict[str, str], world: Path, tmp_path: Path
) -> None:
    assert _run(env, "ingest", str(world))[0] == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("session_id: 2\nentity_updates:\n  - entity_id: Torven\n    status: burnt\n")
    code, output = _run(env, "changelog", "post", str(bad))
    assert code == 1
    assert "entity_updates[0].status" in output and "alive" in output
    code, output = _run(env, "entity", "Torvin Blackwater")
    assert code == 1
    assert "torven-blackwater" in output.lower()
    code, output = _run(env, "ingest", str(tmp_path / "nowhere"))
    assert code == 1 and "no such file" in output


def test_every_command_has_help() -> None:
    for command in (["ingest"], ["changelog", "post"], ["ask"], ["entity"], ["demo"]):
        result = CliRunner().invoke(app, [*command, "--help"])
        assert result.exit_code == 0
        assert "Usage" in result.output
