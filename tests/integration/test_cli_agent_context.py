"""``loregraph preview``, ``expand`` and ``context`` end to end, and the change details in
``ask``'s text output, on the small CLI world."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphrag_core.providers.bpe_tokens import BpeTokenCounter
from tests.integration.cli_world import run

pytestmark = pytest.mark.integration

CHANGES = """\
session_id: 2
entity_updates:
  - entity_id: Torven
    status: dead
    killed_by: [Quiet Lantern Inn]
    note: "Found dead in the inn's cellar."
relationship_updates:
  - {from: Torven, to: Red Oak Tavern, type: owns, change: start}
"""


def test_preview_expand_and_context_from_the_cli(
    env: dict[str, str], world: Path, tmp_path: Path
) -> None:
    assert run(env, "ingest", str(world))[0] == 0
    (tmp_path / "s2.yaml").write_text(CHANGES)
    assert run(env, "changelog", "post", str(tmp_path / "s2.yaml"))[0] == 0

    code, output = run(env, "ask", "Is Torven alive?")
    assert code == 0 and "killed_by: Quiet Lantern Inn" in output

    code, output = run(env, "preview", "Is Torven alive?", "-k", "5", "--json")
    assert code == 0, output
    items = json.loads(output)["items"]
    torven = next(i for i in items if i["name"] == "Torven Blackwater")
    assert torven["status"] == "dead" and torven["status_change"] == "ch:s2-r1-1"
    assert "Torven Blackwater owns Red Oak Tavern" in torven["relations"]

    code, output = run(env, "expand", torven["handle"], "--budget", "60")
    assert code == 0, output
    assert BpeTokenCounter().count(output.rstrip("\n")) <= 60
    assert "Left out" in output

    code, output = run(env, "expand", torven["handle"], "e:nobody", "--budget", "500")
    assert code == 1 and "e:nobody" in output

    code, output = run(env, "context", "Who killed Torven?", "--budget", "800", "--json")
    assert code == 0, output
    block = json.loads(output)
    assert block["tokens"] <= 800 and block["expansions"]
