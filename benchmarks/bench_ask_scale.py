"""The ranked ``ask`` (what ``preview`` ranks with) on a synthetic campaign of ``--n`` entities
stored in the real embedded FalkorDB: opening the service, the first query after opening, warm
p50 / p95 in process, and peak RSS.

Run::

    python benchmarks/bench_ask_scale.py --n 10000 --data-dir /tmp/bench-10k   # set up once
    python benchmarks/bench_ask_scale.py --n 10000 --data-dir /tmp/bench-10k   # measure again

The campaign (seeded): NPCs, places and factions in groups of 40, ~3 relations per entity (two
inside the group, one anywhere), one chunk per entity naming it and two others, a tenth of
everything GM-only, 10 sessions of changes (deaths, destructions, hostility) touching 5 % of
the entities, then an analytics build (centrality, communities, summaries). Item vectors are
seeded random unit vectors written straight to the store (the ranker's cost does not depend on
what they say); questions are embedded by the real model, as in production. Set-up runs once
per ``--data-dir``; the measurement always runs in a fresh child process, so opening the
service and the first query are cold, as after a restart. The campaign's read snapshot
(``<data dir>/snapshots/scale``: item vectors written by the build, the stored campaign,
analytics and BM25 written by the first query that had to read the store) is kept between runs
unless ``--snapshot drop``; ``--busy`` keeps one core spinning in another process meanwhile;
``--post`` posts one change set (a death, no rebuild) first, in the parent process, so the
measured first query is the first after another process's post, and at the end posts three
more in the measuring process, timing the ``ask`` after each (a resident server's case). The
set-up writes through the store's own ``apply_delta`` in transactions of ``WRITE_SLICE`` items.
Reported: opening the service, the first ``ask``, warm ``ask`` and ``preview`` p50 / p95
(k = 20), the peak RSS of this process and of the embedded FalkorDB server, and the load
average. ``--query-encoder`` picks what embeds
the questions (``numpy``, the default, or ``sentence-transformers``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from changelog.impact import RebuildPolicy  # noqa: E402
from graphrag_core.config import EmbeddingSettings  # noqa: E402
from graphrag_core.models import (  # noqa: E402
    Change,
    ChangeSetRecord,
    Chunk,
    Entity,
    GraphDelta,
    Relation,
)
from graphrag_core.ports import NullProgress  # noqa: E402
from graphrag_core.settings import Settings  # noqa: E402
from graphrag_core.wiring import open_service  # noqa: E402

CAMPAIGN = "scale"
WRITE_SLICE = 10_000
"""Items per ``apply_delta`` (one transaction each) in the set-up."""
T = TypeVar("T")
GROUP = 40
DIM = 384
TYPES = ("NPC", "NPC", "NPC", "Location", "Faction")
FAMES = ("trade", "war", "lore", "faith")
QUESTIONS = (
    "Where can the party rest tonight?",
    "Who leads the guild of {0}?",
    "Is {0} alive?",
    "Who are our enemies?",
    "Who are our allies?",
    "What happened at {1}?",
    "Who knows {0}?",
    "Which inn near {1} is safe?",
    "Tell me about {0}.",
    "Who can sell us supplies?",
)


def _vector(rng: random.Random) -> tuple[float, ...]:
    raw = [rng.gauss(0.0, 1.0) for _ in range(DIM)]
    norm = sum(x * x for x in raw) ** 0.5
    return tuple(x / norm for x in raw)


def _entity(i: int, rng: random.Random) -> Entity:
    kind = TYPES[i % len(TYPES)]
    return Entity(
        id=f"e-{i:06d}",
        name=f"{kind} {i}",
        type=kind,
        status={"NPC": "alive", "Location": "intact", "Faction": "active"}[kind],
        visibility="gm" if i % 10 == 9 else "party",
        description=f"{kind} {i} of group {i // GROUP}, known for {rng.choice(FAMES)}.",
    )


def _relations(n: int, rng: random.Random) -> list[Relation]:
    pairs = set()
    for i in range(n):
        base = i - i % GROUP
        pairs |= {(i, base + rng.randrange(GROUP)) for _ in range(2)}
        pairs.add((i, rng.randrange(n)))
    kinds = ("knows", "member_of", "located_in", "allied_with", "hostile_to")
    return [
        Relation(source=f"e-{a:06d}", target=f"e-{b:06d}", type=kinds[(a + b) % len(kinds)])
        for a, b in sorted(pairs)
        if a != b
    ]


def _chunks(entities: list[Entity], rng: random.Random) -> list[Chunk]:
    chunks = []
    for i, e in enumerate(entities):
        others = tuple(entities[rng.randrange(len(entities))].id for _ in range(2))
        text = f"{e.name} met {others[0]} and {others[1]} at the market. {e.description}"
        chunks.append(
            Chunk(
                id=f"c-{i:06d}", source_path=f"lore/part-{i // 500:03d}.md", start=0,
                end=len(text), text=text, content_hash=f"h{i}", heading=e.name,
                visibility=e.visibility, subject=e.id, mentions=(e.id, *others),
            )
        )  # fmt: skip
    return chunks


def _changes(n: int, rng: random.Random) -> dict[int, list[Change]]:
    sessions: dict[int, list[Change]] = {}
    for seq, i in enumerate(rng.sample(range(n), n // 20), start=1):
        session = 1 + seq % 10
        kind = TYPES[i % len(TYPES)]
        new = {"NPC": "dead", "Location": "destroyed", "Faction": "disbanded"}[kind]
        sessions.setdefault(session, []).append(
            Change(
                id=f"s{session}-r1-{seq}", session_id=session, seq=seq, kind="entity_status",
                entity_id=f"e-{i:06d}", field="status", new_value=new, source="bench",
            )
        )  # fmt: skip
    return sessions


def setup(data_dir: Path, n: int) -> None:
    rng = random.Random(7)
    entities = [_entity(i, rng) for i in range(n)]
    chunks = _chunks(entities, rng)
    items: list[Entity | Chunk] = [*entities, *chunks]
    vectors = {item.id: _vector(rng) for item in items}
    relations = _relations(n, rng)
    started = time.perf_counter()
    with open_service(Settings(data_dir=data_dir)) as service:
        # one transaction per WRITE_SLICE items (a 100k campaign in one is more than the
        # server takes in one request): entities first, then the relations and chunks that
        # need them
        for some in _slices(entities):
            service.store.apply_delta(
                CAMPAIGN, GraphDelta(entities_upsert=some, vectors=_of(vectors, some))
            )
        for links in _slices(relations):
            service.store.apply_delta(CAMPAIGN, GraphDelta(relations_upsert=links))
        for texts in _slices(chunks):
            service.store.apply_delta(
                CAMPAIGN, GraphDelta(chunks_upsert=texts, vectors=_of(vectors, texts))
            )
        _step("wrote the campaign", started)
        for session, changes in sorted(_changes(n, rng).items()):
            record = ChangeSetRecord(
                session_id=session, revision=1, content_hash=f"bench-{session}", source="bench",
                posted_at="2026-01-01T00:00:00", change_count=len(changes),
            )  # fmt: skip
            service.store.append_changeset(CAMPAIGN, record, changes)
        _step("posted the changes", started)
        service.build(CAMPAIGN, NullProgress())
        _step("built the analytics", started)


def _slices(items: list[T]) -> list[tuple[T, ...]]:
    return [tuple(items[i : i + WRITE_SLICE]) for i in range(0, len(items), WRITE_SLICE)]


def _of(vectors: dict[str, tuple[float, ...]], items: tuple[Entity | Chunk, ...]) -> Any:
    return {item.id: vectors[item.id] for item in items}


def post_one(data_dir: Path) -> dict[str, Any]:
    """Post one small change set (a death; no rebuild) through the service, as ``loregraph
    changelog post`` does: what the next process's first query follows with ``--post``."""
    with open_service(Settings(data_dir=data_dir)) as service:
        service.rebuild_policy = RebuildPolicy(schedule_threshold=1e9, force_threshold=1e9)
        session = 10 + len(service.store.load_changesets(CAMPAIGN))
        changeset = {
            "session_id": session, "title": f"bench post {session}",
            "entity_updates": [{"entity_id": f"NPC {5 * session}", "status": "dead"}],
        }  # fmt: skip
        started = time.perf_counter()
        outcome = service.post_and_rebuild(changeset, CAMPAIGN, source_name="bench")
        assert outcome.build is None and outcome.post.action != "duplicate", outcome
        return {"post_session": session, "post_s": round(time.perf_counter() - started, 3)}


