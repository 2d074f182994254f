"""Who computes centrality and communities: in process (igraph + graspologic-native), or
Neo4j Graph Data Science for stores too large for one process (:mod:`.gds`).

Both return the same shapes, so stable-id matching and summaries do not care which ran.
"""

from __future__ import annotations

from typing import Protocol

from graphrag_core.analytics.centrality import compute_metrics
from graphrag_core.analytics.communities import Previous, RawCommunity, hierarchical_leiden
from graphrag_core.analytics.graph_input import AnalyticsGraph
from graphrag_core.analytics_models import EntityMetrics
from graphrag_core.config import AnalyticsSettings


class AnalyticsRunner(Protocol):
    @property
    def name(self) -> str: ...

    def metrics(self, graph: AnalyticsGraph) -> dict[str, EntityMetrics]: ...

    def communities(self, graph: AnalyticsGraph, previous: Previous) -> list[RawCommunity]: ...


class InProcessRunner:
    """igraph centrality and graspologic-native hierarchical Leiden, in this process."""

    name = "in-process"

    def __init__(self, settings: AnalyticsSettings) -> None:
        self.settings = settings

    def metrics(self, graph: AnalyticsGraph) -> dict[str, EntityMetrics]:
        return compute_metrics(graph, self.settings)

    def communities(self, graph: AnalyticsGraph, previous: Previous) -> list[RawCommunity]:
        return hierarchical_leiden(graph.weighted_edges(), self.settings, previous)
