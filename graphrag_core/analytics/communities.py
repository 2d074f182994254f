"""Hierarchical Leiden on graspologic-native (chosen over leidenalg by the figures in
docs/benchmarks.md: equal or better modularity, faster, native hierarchy and warm start).

Level 0 is the first Leiden partition of the whole graph; a community larger than
``max_cluster_size`` is clustered again on its own, its parts forming the next level. Entities
without any relation belong to no community. A previous level-0 membership warm-starts the run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import graspologic_native as gn

from graphrag_core.settings import AnalyticsSettings


@dataclass(frozen=True)
class RawCommunity:
    """A community as the algorithm labels it (labels are not stable across runs)."""

    level: int
    label: int
    parent_label: int | None
    members: tuple[str, ...]


def warm_start(
    edges: Sequence[tuple[str, str, float]], previous: Mapping[str, int]
) -> dict[str, int] | None:
    """A starting community for every node of ``edges``: the previous one, or a new label."""
    if not previous:
        return None
    nodes = sorted({n for a, b, _ in edges for n in (a, b)})
    fresh = max(previous.values(), default=-1) + 1
    start: dict[str, int] = {}
    for node in nodes:
        if node in previous:
            start[node] = previous[node]
        else:
            start[node], fresh = fresh, fresh + 1
    return start


def hierarchical_leiden(
    edges: Sequence[tuple[str, str, float]],
    settings: AnalyticsSettings,
    previous: Mapping[str, int] | None = None,
) -> list[RawCommunity]:
    """The communities of every level, sorted by (level, label)."""
    if not edges:
        return []
    clusters = gn.hierarchical_leiden(
        sorted(edges),
        starting_communities=warm_start(edges, previous or {}),
        resolution=settings.resolution,
        max_cluster_size=settings.max_cluster_size,
        seed=settings.seed,
        use_modularity=True,
    )
    grouped: dict[tuple[int, int], tuple[int | None, list[str]]] = {}
    for c in clusters:
        if c.level >= settings.max_levels:
            continue
        _, members = grouped.setdefault((c.level, c.cluster), (c.parent_cluster, []))
        members.append(c.node)
    return [
        RawCommunity(level, label, parent, tuple(sorted(members)))
        for (level, label), (parent, members) in sorted(grouped.items())
    ]


def level0_membership(raw: Sequence[RawCommunity]) -> dict[str, int]:
    """Entity id -> level-0 label, stored for the next build's warm start."""
    return {m: c.label for c in raw if c.level == 0 for m in c.members}
