"""The analytics graph of one audience: an undirected, simple igraph over its entities.

Vertices are entity ids in sorted order; parallel relations and both directions merge into
one edge whose weight sums them (a stated relation 1, a co-occurrence link
``CO_OCCURRENCE_WEIGHT``); self-loops and relations to unknown ids are dropped. The
graph's fingerprint (vertices, weighted edges and whatever else the caller names) tells a
rebuild whether metrics and communities can be kept as they are.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import igraph as ig

from graphrag_core.models import Entity, Relation


@dataclass(frozen=True)
class AnalyticsGraph:
    """An igraph plus the entity id of each vertex (index = vertex id)."""

    graph: ig.Graph
    ids: tuple[str, ...]

    def weighted_edges(self) -> list[tuple[str, str, float]]:
        """``(source id, target id, weight)`` per edge, sorted."""
        weights = self.graph.es["weight"] if self.graph.ecount() else []
        return [
            (self.ids[e.source], self.ids[e.target], float(w))
            for e, w in zip(self.graph.es, weights, strict=True)
        ]

    def fingerprint(self, *extra: object) -> str:
        """A hash of the vertices, the weighted edges and ``extra`` (settings, versions)."""
        digest = hashlib.sha256(json.dumps([list(self.ids), list(extra)]).encode())
        weights = self.graph.es["weight"] if self.graph.ecount() else []
        for (a, b), w in zip(self.graph.get_edgelist(), weights, strict=True):
            digest.update(f"{a},{b},{w};".encode())
        return digest.hexdigest()[:16]


CO_OCCURRENCE_WEIGHT = 0.5
"""The weight of a co-occurrence link (two names in one sentence, no relation stated); a
stated relation weighs 1."""


def edge_weights(
    ids: Sequence[str], pairs: Iterable[tuple[str, str]], weights: Iterable[float] = ()
) -> dict[tuple[int, int], float]:
    """Undirected edge -> summed weight (1 per pair unless ``weights`` says otherwise), keyed
    by sorted vertex indexes."""
    index = {eid: i for i, eid in enumerate(ids)}
    counts: dict[tuple[int, int], float] = {}
    endless = itertools.chain(weights, itertools.repeat(1.0))
    for (a, b), weight in zip(pairs, endless, strict=False):  # weights may run short
        if a == b or a not in index or b not in index:
            continue
        key = (min(index[a], index[b]), max(index[a], index[b]))
        counts[key] = counts.get(key, 0.0) + weight
    return counts


def from_pairs(
    ids: Iterable[str], pairs: Iterable[tuple[str, str]], weights: Iterable[float] = ()
) -> AnalyticsGraph:
    """A graph over ``ids`` (sorted) with one weighted edge per connected pair."""
    ordered = tuple(sorted(set(ids)))
    counts = edge_weights(ordered, pairs, weights)
    edges = sorted(counts)
    graph = ig.Graph(n=len(ordered), edges=edges, directed=False)
    graph.es["weight"] = [float(counts[e]) for e in edges]
    return AnalyticsGraph(graph, ordered)


def build_graph(entities: Sequence[Entity], relations: Sequence[Relation]) -> AnalyticsGraph:
    """The analytics graph of a campaign: all entities, all relations (GM view)."""
    weights = [CO_OCCURRENCE_WEIGHT if r.evidence == "co_occurrence" else 1.0 for r in relations]
    pairs = ((r.source, r.target) for r in relations)
    return from_pairs((e.id for e in entities), pairs, weights)
