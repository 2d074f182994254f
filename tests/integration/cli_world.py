"""A small world and the CLI runner shared by the CLI tests (the ``env`` and ``world``
fixtures in conftest.py build on it)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from graphrag_core.surfaces.cli.app import app

WORLD = """\
entities:
  - name: Red Oak Tavern
    id: tavern-redoak
    type: Location
    aliases: [the Red Oak]
    status: intact
    description: A warm tavern with soft beds where travellers rest for the night.
  - name: Quiet Lantern Inn
    type: Location
    status: intact
    description: An inn with rooms to rest and a hearth, on the east road.
  - name: Torven Blackwater
    type: NPC
    aliases: [Torven]
    status: alive
    description: A merchant who trades in salt.
    gm_notes: Torven is secretly a smuggler for the Drowned Court.
"""


def make_world(tmp_path: Path) -> Path:
    """The world pack and a note, in ``tmp_path/world``."""
    folder = tmp_path / "world"
    folder.mkdir()
    (folder / "world.yaml").write_text(WORLD)
    (folder / "notes.md").write_text("# Notes\nTorven drinks at the Red Oak every night.\n")
    return folder


def run(env: dict[str, str], *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env=env)
    return result.exit_code, result.output
