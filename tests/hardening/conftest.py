"""Fixtures of the hardening suites: a private data dir and the small CLI world."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from tests.integration.cli_world import make_world


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    """Settings for a CLI run on a private data dir."""
    return {"LOREGRAPH_DATA_DIR": str(tmp_path / "data"), "LOREGRAPH_CAMPAIGN": "cli"}


@pytest.fixture()
def world(tmp_path: Path) -> Path:
    return make_world(tmp_path)


# ------------------------------------------------------------------ fuzz profiles and tally

settings.register_profile(
    "ci",
    derandomize=True,  # fixed examples: the same run every time, in CI and here
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: bounded time
)
settings.register_profile(
    "long",  # HYPOTHESIS_PROFILE=long: random seeds, 20x the examples (docs/hardening.md)
    deadline=None,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

TALLY: Counter[str] = Counter()
"""Fuzz figures: ``<suite> tried`` / ``<suite> rejected`` / ``<suite> crashes``..."""


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With LOREGRAPH_FUZZ_REPORT=FILE, write the fuzz figures there as JSON."""
    target = os.environ.get("LOREGRAPH_FUZZ_REPORT")
    if target and TALLY:
        Path(target).write_text(json.dumps(dict(sorted(TALLY.items())), indent=2) + "\n")
