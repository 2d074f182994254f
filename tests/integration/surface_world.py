"""A small campaign on a real embedded store, shared by the MCP and web-page tests: three
entities (one with GM notes), a party-visible change set and a GM-only one."""

from __future__ import annotations

from pathlib import Path

from tests.integration.cli_world import make_world, run

CAMPAIGN = "cli"
SECRETS = ("smuggler", "Drowned Court", "poisoned by the Court")
"""Text only the game master may see: Torven's GM notes and the GM-only change's note."""

SESSION_1 = """\
session_id: 1
title: The fire at the Red Oak
entity_updates:
  - entity_id: Red Oak Tavern
    status: destroyed
    note: Burnt down in the riot.
"""

SESSION_2 = """\
session_id: 2
title: A quiet death
entity_updates:
  - entity_id: Torven Blackwater
    status: dead
    visibility: gm
    note: Torven was poisoned by the Court.
"""

SESSION_3 = """\
session_id: 3
title: The inn closes
entity_updates:
  - entity_id: Quiet Lantern Inn
    status: abandoned
    note: The innkeeper fled east.
"""
"""Not posted by :func:`make_campaign`: the tests post it through a surface."""


def make_campaign(root: Path) -> dict[str, str]:
    """Ingest the world and post sessions 1 and 2 into a data dir under ``root``; returns
    the settings (environment) that reach it."""
    env = {"LOREGRAPH_DATA_DIR": str(root / "data"), "LOREGRAPH_CAMPAIGN": CAMPAIGN}
    world = make_world(root)
    for args in (["ingest", str(world)], *(["changelog", "post", str(p)] for p in _sessions(root))):
        code, output = run(env, *args)
        assert code == 0, output
    return env


def _sessions(root: Path) -> list[Path]:
    paths = []
    for n, text in ((1, SESSION_1), (2, SESSION_2)):
        path = root / f"session-{n}.yaml"
        path.write_text(text)
        paths.append(path)
    return paths
