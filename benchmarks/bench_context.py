"""Preview → expand → context: latency and token figures (issue 12b).

Run: ``python benchmarks/bench_context.py [--runs 5] [--entities 10000]``.

1. The example campaign (examples/emberfall) is ingested, its changelogs posted and built;
   each demo question is previewed (k=20), expanded and put into a context block, warm, as
   the GM: p50/p95 of ``preview`` (ranking included) and of the ``ask`` inside it, the largest
   20-item preview in tokens, ``expand`` of the top 5 handles at a 2,000-token budget and
   ``context`` at 6,000.
2. The context layer alone at scale: a synthetic view of ``--entities`` entities (3 relations
   and 2 chunks each, 10 % of them changed) and 20 ranked results: p50/p95 of building the 20
   preview items (one pass over relations and chunks, the exact o200k cost of each item's
   expansion) — what ``preview`` adds to the ranker's time; and the first call, which builds
   the view's index of relations, chunks and changes per entity.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from graphrag_core.models import Change, Chunk, Entity, RankedResult, Relation
from graphrag_core.providers.bpe_tokens import BpeTokenCounter
from graphrag_core.services.views import build_view
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files, load_questions
from graphrag_core.wiring import open_service
from ranking.context.items import preview_items

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "emberfall"


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def show(label: str, values: list[float]) -> None:
    print(f"{label:<38} p50 {statistics.median(values):7.1f} ms   p95 {p(values, 0.95):7.1f} ms")


def example(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, open_service(Settings(data_dir=Path(tmp))) as svc:
        svc.ingest(EXAMPLE / "world", "emberfall")
        for file in changelog_files(EXAMPLE):
            svc.post_changelog(file, "emberfall")
        svc.build("emberfall")
        questions = [str(q["question"]) for q in load_questions(EXAMPLE)]
        for q in questions:  # warm: views, indexes, model, counter
            svc.context(q, "emberfall", budget=6000)
        asks, previews, expands, contexts, tokens = [], [], [], [], []
        for q in questions:
            asks += timed(lambda q=q: svc.ask(q, "emberfall", k=20), runs)
            previews += timed(lambda q=q: svc.preview(q, "emberfall", k=20), runs)
            shown = svc.preview(q, "emberfall", k=20)
            tokens.append(shown.tokens)
            top = [i.handle for i in shown.items[:5]]
            expands += timed(lambda top=top: svc.expand(top, "emberfall", budget=2000), runs)
            contexts += timed(lambda q=q: svc.context(q, "emberfall", budget=6000), runs)
        print(f"emberfall, {len(questions)} questions x {runs} runs, GM view, warm")
        show("ask (k=20)", asks)
        show("preview (k=20, ranking included)", previews)
        show("expand (5 handles, budget 2000)", expands)
        show("context (budget 6000)", contexts)
        print(f"20-item preview tokens: max {max(tokens)}, mean {statistics.mean(tokens):.0f}")


def synthetic(n: int, runs: int) -> None:
    rng = random.Random(7)
    ids = [f"e{i}" for i in range(n)]
    entities = [
        Entity(id=e, name=f"Entity {e}", type="NPC", status="alive",
               description=f"Entity {e} trades salt and rumours on the river road. " * 2)
        for e in ids
    ]  # fmt: skip
    relations = [
        Relation(source=e, target=rng.choice(ids), type=rng.choice(("knows", "member_of")))
        for e in ids
        for _ in range(3)
    ]
    chunks = [
        Chunk(id=f"c{i}", source_path=f"lore/{i % 50}.md", start=0, end=80, content_hash="h",
              text=f"Entity {ids[i % n]} met Entity {ids[(i * 7) % n]} at the ford. " * 3,
              subject=ids[i % n], mentions=(ids[i % n], ids[(i * 7) % n]))
        for i in range(2 * n)
    ]  # fmt: skip
    changes = [
        Change(id=f"s{1 + i % 9}-r1-{i}", session_id=1 + i % 9, seq=i, kind="entity_status",
               entity_id=ids[i * 10], field="status", new_value="dead")
        for i in range(n // 10)
    ]  # fmt: skip
    view = build_view("bench", entities, relations, chunks, changes, as_player=False)

    def ranked() -> list[RankedResult]:
        return [
            RankedResult(id=e, kind="entity", name=e, type="NPC", status="alive",
                         available=True, score=1.0 - i / 100, signals={})
            for i, e in enumerate(rng.sample(ids, 20))
        ]  # fmt: skip

    counter = BpeTokenCounter()
    counter.count("warm the encoder")
    first = timed(lambda: preview_items(view, ranked(), [], counter, 20), 1)[0]
    print(f"first 20 preview items, {n} entities (builds the view's index): {first:.0f} ms")
    samples = [ranked() for _ in range(runs)]
    fresh = [timed(lambda r=r: preview_items(view, r, [], counter, 20), 1)[0] for r in samples]
    show(f"20 new preview items, {n} entities", fresh)
    again = [timed(lambda r=r: preview_items(view, r, [], counter, 20), 1)[0] for r in samples]
    show(f"the same 20 again (costs kept), {n}", again)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--entities", type=int, default=10_000)
    args = parser.parse_args()
    example(args.runs)
    synthetic(args.entities, max(args.runs * 4, 20))


if __name__ == "__main__":
    main()
