"""GDS's inputs and outputs in the in-process shapes (pure; see :mod:`.gds` for why each
conversion is what it is): the projection's node and edge columns, stream frames by node,
PageRank and betweenness on the in-process scales, and GDS's aggregation levels as the
size-driven hierarchy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphrag_core.analytics.centrality import composite_importance
from graphrag_core.analytics.communities import (
    Edge,
    Members,
    RawCommunity,
    compact_labels,
    connected_parts,
    emit_hierarchy,
)
from graphrag_core.analytics.graph_input import AnalyticsGraph
from graphrag_core.analytics_models import EntityMetrics
from graphrag_core.config import AnalyticsSettings

Columns = dict[str, list[Any]]


def node_columns(graph: AnalyticsGraph, previous: Mapping[str, int]) -> Columns:
    """``nodeId`` and a non-negative ``seed`` per vertex: the compacted previous community,
    or a fresh label of its own."""
    seeds = compact_labels(graph.ids, previous)
    return {"nodeId": list(range(len(graph.ids))), "seed": [seeds[e] for e in graph.ids]}


def edge_columns(graph: AnalyticsGraph) -> Columns:
    edges = graph.graph.get_edgelist()
    return {
        "sourceNodeId": [a for a, _ in edges],
        "targetNodeId": [b for _, b in edges],
        "weight": list(graph.graph.es["weight"]) if edges else [],
    }


def by_node(frame: Mapping[str, Sequence[Any]], n: int) -> list[float]:
    """A GDS stream frame (``nodeId``, ``score``) as one value per vertex."""
    values = [0.0] * n
    for node, score in zip(frame["nodeId"], frame["score"], strict=True):
        values[int(node)] = float(score)
    return values


def pagerank_scaled(values: Sequence[float]) -> list[float]:
    total = sum(values)
    return [v / total for v in values] if total > 0 else list(values)


def betweenness_scaled(values: Sequence[float], samples: int | None) -> list[float]:
    """GDS betweenness on the in-process scale (see the module docstring)."""
    n = len(values)
    factor = n / samples if samples and samples < n else 1.0
    scale = max((n - 1) * (n - 2) / 2.0, 1.0)
    return [v * factor / scale for v in values]


def chains(frame: Mapping[str, Sequence[Any]], graph: AnalyticsGraph) -> dict[str, list[int]]:
    """Entity id -> its community per GDS level, coarsest first (isolated vertices left out)."""
    found = {}
    for node, chain in zip(frame["nodeId"], frame["intermediateCommunityIds"], strict=True):
        if graph.graph.degree(int(node)) > 0:
            found[graph.ids[int(node)]] = list(reversed([int(c) for c in chain]))
    return found


def nested_hierarchy(
    edges: Sequence[Edge], levels: Mapping[str, Sequence[int]], settings: AnalyticsSettings
) -> list[RawCommunity]:
    """Nested partitions (per node, coarsest first) as the in-process hierarchy: a community
    cut from GDS level ``d`` splits by the first finer level that cuts it in several parts."""
    deepest = max((len(chain) for chain in levels.values()), default=1)
    depth: dict[Members, int] = {}  # the GDS level a community was cut from (0 when absent)

    def split(inside: Sequence[Edge], members: Members, level: int) -> list[Members]:
        for finer in range(depth.get(members, 0) + 1, deepest):
            parts = connected_parts(inside, _groups(members, levels, finer))
            if len(parts) > 1:
                depth.update(dict.fromkeys(parts, finer))
                return parts
        return []

    top = connected_parts(edges, _groups(sorted(levels), levels, 0))
    return emit_hierarchy(sorted(edges), top, settings, split)


def _groups(
    members: Sequence[str], levels: Mapping[str, Sequence[int]], depth: int
) -> list[tuple[str, ...]]:
    grouped: dict[int, list[str]] = {}
    for m in members:
        chain = levels[m]
        grouped.setdefault(chain[min(depth, len(chain) - 1)], []).append(m)
    return sorted(tuple(sorted(g)) for g in grouped.values())


def scaled_metrics(
    graph: AnalyticsGraph,
    pagerank: Sequence[float],
    betweenness: Sequence[float],
    samples: int | None,
    settings: AnalyticsSettings,
) -> dict[str, EntityMetrics]:
    """GDS PageRank and betweenness on the in-process scales, with degree and importance."""
    rank = pagerank_scaled(pagerank)
    between = betweenness_scaled(betweenness, samples)
    degree = graph.graph.degree()
    composite = composite_importance(
        [
            (degree, settings.degree_weight),
            (between, settings.betweenness_weight),
            (rank, settings.pagerank_weight),
        ]
    )
    return {
        eid: EntityMetrics(
            entity_id=eid,
            degree=int(degree[i]),
            betweenness=round(between[i], 9),
            pagerank=round(rank[i], 9),
            importance=round(composite[i], 6),
        )
        for i, eid in enumerate(graph.ids)
    }
