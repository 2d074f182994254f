"""The GDS runner's pure steps and its whole flow against a fake GDS client (frames as plain
column dicts, as ``graphdatascience`` returns pandas frames). GDS itself is not run here."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from graphrag_core.analytics.centrality import compute_metrics
from graphrag_core.analytics.communities import Previous, connected_parts, hierarchical_leiden
from graphrag_core.analytics.gds import GdsRunner
from graphrag_core.analytics.gds_shapes import (
    betweenness_scaled,
    by_node,
    chains,
    edge_columns,
    nested_hierarchy,
    node_columns,
    pagerank_scaled,
)
from graphrag_core.analytics.graph_input import AnalyticsGraph, from_pairs
from graphrag_core.config import AnalyticsSettings

SETTINGS = AnalyticsSettings(max_cluster_size=3)
PAIRS = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "f"), ("f", "d")]


def _graph(pairs: Sequence[tuple[str, str]] = PAIRS, extra: Sequence[str] = ()) -> AnalyticsGraph:
    return from_pairs({n for p in pairs for n in p} | set(extra), pairs)


def test_node_columns_seed_every_vertex_non_negative_and_compact() -> None:
    graph = _graph(extra=["z"])
    columns = node_columns(graph, {"a": 12, "b": 12, "d": 40})
    assert columns["nodeId"] == list(range(7))
    seeds = dict(zip(graph.ids, columns["seed"], strict=True))
    assert seeds["a"] == seeds["b"] == 0 and seeds["d"] == 2
    assert len({seeds["c"], seeds["e"], seeds["f"], seeds["z"], 0, 2}) == 6  # fresh, unique
    assert min(columns["seed"]) >= 0 and max(columns["seed"]) < len(graph.ids)


def test_edge_columns_are_the_sorted_weighted_edge_list() -> None:
    graph = from_pairs(["a", "b", "c"], [("b", "a"), ("a", "b"), ("b", "c")])
    assert edge_columns(graph) == {
        "sourceNodeId": [0, 1],
        "targetNodeId": [1, 2],
        "weight": [2.0, 1.0],
    }


def test_by_node_places_scores_by_node_id() -> None:
    assert by_node({"nodeId": [2, 0], "score": [0.5, 1.5]}, 3) == [1.5, 0.0, 0.5]


def test_pagerank_and_betweenness_reach_the_in_process_scale() -> None:
    graph = _graph()
    local = compute_metrics(graph, AnalyticsSettings())
    raw_rank = [3.0 * local[e].pagerank for e in graph.ids]  # GDS: same shape, other sum
    assert pagerank_scaled(raw_rank) == pytest.approx([local[e].pagerank for e in graph.ids])
    exact = graph.graph.betweenness(directed=False)  # GDS halves undirected scores: the same
    assert betweenness_scaled(exact, None) == pytest.approx(
        [local[e].betweenness for e in graph.ids], abs=1e-9
    )
    sampled = betweenness_scaled([2.0, 4.0, 0.0, 0.0], samples=2)  # summed over 2 of 4 sources
    assert sampled == pytest.approx([2.0 * 2 / 3, 4.0 * 2 / 3, 0.0, 0.0])


def test_chains_reverse_to_coarsest_first_and_skip_isolated() -> None:
    graph = _graph(extra=["z"])
    frame = {
        "nodeId": list(range(7)),
        "intermediateCommunityIds": [[5, 1]] * 3 + [[6, 2]] * 3 + [[9, 9]],
    }
    found = chains(frame, graph)
    assert found["a"] == [1, 5] and found["f"] == [2, 6] and "z" not in found


def test_nested_hierarchy_collapses_identical_levels_and_splits_only_large_ones() -> None:
    edges = _graph().weighted_edges()
    # two identical coarse levels, then a split of {a,b,c,d,e,f} into {a,b,c} and {d,e,f}
    levels = {n: [0, 0, 1 if n in "abc" else 2] for n in "abcdef"}
    raw = nested_hierarchy(edges, levels, AnalyticsSettings(max_cluster_size=3))
    assert [(c.level, c.members) for c in raw] == [
        (0, ("a", "b", "c", "d", "e", "f")),
        (1, ("a", "b", "c")),
        (1, ("d", "e", "f")),
    ]
    assert raw[1].parent_label == raw[0].label
    # a level-0 community no larger than max_cluster_size is final: its finer levels are dropped
    small = nested_hierarchy(edges, levels, AnalyticsSettings(max_cluster_size=6))
    assert [c.level for c in small] == [0]


def test_nested_hierarchy_cuts_disconnected_groups() -> None:
    edges = _graph([("a", "b"), ("c", "d")]).weighted_edges()
    raw = nested_hierarchy(edges, {n: [0] for n in "abcd"}, SETTINGS)
    assert [c.members for c in raw] == [("a", "b"), ("c", "d")]


class _Projected:
    def __init__(self) -> None:
        self.dropped = False

    def drop(self) -> None:
        self.dropped = True


class _Algo:
    def __init__(self, frame: Mapping[str, list[Any]], log: list[tuple[str, dict[str, Any]]]):
        self._frame, self._log = frame, log

    def stream(self, graph: _Projected, **options: Any) -> Mapping[str, list[Any]]:
        self._log.append(("stream", options))
        return self._frame


class _Catalog:
    def __init__(self, log: list[tuple[str, dict[str, Any]]]) -> None:
        self._log = log
        self.names: list[str] = []
        self.projected: list[_Projected] = []

    def construct(self, name: str, nodes: Any, rels: Any, **options: Any) -> _Projected:
        self.names.append(name)
        self._log.append(("construct", {"nodes": nodes, "rels": rels, **options}))
        self.projected.append(_Projected())
        return self.projected[-1]


class FakeGds:
    """Answers like GDS would for ``graph``: PageRank and betweenness from igraph (GDS scales),
    Leiden as two aggregation levels."""

    def __init__(self, graph: AnalyticsGraph, levels: Mapping[str, list[int]]) -> None:
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.graph = _Catalog(self.log)
        n = len(graph.ids)
        rank = graph.graph.pagerank(directed=False, weights="weight")
        nodes = list(range(n))
        self.pageRank = _Algo({"nodeId": nodes, "score": [7 * r for r in rank]}, self.log)
        between = graph.graph.betweenness(directed=False)
        self.betweenness = _Algo({"nodeId": nodes, "score": between}, self.log)
        chain = [list(reversed(levels[e])) if e in levels else [99] for e in graph.ids]
        self.leiden = _Algo({"nodeId": nodes, "intermediateCommunityIds": chain}, self.log)


def _clusters(groups: int, size: int) -> list[tuple[str, str]]:
    rng = random.Random(5)
    pairs = []
    for g in range(groups):
        nodes = [f"g{g}-{i}" for i in range(size)]
        pairs += [(a, b) for a in nodes for b in nodes if a < b and rng.random() < 0.7]
        pairs.append((nodes[0], f"g{(g + 1) % groups}-0"))
    return pairs


def test_gds_runner_gives_the_in_process_shapes() -> None:
    pairs = _clusters(4, 6)
    graph = _graph(pairs)
    settings = AnalyticsSettings(max_cluster_size=4)
    local = hierarchical_leiden(graph.weighted_edges(), settings)
    levels = {m: [c.label for c in local if m in c.members] for m in graph.ids}
    gds = FakeGds(graph, {m: ls + ls[-1:] for m, ls in levels.items()})  # a duplicate level
    runner = GdsRunner(gds, settings, frame=dict)
    metrics = runner.metrics(graph)
    expected = compute_metrics(graph, settings)
    for eid in graph.ids:
        assert metrics[eid].pagerank == pytest.approx(expected[eid].pagerank, abs=1e-6)
        assert metrics[eid].importance == pytest.approx(expected[eid].importance, abs=1e-6)
    raw = runner.communities(graph, Previous(levels=({"g0-0": 3},)))
    assert [(c.level, c.members) for c in raw] == [(c.level, c.members) for c in local]
    for c in raw:
        assert connected_parts(graph.weighted_edges(), [c.members]) == [c.members]
    leiden = next(o for kind, o in gds.log if kind == "stream" and "randomSeed" in o)
    assert leiden["seedProperty"] == "seed" and leiden["concurrency"] == 1
    assert all(p.dropped for p in gds.graph.projected)
    assert len(set(gds.graph.names)) == len(gds.graph.names) == 2  # a fresh name per projection
