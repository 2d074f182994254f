"""The scale-out runner: PageRank, betweenness and Leiden in Neo4j Graph Data Science.

Selected by :func:`runner_for` when the store is Neo4j and GDS answers ``gds.version()`` —
asked lazily, on the first build that re-clusters, never when a command merely opens the
service. The graph is projected from the same sorted edge list the in-process runner uses
(``gds.graph.construct``, under a name unique to the call, dropped afterwards), so results do
not depend on what else lives in the database and concurrent builds do not collide. Outputs
are brought to the in-process scales and shapes, so importance, stable-id matching and
summaries are shared:

- PageRank is divided by its sum (igraph's sums to 1; GDS's does not).
- Betweenness: GDS already halves undirected scores (each pair once, as igraph); a sampled run
  sums over its sources without extrapolating, so it is scaled by n / samples like the
  in-process estimate (GDS picks its sources degree-biased, so this is an approximation), then
  normalised by (n − 1)(n − 2) / 2.
- Leiden runs with ``includeIntermediateCommunities``, ``randomSeed`` from settings and
  ``concurrency: 1`` (GDS is deterministic only single-threaded), seeded from the previous
  level-0 communities only (GDS has no per-level warm start; labels compacted to 0..k−1, as
  GDS rejects negative seeds). Its levels are aggregation levels, finest first;
  :func:`~.gds_shapes.nested_hierarchy` turns them into the in-process shape: coarsest first,
  a community split one level down only when it is larger than ``max_cluster_size`` and a
  finer level really splits it (identical levels collapse), every community cut into its
  connected parts, at most ``max_levels`` levels.

NOT RUN HERE: no Neo4j with the GDS plugin was available where this was written. The selection
logic, the lazy connection and every pure step (frames, result parsing, scaling, hierarchy) are
unit-tested with fake clients and frames; GDS itself never ran.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from graphrag_core.analytics.communities import Previous, RawCommunity
from graphrag_core.analytics.gds_shapes import (
    Columns,
    by_node,
    chains,
    edge_columns,
    nested_hierarchy,
    node_columns,
    scaled_metrics,
)
from graphrag_core.analytics.graph_input import AnalyticsGraph
from graphrag_core.analytics.runners import AnalyticsRunner, InProcessRunner
from graphrag_core.analytics_models import EntityMetrics
from graphrag_core.config import AnalyticsSettings

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

    def __init__(
        self,
        gds: Any,
        settings: AnalyticsSettings,
        frame: Callable[[Columns], Any] | None = None,
    ) -> None:
        self.gds = gds
        self.settings = settings
        self._frame = frame or _pandas_frame

    def _project(self, graph: AnalyticsGraph, previous: Mapping[str, int]) -> Any:
        name = f"loregraph-analytics-{uuid.uuid4().hex[:12]}"
        nodes = self._frame(node_columns(graph, previous))
        rels = self._frame(edge_columns(graph))
        return self.gds.graph.construct(name, nodes, rels, undirected_relationship_types=["*"])

    def metrics(self, graph: AnalyticsGraph) -> dict[str, EntityMetrics]:
        n, settings = len(graph.ids), self.settings
        samples = settings.betweenness_samples if n > settings.betweenness_exact_max_nodes else None
        g = self._project(graph, {})
        try:
            rank = self.gds.pageRank.stream(g, relationshipWeightProperty="weight")
            sample = {"samplingSize": samples, "samplingSeed": settings.seed} if samples else {}
            between = self.gds.betweenness.stream(g, **sample)
        finally:
            g.drop()
        return scaled_metrics(graph, by_node(rank, n), by_node(between, n), samples, settings)

    def communities(self, graph: AnalyticsGraph, previous: Previous) -> list[RawCommunity]:
        seeds = previous.level(0)
        g = self._project(graph, seeds)
        try:
            options: dict[str, Any] = {
                "relationshipWeightProperty": "weight",
                "includeIntermediateCommunities": True,
                "randomSeed": self.settings.seed,
                "concurrency": 1,
                "gamma": self.settings.resolution,
            }
            if seeds:
                options["seedProperty"] = "seed"
            frame = self.gds.leiden.stream(g, **options)
        finally:
            g.drop()
        return nested_hierarchy(graph.weighted_edges(), chains(frame, graph), self.settings)


def _pandas_frame(columns: Columns) -> Any:
    import pandas as pd  # comes with the optional graphdatascience extra

    return pd.DataFrame(columns)


class LazyGdsRunner:
    """GDS when it answers, in process otherwise — decided on first use, not at start-up."""

    def __init__(self, settings: AnalyticsSettings, connect: Callable[[], Any]) -> None:
        self.settings = settings
        self._connect = connect
        self._client: Any = None
        self._runner: AnalyticsRunner | None = None

    def _resolve(self) -> AnalyticsRunner:
        if self._runner is None:
            try:
                self._client = self._connect()
            except Exception:  # no driver, no server, no plugin: run in process
                logger.info("GDS not reachable; analytics run in process", exc_info=True)
            if self._client is not None and gds_available(self._client):
                self._runner = GdsRunner(self._client, self.settings)
            else:
                self._runner = InProcessRunner(self.settings)
        return self._runner

    @property
    def name(self) -> str:
        return self._resolve().name

    def metrics(self, graph: AnalyticsGraph) -> dict[str, EntityMetrics]:
        return self._resolve().metrics(graph)

    def communities(self, graph: AnalyticsGraph, previous: Previous) -> list[RawCommunity]:
        return self._resolve().communities(graph, previous)

    def close(self) -> None:
        close = getattr(self._client, "close", None)
        if callable(close):
            close()


def runner_for(
    store_kind: str, settings: AnalyticsSettings, connect: Callable[[], Any]
) -> AnalyticsRunner:
    """In process unless the store is Neo4j; then GDS if ``connect()`` gives a client whose
    GDS answers, asked on first use (also in process when connecting fails)."""
    if store_kind != "neo4j":
        return InProcessRunner(settings)
    return LazyGdsRunner(settings, connect)
