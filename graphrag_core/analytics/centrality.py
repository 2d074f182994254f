"""Degree, betweenness (sampled above a size threshold), PageRank and composite importance.

``importance = 1 + 9 * Σ wᵢ · xᵢ / max(xᵢ) / Σ wᵢ`` over the three metrics, so it reads on the
1–10 scale the changelog impact expects (1: isolated, 10: the most central on every metric).
"""

from __future__ import annotations

import random

from graphrag_core.analytics.graph_input import AnalyticsGraph
from graphrag_core.analytics_models import EntityMetrics
from graphrag_core.config import AnalyticsSettings


def betweenness(graph: AnalyticsGraph, settings: AnalyticsSettings) -> list[float]:
    """Normalised betweenness; from a seeded sample of sources on large graphs (Brandes'
    estimator: the sampled sum scaled by n / samples)."""
    g, n = graph.graph, graph.graph.vcount()
    if n < 3:
        return [0.0] * n
    if n <= settings.betweenness_exact_max_nodes:
        raw = g.betweenness(directed=False)
    else:
        k = min(settings.betweenness_samples, n)
        sources = sorted(random.Random(settings.seed).sample(range(n), k))  # noqa: S311
        partial = g.betweenness(directed=False, sources=sources)
        raw = [value * n / k for value in partial]
    scale = (n - 1) * (n - 2) / 2.0
    return [float(v) / scale for v in raw]


def compute_metrics(graph: AnalyticsGraph, settings: AnalyticsSettings) -> dict[str, EntityMetrics]:
    """Every entity's metrics, keyed by entity id."""
    g = graph.graph
    degree = g.degree()
    between = betweenness(graph, settings)
    pagerank = g.pagerank(directed=False, weights="weight") if g.vcount() else []
    composite = composite_importance(
        [
            (degree, settings.degree_weight),
            (between, settings.betweenness_weight),
            (pagerank, settings.pagerank_weight),
        ]
    )
    return {
        eid: EntityMetrics(
            entity_id=eid,
            degree=int(degree[i]),
            betweenness=round(float(between[i]), 9),
            pagerank=round(float(pagerank[i]), 9),
            importance=round(composite[i], 6),
        )
        for i, eid in enumerate(graph.ids)
    }


def composite_importance(parts: list[tuple[list[float] | list[int], float]]) -> list[float]:
    total_weight = sum(w for _, w in parts) or 1.0
    n = len(parts[0][0])
    score = [0.0] * n
    for values, weight in parts:
        top = max(values, default=0) or 1
        for i, v in enumerate(values):
            score[i] += weight * float(v) / float(top)
    return [1.0 + 9.0 * s / total_weight for s in score]
