"""Fixtures of the hardening suites: a private data dir and the small CLI world."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.cli_world import make_world


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    """Settings for a CLI run on a private data dir."""
    return {"LOREGRAPH_DATA_DIR": str(tmp_path / "data"), "LOREGRAPH_CAMPAIGN": "cli"}


@pytest.fixture()
def world(tmp_path: Path) -> Path:
    return make_world(tmp_path)
