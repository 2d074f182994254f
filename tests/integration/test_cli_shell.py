"""``loregraph shell`` as a real process fed on stdin: questions and entities answer from one
warm service, the player switch hides GM notes, a mistake is one line and the shell goes on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.cli_world import run

pytestmark = pytest.mark.integration

SCRIPT = """\
Where can the party rest?
entity Torven
as-player on
entity Torven
entity Nobody Atall
as-of soon
ask Who trades in salt?
quit
entity Torven
"""


def test_shell_keeps_answering_until_quit(env: dict[str, str], world: Path) -> None:
    code, output = run(env, "ingest", str(world))
    assert code == 0, output
    result = subprocess.run(
        [sys.executable, "-m", "graphrag_core.surfaces.cli", "shell"],
        input=SCRIPT,
        env={**os.environ, **env, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    out, err = result.stdout, result.stderr
    assert "Quiet Lantern Inn" in out and "Red Oak Tavern" in out  # the question
    assert out.count("Torven Blackwater") >= 3  # twice as an entity, once as an answer
    gm_part, _, player_part = out.partition("[cli · player]> ")
    assert "secretly a smuggler" in gm_part  # the GM sees the notes, players never
    assert player_part and "smuggler" not in player_part
    assert "unknown entity 'Nobody Atall'" in err
    assert "as-of takes a session number or off, not 'soon'" in err
    assert "Traceback" not in err
