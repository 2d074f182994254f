"""Centrality + hierarchical Leiden: graspologic-native against leidenalg, and the full build.

Run (each case in a fresh child process, so its peak RSS is its own)::

    SRD=/tmp/srd/x/dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3
    python benchmarks/bench_analytics.py --srd $SRD

Graphs: the example campaign (offline extraction of examples/emberfall/world), the SRD
(records + cross-references, :mod:`benchmarks.srd_graph`), synthetic graphs of 10k and 100k
nodes with ~5 edges per node (groups of 40: four edges inside the group, one anywhere; seeded).
Per case: seconds of centrality (degree, PageRank, betweenness — sampled above the settings'
threshold) and of hierarchical Leiden, level-0 modularity, levels and communities, whether two
runs gave identical results, and the child's peak RSS (``resource.getrusage``).
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

from graphrag_core.analytics.centrality import compute_metrics  # noqa: E402
from graphrag_core.analytics.communities import RawCommunity, hierarchical_leiden  # noqa: E402
from graphrag_core.analytics.graph_input import AnalyticsGraph, build_graph, from_pairs  # noqa: E402
from graphrag_core.settings import AnalyticsSettings  # noqa: E402

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
    from graphrag_core.ingesting import read_sources, run_extraction
    from graphrag_core.settings import IngestSettings

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
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "top_importance": max((m.importance for m in metrics.values()), default=0.0),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--srd", help="path to the SRD .sqlite3 (skipped when absent)")
    parser.add_argument("--graphs", default="example,srd,10k,100k")
    parser.add_argument("--algos", default="graspologic-native,leidenalg")
    parser.add_argument("--case", nargs=2, metavar=("GRAPH", "ALGO"))
    args = parser.parse_args()
    if args.case:
        print(json.dumps(case(args.case[0], args.case[1], args.srd)))
        return
    for name in args.graphs.split(","):
        if name == "srd" and not args.srd:
            continue
        for algo in args.algos.split(","):
            cmd = [sys.executable, __file__, "--case", name, algo]
            cmd += ["--srd", args.srd] if args.srd else []
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            print(done.stdout.strip() or done.stderr.strip()[-500:], flush=True)


if __name__ == "__main__":
    main()
