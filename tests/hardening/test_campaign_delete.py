"""``campaign delete NAME`` undoes a mistyped ``-c``: after a confirmation (``--yes`` for
scripts) every stored item of that campaign and its ingest manifests are gone, and no other
campaign is touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphrag_core.surfaces.cli.app import app
from tests.hardening.cli import invoke, refused

pytestmark = pytest.mark.integration


def _campaigns(env: dict[str, str]) -> list[str]:
    done = invoke(env, "campaigns")
    assert done.code == 0, done.output
    return done.output.split()


def test_a_stray_campaign_is_deleted_and_the_others_kept(env: dict[str, str], world: Path) -> None:
    assert invoke(env, "ingest", str(world), "-c", "keep", "--no-build").code == 0
    assert invoke(env, "ingest", str(world), "-c", "typo", "--no-build").code == 0
    assert _campaigns(env) == ["keep", "typo"]
    snapshots = Path(env["LOREGRAPH_DATA_DIR"]) / "snapshots"
    assert (snapshots / "typo" / "vectors-entity.npz").exists()  # the ingest's vectors
    declined = CliRunner().invoke(app, ["campaign", "delete", "typo"], env=env, input="n\n")
    assert declined.exit_code == 1 and _campaigns(env) == ["keep", "typo"], declined.output
    confirmed = CliRunner().invoke(app, ["campaign", "delete", "typo"], env=env, input="y\n")
    assert confirmed.exit_code == 0, confirmed.output
    assert _campaigns(env) == ["keep"]
    assert not (Path(env["LOREGRAPH_DATA_DIR"]) / "manifests" / "typo").exists()
    assert not (snapshots / "typo").exists() and (snapshots / "keep").exists()
    again = invoke(env, "ingest", str(world), "-c", "keep", "--no-build")
    assert again.code == 0 and _campaigns(env) == ["keep"], again.output


def test_deleting_an_unknown_campaign_is_a_clear_error(env: dict[str, str], world: Path) -> None:
    assert invoke(env, "ingest", str(world), "-c", "keep", "--no-build").code == 0
    done = invoke(env, "campaign", "delete", "kep", "--yes")
    assert refused(done) and "keep" in done.output, done.output
    assert _campaigns(env) == ["keep"]
