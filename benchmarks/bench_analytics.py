"""Centrality + hierarchical Leiden: graspologic-native against leidenalg; rebuild stability.

Run (each case in a fresh child process, so its peak RSS is its own)::

    SRD=/tmp/srd/dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3
    python benchmarks/bench_analytics.py --srd $SRD
    python benchmarks/bench_analytics.py --srd $SRD --stability example,srd,10k

Graphs: the example campaign (offline extraction of examples/emberfall/world), the SRD
(records + cross-references, :mod:`benchmarks.srd_graph`), synthetic graphs of 10k and 100k
nodes with ~5 edges per node (groups of 40: four edges inside the group, one anywhere; seeded).
Per case: seconds of centrality (degree, PageRank, betweenness — sampled above the settings'
threshold) and of hierarchical Leiden, level-0 modularity, levels and communities, whether two
runs in the process gave identical results, a hash of the communities (the case runs in two
child processes with different ``PYTHONHASHSEED``; the hashes must agree), and the child's
peak RSS (``resource.getrusage``).

``--stability``: for each graph, the communities after an unchanged rebuild and after one
relation added or removed (``--trials`` random ones each), compared with the first build's —
share of communities identical (same level and members) and of ids kept by the stable-id
matching — for three ways of re-clustering: *warm* (this code: level 0 warm-started from the
previous build and polished to a fixed point, sub-levels split per community), *cold* (the
same code with no warm start) and *previous* (graspologic-native's own ``hierarchical_leiden``
warm-started at level 0, the code before this change).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graphrag_core.analytics.centrality import compute_metrics  # noqa: E402
from graphrag_core.analytics.communities import (  # noqa: E402
    Previous,
    RawCommunity,
    hierarchical_leiden,
    warm_start,
)
from graphrag_core.analytics.graph_input import AnalyticsGraph, build_graph, from_pairs  # noqa: E402
from graphrag_core.analytics.stable_ids import assign_ids  # noqa: E402
from graphrag_core.config import AnalyticsSettings  # noqa: E402

GROUP = 40


def synthetic(n: int, seed: int = 7) -> AnalyticsGraph:
    rng = random.Random(seed)
    pairs = []
    for i in range(n):
        base = i - i % GROUP
        pairs += [(i, base + rng.randrange(GROUP)) for _ in range(4)]
        pairs.append((i, rng.randrange(n)))
    return from_pairs(
        (f"n{i:06d}" for i in range(n)), ((f"n{a:06d}", f"n{b:06d}") for a, b in pairs)
    )


def example() -> AnalyticsGraph:
    from graphrag_core.config import IngestSettings
    from graphrag_core.services.ingest import read_sources, run_extraction

    scan = read_sources(ROOT / "examples" / "emberfall" / "world")
    ext = run_extraction(scan, IngestSettings())
    return build_graph(ext.entities, ext.relations)


def srd(path: str) -> AnalyticsGraph:
    from benchmarks.srd_graph import load_srd

    entities, relations = load_srd(Path(path))
    return build_graph(entities, relations)


def leidenalg_hierarchical(graph: AnalyticsGraph, s: AnalyticsSettings) -> list[RawCommunity]:
    """The same hierarchy on leidenalg: split communities above max_cluster_size, recursively."""
    import leidenalg

    out: list[RawCommunity] = []
    label = 0

    def run(g: Any, names: list[str], level: int, parent: int | None) -> None:
        nonlocal label
        part = leidenalg.find_partition(
            g, leidenalg.ModularityVertexPartition, weights="weight", seed=s.seed
        )
        for members in part:
            mine = sorted(names[v] for v in members)
            out.append(RawCommunity(level, label, parent, tuple(mine)))
            label += 1
            if len(mine) > s.max_cluster_size and level + 1 < s.max_levels and len(part) > 1:
                run(g.subgraph(members), [names[v] for v in members], level + 1, label - 1)

    g = graph.graph.copy()
    g.delete_vertices([v.index for v in g.vs if g.degree(v) == 0])
    names = [graph.ids[i] for i in range(len(graph.ids)) if graph.graph.degree(i) > 0]
    run(g, names, 0, None)
    return out


def modularity(graph: AnalyticsGraph, raw: list[RawCommunity]) -> float:
    index = {eid: i for i, eid in enumerate(graph.ids)}
    membership = list(range(len(graph.ids), 2 * len(graph.ids)))  # isolated: own community
    for c in raw:
        if c.level == 0:
            for m in c.members:
                membership[index[m]] = c.label
    return float(graph.graph.modularity(membership, weights="weight"))


def case(name: str, algo: str, srd_path: str | None) -> dict[str, Any]:
    settings = AnalyticsSettings()
    t0 = time.perf_counter()
    loaders = {
        "example": example,
        "srd": lambda: srd(srd_path or ""),
        "10k": lambda: synthetic(10_000),
        "100k": lambda: synthetic(100_000),
    }
    graph = loaders[name]()
    t1 = time.perf_counter()
    metrics = compute_metrics(graph, settings)
    t2 = time.perf_counter()
    leiden = (
        (lambda: hierarchical_leiden(graph.weighted_edges(), settings))
        if algo == "graspologic-native"
        else (lambda: leidenalg_hierarchical(graph, settings))
    )
    raw = leiden()
    t3 = time.perf_counter()
    again = leiden()
    return {
        "graph": name,
        "algorithm": algo,
        "nodes": graph.graph.vcount(),
        "edges": graph.graph.ecount(),
        "load_s": round(t1 - t0, 2),
        "centrality_s": round(t2 - t1, 2),
        "leiden_s": round(t3 - t2, 2),
        "total_s": round(t3 - t1, 2),
        "modularity": round(modularity(graph, raw), 4),
        "levels": len({c.level for c in raw}),
        "communities": len(raw),
        "deterministic": raw == again,
        "hash": hashlib.sha256(repr([(c.level, c.members) for c in raw]).encode()).hexdigest()[:16],
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "top_importance": max((m.importance for m in metrics.values()), default=0.0),
    }


def previous_code(
    edges: list[tuple[str, str, float]], s: AnalyticsSettings, previous: Previous | None
) -> list[RawCommunity]:
    """The hierarchy as built before this change: graspologic-native's own
    ``hierarchical_leiden``, warm-started at level 0 only."""
    import graspologic_native as gn

    clusters = gn.hierarchical_leiden(
        sorted(edges),
        starting_communities=warm_start(edges, previous.level(0) if previous else {}),
        resolution=s.resolution,
        max_cluster_size=s.max_cluster_size,
        seed=s.seed,
        use_modularity=True,
    )
    grouped: dict[tuple[int, int], tuple[int | None, list[str]]] = {}
    for c in clusters:
        if c.level < s.max_levels:
            grouped.setdefault((c.level, c.cluster), (c.parent_cluster, []))[1].append(c.node)
    return [RawCommunity(lv, lb, p, tuple(sorted(m))) for (lv, lb), (p, m) in grouped.items()]


def _compare(
    base: list[RawCommunity], new: list[RawCommunity], s: AnalyticsSettings
) -> tuple[float, float]:
    """Share of ``base``'s communities found identical in ``new``, and of ids kept."""
    old, counters = assign_ids(base, [], {}, s)
    kept, _ = assign_ids(new, old, counters, s)
    same = {(c.level, c.members) for c in base} & {(c.level, c.members) for c in new}
    ids = {c.id for c in old} & {c.id for c in kept}
    return 100 * len(same) / len(base), 100 * len(ids) / len(old)


