"""Offline ingest throughput, no-op re-ingest, and warm `ask` latency, on the real engine.

Run: ``python benchmarks/bench_ingest_ask.py [--mb 1.0] [--runs 5]``.

1. A synthetic campaign of about ``--mb`` MB of Markdown lore plus a world pack naming its
   entities is ingested into a fresh embedded FalkorDB with the real embedding model
   (targets: ≥ 1 MB of text per minute; re-ingest of unchanged sources writes nothing).
2. The example campaign (examples/emberfall) is ingested, its changelogs posted, and its demo
   questions asked ``--runs`` times each, warm: p50 / p95 latency of `ask` as the GM and as a
   player.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import yaml

from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files, load_questions
from graphrag_core.wiring import open_service

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "emberfall"
WORDS = tuple(
    [
        "ancient",
        "road",
        "river",
        "tower",
        "market",
        "guild",
        "shrine",
        "caravan",
        "ember",
        "ash",
        "forest",
        "harbour",
        "vault",
        "oath",
        "bridge",
        "winter",
        "harvest",
        "crown",
        "lantern",
        "relic",
        "watch",
        "garrison",
        "border",
        "pass",
        "ruin",
        "mine",
    ]
)


def synthetic_campaign(folder: Path, megabytes: float, seed: int = 11) -> int:
    """Write a world pack and lore files; return the bytes of text written."""
    rng = random.Random(seed)
    names = [f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}" for i in range(400)]
    pack = {"entities": [
        {"name": n, "type": rng.choice(["NPC", "Location", "Faction", "Item"]),
         "description": f"{n} is known along the {rng.choice(WORDS)} road."}
        for n in names
    ]}  # fmt: skip
    (folder / "world.yaml").write_text(yaml.safe_dump(pack), encoding="utf-8")
    target, written, doc = int(megabytes * 1_000_000), 0, 0
    while written < target:
        sections = []
        for s in range(8):
            a, b = rng.sample(names, 2)
            body = " ".join(rng.choice(WORDS) for _ in range(120))
            sections.append(f"## Part {s}\n{a} is allied with {b}. {body}.\n")
        text = f"# Chronicle {doc}\n" + "\n".join(sections)
        (folder / f"chronicle-{doc:04d}.md").write_text(text, encoding="utf-8")
        written += len(text.encode())
        doc += 1
    return written


def bench_ingest(megabytes: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        world = Path(tmp) / "world"
        world.mkdir()
        size = synthetic_campaign(world, megabytes)
        with open_service(Settings(data_dir=Path(tmp) / "data")) as service:
            service.embedder.embed(["warm up"])  # model load is not ingest
            start = time.perf_counter()
            report = service.ingest(world, "bench")
            first = time.perf_counter() - start
            start = time.perf_counter()
            again = service.ingest(world, "bench")
            second = time.perf_counter() - start
    print(
        f"ingest: {size / 1e6:.2f} MB, {report.chunks} chunks, {report.entities} entities, "
        f"{report.embedded} embedded in {first:.1f} s = {size / 1e6 / first * 60:.1f} MB/min"
    )
    print(
        f"re-ingest unchanged: {second * 1000:.0f} ms, wrote={again.wrote}, "
        f"embedded={again.embedded}"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_ask(runs: int) -> None:
    questions = [str(q["question"]) for q in load_questions(EXAMPLE)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        open_service(Settings(data_dir=Path(tmp) / "data")) as service,
    ):
        service.ingest(EXAMPLE / "world", "emberfall")
        for file in changelog_files(EXAMPLE):
            service.post_changelog(file, "emberfall")
        for as_player in (False, True):
            for q in questions:  # warm: views, indexes, model
                service.ask(q, "emberfall", as_player=as_player)
            times = []
            for _ in range(runs):
                for q in questions:
                    start = time.perf_counter()
                    service.ask(q, "emberfall", as_player=as_player, k=10)
                    times.append((time.perf_counter() - start) * 1000)
            who = "player" if as_player else "GM"
            print(
                f"ask ({who}, example campaign, warm, {len(times)} calls): "
                f"p50 {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    bench_ingest(args.mb)
    bench_ask(args.runs)


if __name__ == "__main__":
    main()
