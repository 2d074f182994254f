"""The whole analytics build (``build_snapshot``: both audiences' centrality, hierarchical
Leiden, stable ids and extractive summaries) on synthetic campaigns, with peak RSS, then the
summary embedding with the real model.

Run (each size in a fresh child process, so its peak RSS is its own)::

    python benchmarks/bench_build.py                       # 10k and 100k nodes
    python benchmarks/bench_build.py --sizes 10000 --embed-sample 0   # all summaries embedded

A campaign of ``n`` NPCs with two-sentence descriptions, ~5 relations per node (4 inside a
group of 40, 1 anywhere; seeded, as in bench_analytics.py), a tenth of them GM-only. Per size:
the views (GM and party) are built first; then the first build, an unchanged rebuild and a
rebuild with one relation added are timed; peak RSS is read after the builds
(``resource.getrusage``). The summaries of the first build are then embedded with
all-MiniLM-L6-v2 on the CPU, in the service's batches: all of them, or ``--embed-sample`` of
them (spread evenly) when that is smaller, extrapolated to all.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graphrag_core.analytics.build import build_snapshot  # noqa: E402
from graphrag_core.analytics.runners import InProcessRunner  # noqa: E402
from graphrag_core.config import AnalyticsSettings  # noqa: E402
from graphrag_core.models import Entity, Relation  # noqa: E402
from graphrag_core.services.views import build_view  # noqa: E402

GROUP = 40
ROLES = ["smith", "priest", "guard captain", "merchant", "scout", "scholar", "innkeeper", "thief"]
PLACES = ["Millbrook", "Harrowgate", "Kestrel Ford", "the Cinderwood", "Ashfall", "the Silt"]
TRAITS = [
    "Keeps a ledger of every debt owed in the valley",
    "Has not slept a full night since the fire",
    "Trades rumours for silver and silver for favours",
    "Owes the old baron a debt that cannot be paid in coin",
]


def campaign(n: int, seed: int = 7) -> tuple[list[Entity], list[Relation]]:
    rng = random.Random(seed)
    ids = [f"npc-{i:06d}" for i in range(n)]
    entities = [
        Entity(
            id=eid,
            name=f"Npc {i}",
            type="NPC",
            status="alive",
            visibility="gm" if i % 10 == 9 else "party",
            description=f"Npc {i} is a {rng.choice(ROLES)} from {rng.choice(PLACES)}. "
            f"{rng.choice(TRAITS)}.",
        )
        for i, eid in enumerate(ids)
    ]
    pairs = set()
    for i in range(n):
        base = i - i % GROUP
        pairs |= {(i, base + rng.randrange(GROUP)) for _ in range(4)}
        pairs.add((i, rng.randrange(n)))
    relations = [
        Relation(
            source=ids[a],
            target=ids[b],
            type="knows",
            visibility="gm" if (a + b) % 10 == 0 else "party",
        )
        for a, b in sorted(pairs)
        if a != b
    ]
    return entities, relations


def _rss() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def case(n: int, embed_sample: int) -> dict[str, Any]:
    settings = AnalyticsSettings()
    runner = InProcessRunner(settings)
    entities, relations = campaign(n)
    t0 = time.perf_counter()
    gm = build_view("bench", entities, relations, [], [], as_player=False)
    party = build_view("bench", entities, relations, [], [], as_player=True)
    t1 = time.perf_counter()
    first = build_snapshot(gm, party, None, settings, runner=runner, built_at="")
    t2 = time.perf_counter()
    again = build_snapshot(gm, party, first.snapshot, settings, runner=runner, built_at="")
    t3 = time.perf_counter()
    extra = Relation(source=entities[3].id, target=entities[n // 2].id, type="allied_with")
    gm2 = build_view("bench", entities, [*relations, extra], [], [], as_player=False)
    party2 = build_view("bench", entities, [*relations, extra], [], [], as_player=True)
    t4 = time.perf_counter()
    changed = build_snapshot(gm2, party2, first.snapshot, settings, runner=runner, built_at="")
    t5 = time.perf_counter()
    snap = first.snapshot
    result = {
        "nodes": n,
        "relations": len(relations),
        "views_s": round(t1 - t0, 2),
        "build_s": round(t2 - t1, 2),
        "gm_communities": len(snap.gm.communities),
        "party_communities": len(snap.party.communities),
        "summaries": len(snap.summaries),
        "unchanged_rebuild_s": round(t3 - t2, 2),
        "unchanged_resummarised": again.resummarised,
        "unchanged_identical": again.snapshot == snap,
        "one_relation_rebuild_s": round(t5 - t4, 2),
        "one_relation_resummarised": changed.resummarised,
        "one_relation_ids_kept": changed.reused_ids,
        "peak_rss_build_mib": _rss(),
    }
    result.update(embed(snap.summaries, embed_sample))
    return result


def embed(summaries: Any, sample: int) -> dict[str, Any]:
    from graphrag_core.providers.sentence_transformers import SentenceTransformerEmbedder

    texts = [f"{s.title}\n{s.summary}" for s in summaries]
    chosen = (
        texts if not sample or sample >= len(texts) else texts[:: len(texts) // sample][:sample]
    )
    embedder = SentenceTransformerEmbedder(batch_size=64)
    embedder.embed(chosen[:8])  # load the model before timing
    t0 = time.perf_counter()
    for i in range(0, len(chosen), 256):
        embedder.embed(chosen[i : i + 256])
    seconds = time.perf_counter() - t0
    return {
        "embedded": len(chosen),
        "mean_chars": round(sum(map(len, chosen)) / max(len(chosen), 1)),
        "embed_s": round(seconds, 1),
        "embed_all_s_estimate": round(seconds * len(texts) / max(len(chosen), 1), 1),
        "peak_rss_with_model_mib": _rss(),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--embed-sample", type=int, default=3000, help="0: embed every summary")
    parser.add_argument("--case", type=int)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(case(args.case, args.embed_sample)))
        return
    for n in args.sizes.split(","):
        cmd = [sys.executable, __file__, "--case", n, "--embed-sample", str(args.embed_sample)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        print(done.stdout.strip() or done.stderr.strip()[-800:], flush=True)


if __name__ == "__main__":
    main()