def _step(what: str, started: float) -> None:
    print(f"  {what}: {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(int(share * len(ordered) + 0.999999) - 1, 0)]


def _server_peak_mb(service: Any) -> float | None:
    """The embedded FalkorDB server's peak resident memory (``VmHWM``), if this is Linux."""
    server = getattr(service.store, "server", None)
    pid = server.pid if server is not None else None
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except (OSError, TypeError):
        return None
    kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))
    return round(kb / 1024, 1)


def _timed(runs: int, questions: list[str], call: Any) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds (this process's, all threads) of each call: on a shared
    machine the CPU time says what the call costs, the wall time what it was made to wait."""
    times, cpu = [], []
    for _ in range(runs):
        for q in questions:
            started, started_cpu = time.perf_counter(), time.process_time()
            call(q)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
    return times, cpu


def measure(
    data_dir: Path, n: int, runs: int, query_encoder: str, post: bool = False
) -> dict[str, Any]:
    questions = [q.format(f"NPC {i * 5}", f"Location {i * 5 + 3}") for i, q in enumerate(QUESTIONS)]
    settings = Settings(data_dir=data_dir, embedding=EmbeddingSettings(query_encoder=query_encoder))
    started = time.perf_counter()
    with open_service(settings) as service:
        opened = time.perf_counter() - started
        started, started_cpu = time.perf_counter(), time.process_time()
        service.ask(questions[0], CAMPAIGN)
        first = time.perf_counter() - started
        first_cpu = time.process_time() - started_cpu
        for q in questions:  # warm every question once
            service.ask(q, CAMPAIGN)
            service.preview(q, CAMPAIGN, k=20)
        asks, asks_cpu = _timed(runs, questions, lambda q: service.ask(q, CAMPAIGN, k=20))
        previews, previews_cpu = _timed(
            runs, questions, lambda q: service.preview(q, CAMPAIGN, k=20)
        )
        after_post = _ask_after_posts(service, questions[4]) if post else {}
        server_mb = _server_peak_mb(service)
    return {
        "entities": n,
        "query_encoder": query_encoder,
        "open_s": round(opened, 3),
        "first_ask_s": round(first, 3),
        "first_ask_cpu_s": round(first_cpu, 3),
        "warm_ask_p50_ms": round(_percentile(asks, 0.5), 1),
        "warm_ask_p95_ms": round(_percentile(asks, 0.95), 1),
        "warm_preview_p50_ms": round(_percentile(previews, 0.5), 1),
        "warm_preview_p95_ms": round(_percentile(previews, 0.95), 1),
        "warm_ask_cpu_p50_ms": round(_percentile(asks_cpu, 0.5), 1),
        "warm_ask_cpu_p95_ms": round(_percentile(asks_cpu, 0.95), 1),
        "warm_preview_cpu_p50_ms": round(_percentile(previews_cpu, 0.5), 1),
        "warm_preview_cpu_p95_ms": round(_percentile(previews_cpu, 0.95), 1),
        "calls": len(asks),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "server_peak_rss_mb": server_mb,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        **after_post,
    }


def _ask_after_posts(service: Any, question: str) -> dict[str, Any]:
    """Three times: post one change set in this process (a resident server's case), then time
    the next ``ask`` (wall and CPU seconds)."""
    service.rebuild_policy = RebuildPolicy(schedule_threshold=1e9, force_threshold=1e9)
    wall, cpu = [], []
    for _ in range(3):
        session = 10 + len(service.store.load_changesets(CAMPAIGN))
        changeset = {
            "session_id": session, "title": f"bench post {session}",
            "entity_updates": [{"entity_id": f"NPC {5 * session}", "status": "dead"}],
        }  # fmt: skip
        service.post_and_rebuild(changeset, CAMPAIGN, source_name="bench")
        started, started_cpu = time.perf_counter(), time.process_time()
        service.ask(question, CAMPAIGN)
        wall.append(round(time.perf_counter() - started, 3))
        cpu.append(round(time.process_time() - started_cpu, 3))
    return {"ask_after_post_in_process_s": wall, "ask_after_post_in_process_cpu_s": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--data-dir", type=Path, default=Path("/tmp/loregraph-bench-scale"))
    parser.add_argument(
        "--query-encoder", choices=("numpy", "sentence-transformers"), default="numpy"
    )
    parser.add_argument(
        "--snapshot", choices=("keep", "drop"), default="keep",
        help="drop: delete the campaign's read snapshot first (the first query reads the store "
        "and writes it again; the vectors stay searched by the store until the next build)",
    )  # fmt: skip
    parser.add_argument(
        "--busy", action="store_true", help="keep one core busy (a spinning process) meanwhile"
    )
    parser.add_argument(
        "--post", action="store_true",
        help="post one change set (no rebuild) in this process first, so the measured first "
        "query is the first after a post by another process",
    )  # fmt: skip
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        measured = measure(args.data_dir, args.n, args.runs, args.query_encoder, args.post)
        print(json.dumps(measured))
        return
    if not (args.data_dir / ".ready").exists():
        started = time.perf_counter()
        setup(args.data_dir, args.n)
        (args.data_dir / ".ready").write_text("ok")
        print(f"set-up: {time.perf_counter() - started:.1f} s")
    if args.snapshot == "drop":
        shutil.rmtree(args.data_dir / "snapshots" / CAMPAIGN, ignore_errors=True)
    posted = post_one(args.data_dir) if args.post else {}
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    command = [sys.executable, __file__, "--child", "--n", str(args.n), "--runs", str(args.runs),
               "--query-encoder", args.query_encoder]  # fmt: skip
    command += ["--post"] if args.post else []
    try:
        child = subprocess.run([*command, "--data-dir", str(args.data_dir)], check=True,
                               capture_output=True, text=True)  # fmt: skip
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
    print(json.dumps({**json.loads(child.stdout.strip().splitlines()[-1]), **posted}))


if __name__ == "__main__":
    main()
