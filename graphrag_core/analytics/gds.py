"""The scale-out runner: PageRank, betweenness and Leiden in Neo4j Graph Data Science.

Selected by :func:`graphrag_core.analytics.runners.select_runner_kind` when the store is Neo4j
and :func:`gds_available` answers; the outputs have the in-process shapes, so stable-id
matching, importance and summaries are shared. The graph is projected from the same sorted
edge list the in-process runner uses (``gds.graph.construct``), so results do not depend on
what else lives in the database. Leiden runs with ``includeIntermediateCommunities`` (its
levels are GDS's aggregation levels, finest first; they are reversed so level 0 is the
coarsest), ``randomSeed`` from settings and ``concurrency: 1`` (GDS is deterministic only
single-threaded); the previous membership is passed as ``seedProperty`` for a warm start.

NOT RUN HERE: no Neo4j with the GDS plugin was available where this was written. The selection
logic is unit-tested; this module is type-checked only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from graphrag_core.analytics.centrality import composite_importance
from graphrag_core.analytics.communities import RawCommunity
from graphrag_core.analytics.graph_input import AnalyticsGraph
from graphrag_core.analytics.runners import AnalyticsRunner, InProcessRunner, select_runner_kind
from graphrag_core.analytics_models import EntityMetrics
from graphrag_core.settings import AnalyticsSettings

logger = logging.getLogger(__name__)


def gds_available(gds: Any) -> bool:
    """Whether the client answers ``gds.version()`` (the plugin is installed)."""
    try:
        return bool(gds.version())
    except Exception:  # any failure means "not available": fall back to in-process
        return False


class GdsRunner:
    """Runs the algorithms in GDS through a ``graphdatascience.GraphDataScience`` client."""

    name = "gds"

    def __init__(self, gds: Any, settings: AnalyticsSettings) -> None:
        self.gds = gds
        self.settings = settings

    def _project(self, graph: AnalyticsGraph, previous: Mapping[str, int]) -> Any:
        import pandas as pd

        seeds = [previous.get(eid, -1) for eid in graph.ids]
        nodes = pd.DataFrame({"nodeId": range(len(graph.ids)), "seed": seeds})
        edges = graph.graph.get_edgelist()
        weights = graph.graph.es["weight"] if edges else []
        rels = pd.DataFrame(
            {
                "sourceNodeId": [a for a, _ in edges],
                "targetNodeId": [b for _, b in edges],
                "weight": weights,
            }
        )
        return self.gds.graph.construct(
            "loregraph-analytics", nodes, rels, undirected_relationship_types=["*"]
        )

    def metrics(self, graph: AnalyticsGraph) -> dict[str, EntityMetrics]:
        g = self._project(graph, {})
        try:
            n = len(graph.ids)
            rank = self.gds.pageRank.stream(g, relationshipWeightProperty="weight")
            sample = {}
            if n > self.settings.betweenness_exact_max_nodes:
                sample = {"samplingSize": self.settings.betweenness_samples}
                sample["samplingSeed"] = self.settings.seed
            between = self.gds.betweenness.stream(g, **sample)
            pagerank = _by_node(rank, n)
            raw = _by_node(between, n)
        finally:
            g.drop()
        scale = max((n - 1) * (n - 2) / 2.0, 1.0)
        betweenness = [v / scale for v in raw]
        degree = graph.graph.degree()
        weights = self.settings
        composite = composite_importance(
            [
                (degree, weights.degree_weight),
                (betweenness, weights.betweenness_weight),
                (pagerank, weights.pagerank_weight),
            ]
        )
        return {
            eid: EntityMetrics(
                entity_id=eid,
                degree=int(degree[i]),
                betweenness=round(betweenness[i], 9),
                pagerank=round(pagerank[i], 9),
                importance=round(composite[i], 6),
            )
            for i, eid in enumerate(graph.ids)
        }

    def communities(self, graph: AnalyticsGraph, previous: Mapping[str, int]) -> list[RawCommunity]:
        g = self._project(graph, previous)
        try:
            options: dict[str, Any] = {
                "relationshipWeightProperty": "weight",
                "includeIntermediateCommunities": True,
                "randomSeed": self.settings.seed,
                "concurrency": 1,
                "gamma": self.settings.resolution,
                "maxLevels": self.settings.max_levels,
            }
            if previous:
                options["seedProperty"] = "seed"
            frame = self.gds.leiden.stream(g, **options)
        finally:
            g.drop()
        return _hierarchy(graph, frame)


def _by_node(frame: Any, n: int) -> list[float]:
    values = [0.0] * n
    for node, score in zip(frame["nodeId"], frame["score"], strict=True):
        values[int(node)] = float(score)
    return values


def _hierarchy(graph: AnalyticsGraph, frame: Any) -> list[RawCommunity]:
    """GDS rows (nodeId, intermediateCommunityIds finest→coarsest) as coarsest-first levels."""
    grouped: dict[tuple[int, int], tuple[int | None, list[str]]] = {}
    for node, chain in zip(frame["nodeId"], frame["intermediateCommunityIds"], strict=True):
        if graph.graph.degree(int(node)) == 0:
            continue
        levels = list(reversed([int(c) for c in chain]))
        for level, label in enumerate(levels):
            parent = levels[level - 1] if level else None
            grouped.setdefault((level, label), (parent, []))[1].append(graph.ids[int(node)])
    return [
        RawCommunity(level, label, parent, tuple(sorted(members)))
        for (level, label), (parent, members) in sorted(grouped.items())
    ]


def runner_for(
    store_kind: str, settings: AnalyticsSettings, connect: Callable[[], Any]
) -> AnalyticsRunner:
    """The runner for this store: GDS when it is Neo4j and ``connect()`` gives a client whose
    GDS answers; in process otherwise (also when connecting fails)."""
    if store_kind != "neo4j":
        return InProcessRunner(settings)
    try:
        gds = connect()
    except Exception:  # no driver, no server, no plugin: run in process
        logger.info("GDS not reachable; analytics run in process", exc_info=True)
        return InProcessRunner(settings)
    if select_runner_kind(store_kind, gds_available(gds)) == "gds":
        return GdsRunner(gds, settings)
    return InProcessRunner(settings)
