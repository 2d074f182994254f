"""Hierarchical Leiden on graspologic-native's ``leiden`` (chosen over leidenalg by the figures
in docs/benchmarks.md: equal or better modularity, faster, seeded, warm start).

Level 0 is a Leiden partition of the whole graph, **warm-started** from the previous build's
level 0 and polished to a fixed point (warm-started again from its own result until it no
longer moves, at most ``leiden_polish_rounds`` times). A fixed point makes an unchanged graph
give back the same partition and a small change move only the nodes near it; a cold run, by
contrast, can reshuffle half the graph when one edge changes (measured in docs/benchmarks.md).
A community larger than ``max_cluster_size`` is split one level down by its own seeded Leiden
run on its own subgraph, so a community whose subgraph is unchanged splits exactly as before.
Every community is cut into its connected parts. Entities without any relation belong to no
community.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import graspologic_native as gn

from graphrag_core.settings import AnalyticsSettings

logger = logging.getLogger(__name__)

Edge = tuple[str, str, float]


@dataclass(frozen=True)
class RawCommunity:
    """A community as the algorithm labels it (labels are not stable across runs)."""

    level: int
    label: int
    parent_label: int | None
    members: tuple[str, ...]


def compact_labels(nodes: Sequence[str], previous: Mapping[str, int]) -> dict[str, int]:
    """A label per node: its previous community's, or one of its own; renumbered 0..k-1 in
    node order (graspologic-native and GDS need small non-negative labels)."""
    compact: dict[tuple[bool, object], int] = {}
    return {
        node: compact.setdefault(
            (True, previous[node]) if node in previous else (False, node), len(compact)
        )
        for node in nodes
    }


def warm_start(edges: Sequence[Edge], previous: Mapping[str, int]) -> dict[str, int] | None:
    """The starting community of every node of ``edges`` (None without a previous run)."""
    if not previous:
        return None
    return compact_labels(sorted({n for a, b, _ in edges for n in (a, b)}), previous)


def _leiden(
    edges: Sequence[Edge], settings: AnalyticsSettings, start: dict[str, int] | None
) -> list[tuple[str, ...]]:
    """One seeded Leiden run: the communities as sorted member tuples, sorted."""
    try:
        _, partition = gn.leiden(
            edges,
            starting_communities=start,
            resolution=settings.resolution,
            seed=settings.seed,
            use_modularity=True,
        )
    except BaseException as exc:  # graspologic-native 1.3.1 panics on some warm starts
        if start is None or isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        logger.warning("warm-started Leiden failed (%s); running it cold", exc)
        return _leiden(edges, settings, None)
    groups: dict[int, list[str]] = {}
    for node, label in partition.items():
        groups.setdefault(label, []).append(node)
    return sorted(tuple(sorted(m)) for m in groups.values())


def _membership(groups: Sequence[tuple[str, ...]]) -> dict[str, int]:
    return {m: i for i, members in enumerate(groups) for m in members}


def polished_level0(
    edges: Sequence[Edge], settings: AnalyticsSettings, previous: Mapping[str, int]
) -> list[tuple[str, ...]]:
    """Level 0: warm-started from ``previous`` (cold when empty), then re-run from its own
    result until it is a fixed point or the rounds run out."""
    groups = _leiden(edges, settings, warm_start(edges, previous))
    for _ in range(settings.leiden_polish_rounds):
        again = _leiden(edges, settings, warm_start(edges, _membership(groups)))
        if again == groups:
            break
        groups = again
    return connected_parts(edges, groups)


def connected_parts(
    edges: Sequence[Edge], groups: Sequence[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """Each group cut into its connected parts (edges inside the group), sorted."""
    label = _membership(groups)
    parent = {n: n for g in groups for n in g}

    def root(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for a, b, _ in edges:
        if a in label and label.get(b) == label[a]:
            ra, rb = root(a), root(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    parts: dict[str, list[str]] = {}
    for g in groups:
        for n in g:
            parts.setdefault(root(n), []).append(n)
    return sorted(tuple(sorted(p)) for p in parts.values())


def hierarchical_leiden(
    edges: Sequence[Edge],
    settings: AnalyticsSettings,
    previous: Mapping[str, int] | None = None,
) -> list[RawCommunity]:
    """The communities of every level, sorted by (level, label); ``previous`` is the last
    build's level-0 membership (entity id -> any label) for the warm start."""
    ordered = sorted(edges)
    if not ordered:
        return []
    out: list[RawCommunity] = []
    level0 = polished_level0(ordered, settings, previous or {})
    _emit(ordered, level0, 0, None, settings, out)
    return sorted(out, key=lambda c: (c.level, c.label))


def _emit(
    edges: Sequence[Edge],
    groups: Sequence[tuple[str, ...]],
    level: int,
    parent: int | None,
    settings: AnalyticsSettings,
    out: list[RawCommunity],
) -> None:
    """Record ``groups`` at ``level`` and split each one that is too large, one level down."""
    inside = edges_inside(edges, groups)
    for i, members in enumerate(groups):
        label = len(out)
        out.append(RawCommunity(level, label, parent, members))
        if len(members) <= settings.max_cluster_size or level + 1 >= settings.max_levels:
            continue
        parts = connected_parts(inside[i], _leiden(inside[i], settings, None))
        if len(parts) > 1:
            _emit(inside[i], parts, level + 1, label, settings, out)


def edges_inside(edges: Sequence[Edge], groups: Sequence[tuple[str, ...]]) -> list[list[Edge]]:
    """The edges with both ends in each group (one pass over ``edges``)."""
    label = _membership(groups)
    inside: list[list[Edge]] = [[] for _ in groups]
    for edge in edges:
        mine = label.get(edge[0])
        if mine is not None and label.get(edge[1]) == mine:
            inside[mine].append(edge)
    return inside


def level0_membership(raw: Sequence[RawCommunity]) -> dict[str, int]:
    """Entity id -> level-0 label, for the next build's warm start."""
    return {m: c.label for c in raw if c.level == 0 for m in c.members}