def stability(name: str, srd_path: str | None, trials: int) -> dict[str, Any]:
    s = AnalyticsSettings()
    loaders = {
        "example": example,
        "srd": lambda: srd(srd_path or ""),
        "10k": lambda: synthetic(10_000),
    }
    graph = loaders[name]()
    edges = graph.weighted_edges()
    rng = random.Random(3)
    existing = {(a, b) for a, b, _ in edges}
    edits: list[tuple[str, list[tuple[str, str, float]]]] = [("unchanged", edges)]
    for _ in range(trials):
        while (pair := tuple(sorted(rng.sample(graph.ids, 2)))) in existing:
            pass
        edits.append(("+1", [*edges, (pair[0], pair[1], 1.0)]))
        gone = rng.randrange(len(edges))
        edits.append(("-1", edges[:gone] + edges[gone + 1 :]))
    out: dict[str, Any] = {"graph": name}
    ways = {
        "warm": lambda e, prev: hierarchical_leiden(e, s, prev),
        "cold": lambda e, prev: hierarchical_leiden(e, s, None),
        "previous": lambda e, prev: previous_code(e, s, prev),
    }
    for way, run in ways.items():
        base = run(edges, None)
        prev = Previous.of_raw(base)
        for kind in ("unchanged", "+1", "-1"):
            found = [_compare(base, run(e, prev), s) for k, e in edits if k == kind]
            out[f"{way} {kind}"] = (
                f"identical {min(f[0] for f in found):.1f}-{max(f[0] for f in found):.1f} %, "
                f"ids kept {min(f[1] for f in found):.1f}-{max(f[1] for f in found):.1f} %"
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--srd", help="path to the SRD .sqlite3 (skipped when absent)")
    parser.add_argument("--graphs", default="example,srd,10k,100k")
    parser.add_argument("--algos", default="graspologic-native,leidenalg")
    parser.add_argument("--case", nargs=2, metavar=("GRAPH", "ALGO"))
    parser.add_argument("--stability", help="graphs to measure rebuild stability on")
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(case(args.case[0], args.case[1], args.srd)))
        return
    if args.stability:
        for name in args.stability.split(","):
            print(json.dumps(stability(name, args.srd, args.trials)), flush=True)
        return
    for name in args.graphs.split(","):
        if name == "srd" and not args.srd:
            continue
        for algo in args.algos.split(","):
            cmd = [sys.executable, __file__, "--case", name, algo]
            cmd += ["--srd", args.srd] if args.srd else []
            hashes = []
            for hash_seed in ("1", "2"):
                env = {**os.environ, "PYTHONHASHSEED": hash_seed}
                done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
                print(done.stdout.strip() or done.stderr.strip()[-500:], flush=True)
                hashes.append(done.stdout.strip() and json.loads(done.stdout)["hash"])
            print(json.dumps({"cross_process_identical": hashes[0] == hashes[1]}), flush=True)


if __name__ == "__main__":
    main()
