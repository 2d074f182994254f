"""Faults: ``kill -9`` of the CLI, or of the embedded engine, at points of an ingest, a change
set post and a ``build`` — on a given write (before it is sent, while it is on the wire or being
run, once it is acknowledged) or on a timer. After each, every write the engine acknowledged
before the fault is in the store, running the same command again succeeds and converges to the
store digest of a clean run, and no engine is left running. Real CLI processes (forked by
``fault_cli.py --serve``, so the model loads once), real embedded FalkorDB, real files.

``LOREGRAPH_FAULT_TRIALS`` (default 24: the fixed cases and seeded random ones) and
``LOREGRAPH_FAULT_SEED`` (default 11) set the run; docs/hardening.md has a longer profile."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from graphrag_core.stores.falkordb import FalkorDBStore
from tests.hardening.conftest import TALLY
from tests.hardening.test_second_engine import engines_on
from tests.integration.cli_world import make_world

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
CHANGESET = "session_id: 4\nentity_updates:\n  - {entity_id: Torven, status: missing}\n"
TRIALS = int(os.environ.get("LOREGRAPH_FAULT_TRIALS", "24"))
SEED = int(os.environ.get("LOREGRAPH_FAULT_SEED", "11"))
OPS = ("ingest", "post", "build")
START = {"ingest": None, "post": "ingest", "build": "post"}
"""Each command starts from the clean state of the one before it (ingest: an empty store)."""


def store_state(data_dir: Path, campaign: str = "cli") -> dict[str, Any]:
    """Everything stored for ``campaign`` (times of posting and building left out), and the
    migrations applied."""
    store = FalkorDBStore.embedded(data_dir, "loregraph", dimension=384)
    try:
        snapshot = store.load_analytics(campaign)
        return {
            "entities": sorted(e.model_dump_json() for e in store.load_entities(campaign)),
            "relations": sorted(r.model_dump_json() for r in store.load_relations(campaign)),
            "chunks": sorted(c.model_dump_json() for c in store.load_chunks(campaign)),
            "sources": sorted(s.model_dump_json() for s in store.load_sources(campaign).values()),
            "changesets": sorted(
                r.model_dump_json(exclude={"posted_at"}) for r in store.load_changesets(campaign)
            ),
            "changes": sorted(c.model_dump_json() for c in store.load_changes(campaign)),
            "analytics": snapshot.model_dump_json(exclude={"built_at"}) if snapshot else None,
            "migrations": sorted(store.migrations_applied()),
        }
    finally:
        store.close()


def digest(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


class ForkServer:
    """``fault_cli.py --serve``: each run a forked CLI process, faults planted from its env."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.runs = 0
        env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
        env |= {"MKL_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}  # fork-safe torch
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.hardening.fault_cli", "--serve"],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip

    def run(self, data_dir: Path, *args: str, **fault: str) -> tuple[int, str]:
        """Exit code (``-9``: killed) and output of the CLI run with ``args``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.runs += 1
        out = self.workdir / f"run-{self.runs}.out"
        env = {**os.environ, "LOREGRAPH_DATA_DIR": str(data_dir), "LOREGRAPH_CAMPAIGN": "cli"}
        spec = {"args": list(args), "env": {**env, **fault}, "out": str(out), "timeout": 120}
        self.process.stdin.write(json.dumps(spec) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, "the fork server died"
        return int(json.loads(answer)["code"]), out.read_text(errors="replace")

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
        self.process.stdout.close()


@dataclass(frozen=True)
class Trial:
    op: str
    kill: str  # cli | engine
    when: str  # before | during | after (a write) | timer
    at: int = 0  # the write transaction (1-based); timer: milliseconds
    delay_ms: int = 0  # during: after the transaction starts being sent

    def fault(self, log: Path) -> dict[str, str]:
        planted = {"FAULT_KILL": self.kill, "FAULT_LOG": str(log)}
        if self.when == "timer":
            return {**planted, "FAULT_AFTER_MS": str(self.at)}
        return {**planted, "FAULT_AT": str(self.at), "FAULT_WHEN": self.when,
                "FAULT_DELAY_MS": str(self.delay_ms)}  # fmt: skip

    def __str__(self) -> str:
        return f"{self.op}-{self.kill}-{self.when}-{self.at}"


def _ids(trials: list[Trial]) -> list[str]:
    return [f"{n:03d}-{trial}" for n, trial in enumerate(trials)]


@dataclass
class World:
    server: ForkServer
    base: Path
    world: Path
    changeset: Path
    writes: dict[str, list[list[str]]]
    """The write transactions of each command's clean run (statement names)."""
    clean: dict[str, dict[str, Any]]
    """The store state after each command's clean run."""
    snapshots: dict[str, Path]

    def args(self, op: str) -> list[str]:
        return {
            "ingest": ["ingest", str(self.world), "--no-build"],
            "post": ["changelog", "post", str(self.changeset)],
            "build": ["build"],
        }[op]


def _copy_store(source: Path, target: Path) -> None:
    """A stopped store's files (not its socket, pid or users)."""
    skip = shutil.ignore_patterns("*.sock", "falkordb.pid", "falkordb.users")
    shutil.copytree(source, target, ignore=skip)


@pytest.fixture(scope="module")
def faults(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The fork server, and the clean run of ingest, post and build: their writes, their
    states and a copy of each state to start a trial from."""
    base = tmp_path_factory.mktemp("faults")
    server = ForkServer(base)
    (base / "s4.yaml").write_text(CHANGESET)
    world = World(server, base, make_world(base), base / "s4.yaml", {}, {}, {})
    data = base / "clean"
    for op in OPS:
        log = base / f"clean-{op}.log"
        code, output = server.run(data, *world.args(op), FAULT_LOG=str(log))
        assert code == 0, output
        world.writes[op] = [line.split() for line in log.read_text().splitlines()]
        world.clean[op] = store_state(data)
        assert engines_on(data) == []
        world.snapshots[op] = base / f"after-{op}"
        _copy_store(data, world.snapshots[op])
    assert world.clean["build"]["analytics"] and world.clean["post"]["changesets"]
    yield world
    server.close()


def _trials() -> list[Trial]:
    """The fixed cases (each write that marks work done, killed at it), then seeded random
    ones: a command, CLI or engine, and where — a write of it (before / during / after) or a
    timer."""
    fixed = [
        Trial("ingest", "cli", "before", -1),  # content written, its Source rows not yet
        Trial("ingest", "engine", "before", -2),  # the engine dies as the content is sent
        Trial("post", "cli", "before", 1),  # the changes, before they are sent
        Trial("post", "cli", "before", 2),  # changes stored, their record not
        Trial("post", "engine", "before", 2),
        Trial("build", "cli", "during", 1, 5),  # the analytics transaction on the wire
        Trial("build", "engine", "before", 1),
        Trial("ingest", "engine", "after", -1),  # acknowledged, then the engine dies
    ]
    rng = random.Random(SEED)
    rest: list[Trial] = []
    for i in range(max(TRIALS - len(fixed), 0)):
        op, kill = OPS[i % 3], rng.choice(("cli", "engine"))
        when = rng.choice(("before", "during", "after", "timer"))
        if when == "timer":
            rest.append(Trial(op, kill, when, rng.randrange(0, 2500)))
            continue
        # ingest: the first 15 writes are migrations; half the trials hit the content
        at = -rng.randint(1, 2) if op == "ingest" and rng.random() < 0.5 else rng.randint(1, 99)
        rest.append(Trial(op, kill, when, at, rng.randrange(0, 30)))
    return (fixed + rest)[:TRIALS]


WRITTEN_BY = {"ingest": None, "post": {"changes", "changesets"}, "build": {"analytics"}}
"""What each command writes (None: everything); the rest of a store it starts from is left as
it was."""
MARKS = {
    "entities_upsert": "entities",
    "chunks_upsert": "chunks",
    "sources_upsert": "sources",
    "changeset_append": "changesets",
    "analytics_snapshot_save": "analytics",
}


def lost_writes(
    op: str, state: dict[str, Any], start: dict[str, Any] | None, acked: list[list[str]],
    clean: dict[str, Any],
) -> list[str]:  # fmt: skip
    """Which acknowledged writes ``state`` lacks: the state the command started from (all
    acknowledged before it), and each write of the command that the engine acknowledged
    before the fault (its part of the store is already the clean run's)."""
    lost = []
    if start is not None:
        written = WRITTEN_BY[op] or set()
        lost += [
            f"{key} (start)" for key in start if key not in written and state[key] != start[key]
        ]
    names = {name for statements in acked for name in statements}
    lost += [key for name, key in MARKS.items() if name in names and state[key] != clean[key]]
    if len(state["migrations"]) < sum(statements == ["migration_record"] for statements in acked):
        lost.append("migration records")
    return lost


@pytest.mark.parametrize("trial", _trials(), ids=_ids(_trials()))
def test_killed_then_run_again_converges(faults: World, tmp_path: Path, trial: Trial) -> None:
    writes = len(faults.writes[trial.op])
    at = trial.at
    if trial.when != "timer":
        at = writes + at + 1 if at < 0 else (at - 1) % writes + 1
    trial = Trial(trial.op, trial.kill, trial.when, at, trial.delay_ms)
    data = tmp_path / "data"
    start = START[trial.op]
    if start is not None:
        _copy_store(faults.snapshots[start], data)
    log = tmp_path / "acked.log"
    args = faults.args(trial.op)

    code, output = faults.server.run(data, *args, **trial.fault(log))
    assert "Traceback" not in output, output
    assert code in (0, 1, -9), (code, output)
    acked = [line.split() for line in log.read_text().splitlines()] if log.exists() else []
    TALLY[f"fault {trial.op} trials"] += 1
    outcome = {-9: "CLI killed", 1: "command failed (engine killed)", 0: "command finished"}
    TALLY[f"fault outcome: {outcome[code]}"] += 1

    state = store_state(data)  # before the re-run: what survived the fault
    before = faults.clean[start] if start else None
    lost = lost_writes(trial.op, state, before, acked, faults.clean[trial.op])
    TALLY["fault lost writes"] += len(lost)
    assert not lost, f"acknowledged writes lost: {lost} ({output})"

    again, output = faults.server.run(data, *args)
    assert again == 0 and "Traceback" not in output, output
    converged = store_state(data)
    assert digest(converged) == digest(faults.clean[trial.op]), (trial, output)
    TALLY["fault converged"] += 1
    assert engines_on(data) == [], "an engine was left running"
