"""Faults: ``kill -9`` of the CLI, or of the embedded engine, at the moment a write begins —
the content transaction of an ingest, its Source rows, a change set's changes or its record.
After each, running the same command again converges to the state of a clean run, and every
write acknowledged before the fault is there. Real CLI processes, real embedded FalkorDB."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from graphrag_core.stores.falkordb import FalkorDBStore
from tests.hardening.cli import invoke
from tests.hardening.conftest import TALLY
from tests.hardening.test_second_engine import engines_on

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
CHANGESET = "session_id: 4\nentity_updates:\n  - {entity_id: Torven, status: missing}\n"


def store_digest(data_dir: Path, campaign: str = "cli") -> str:
    store = FalkorDBStore.embedded(data_dir, "loregraph", dimension=384)
    try:
        state = {
            "entities": sorted(e.model_dump_json() for e in store.load_entities(campaign)),
            "relations": sorted(r.model_dump_json() for r in store.load_relations(campaign)),
            "chunks": sorted(c.model_dump_json() for c in store.load_chunks(campaign)),
            "sources": sorted(s.model_dump_json() for s in store.load_sources(campaign).values()),
            "changesets": sorted(
                r.model_dump_json(exclude={"posted_at"}) for r in store.load_changesets(campaign)
            ),
            "changes": sorted(c.model_dump_json() for c in store.load_changes(campaign)),
        }
    finally:
        store.close()
    return hashlib.sha256(json.dumps(state).encode()).hexdigest()


def _faulted(env: dict[str, str], on: str, kill: str, *args: str) -> int:
    run_env = {**os.environ, **env, "FAULT_ON": on, "FAULT_KILL": kill, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "tests.hardening.fault_cli", *args],
        env=run_env, cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Digests of a clean run: after the ingest, and after the ingest and the post."""
    from tests.integration.cli_world import make_world

    base = tmp_path_factory.mktemp("clean")
    env = {"LOREGRAPH_DATA_DIR": str(base / "data"), "LOREGRAPH_CAMPAIGN": "cli"}
    assert invoke(env, "ingest", str(make_world(base)), "--no-build").code == 0
    ingested = store_digest(base / "data")
    (base / "s4.yaml").write_text(CHANGESET)
    assert invoke(env, "changelog", "post", str(base / "s4.yaml")).code == 0
    return {"ingest": ingested, "post": store_digest(base / "data")}


@pytest.mark.parametrize(
    ("on", "kill"),
    [
        ("sources_upsert", "cli"),  # content written, its Source rows not yet
        ("entities_upsert", "engine"),  # the engine dies as the content is sent
    ],
)
def test_ingest_killed_on_its_write_converges_on_rerun(
    env: dict[str, str], world: Path, clean: dict[str, str], on: str, kill: str
) -> None:
    code = _faulted(env, on, kill, "ingest", str(world), "--no-build")
    assert code == (-signal.SIGKILL if kill == "cli" else 1)
    TALLY["fault ingest trials"] += 1
    again = invoke(env, "ingest", str(world), "--no-build")
    assert again.code == 0 and not again.crashed, again.output
    assert store_digest(Path(env["LOREGRAPH_DATA_DIR"])) == clean["ingest"]
    TALLY["fault ingest converged"] += 1
    assert engines_on(Path(env["LOREGRAPH_DATA_DIR"])) == [], "an engine was left running"


@pytest.mark.parametrize(
    ("on", "kill"),
    [
        ("changes_append", "cli"),
        ("changeset_append", "cli"),
        ("changeset_append", "engine"),
    ],
)
def test_post_killed_on_its_write_converges_on_rerun(
    env: dict[str, str], world: Path, tmp_path: Path, clean: dict[str, str], on: str, kill: str
) -> None:
    assert invoke(env, "ingest", str(world), "--no-build").code == 0  # acknowledged
    changeset = tmp_path / "s4.yaml"
    changeset.write_text(CHANGESET)
    code = _faulted(env, on, kill, "changelog", "post", str(changeset))
    assert code == (-signal.SIGKILL if kill == "cli" else 1)
    TALLY["fault post trials"] += 1
    again = invoke(env, "changelog", "post", str(changeset))
    assert again.code == 0 and "already posted" not in again.output, again.output
    assert store_digest(Path(env["LOREGRAPH_DATA_DIR"])) == clean["post"]
    TALLY["fault post converged"] += 1
    assert engines_on(Path(env["LOREGRAPH_DATA_DIR"])) == [], "an engine was left running"
