"""Hierarchical Leiden on graspologic-native's ``leiden`` (chosen over leidenalg by the figures
in docs/benchmarks.md: equal or better modularity, faster, seeded, warm start).

Every level is warm-started from the previous build's hierarchy (:class:`Previous`):

- Level 0 is a Leiden partition of the whole graph, warm-started from the previous level 0 and
  polished to a fixed point (re-run from its own result until it no longer moves, at most
  ``leiden_polish_rounds`` times). A fixed point gives an unchanged graph back the same
  partition and lets a small change move only the nodes near it; a cold run can reshuffle half
  the graph when one edge changes (measured in docs/benchmarks.md).
- A community larger than ``max_cluster_size`` is split one level down: a community with
  exactly the members it had last time keeps its previous split (the strongest warm start: no
  run at all); one whose members changed is warm-started from its members' previous
  communities one level down and polished; a new one gets its own seeded cold run on its own
  subgraph, so it does not depend on anything outside it.

Every community is cut into its connected parts. Entities without any relation belong to no
community. (graspologic-native's own ``hierarchical_leiden`` shares one random stream across
all its sub-runs, so one change anywhere reshuffled every level below; it is not used.)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import graspologic_native as gn

from graphrag_core.config import AnalyticsSettings

logger = logging.getLogger(__name__)

Edge = tuple[str, str, float]


@dataclass(frozen=True)
class RawCommunity:
    """A community as the algorithm labels it (labels are not stable across runs)."""

    level: int
    label: int
    parent_label: int | None
    members: tuple[str, ...]


Members = tuple[str, ...]


@dataclass(frozen=True)
class Previous:
    """The last build's hierarchy: per level, entity -> community; per community, its split."""

    levels: tuple[dict[str, int], ...] = ()
    splits: dict[tuple[int, Members], list[Members]] = field(default_factory=dict)

    @classmethod
    def of(cls, rows: Iterable[tuple[object, object | None, int, Members]]) -> Previous:
        """From ``(key, parent key, level, members)`` rows (ids or labels as keys)."""
        rows = list(rows)
        found = {key: (level, members) for key, _, level, members in rows}
        levels: list[dict[str, int]] = []
        splits: dict[tuple[int, Members], list[Members]] = {}
        for i, (_, parent, level, members) in enumerate(rows):
            while len(levels) <= level:
                levels.append({})
            levels[level].update(dict.fromkeys(members, i))
            if parent is not None and parent in found:
                splits.setdefault(found[parent], []).append(members)
        return cls(tuple(levels), splits)

    @classmethod
    def of_raw(cls, raw: Sequence[RawCommunity]) -> Previous:
        return cls.of(
            ((c.level, c.label), None if c.parent_label is None else (c.level - 1, c.parent_label),
             c.level, c.members)
            for c in raw
        )  # fmt: skip

    def level(self, level: int) -> dict[str, int]:
        return self.levels[level] if level < len(self.levels) else {}


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
    """The starting community of every node of ``edges`` (None without a previous run): its
    previous community cut to the part connected inside ``edges`` (graspologic-native 1.3.1
    panics when a starting community is disconnected), labels compacted."""
    if not previous:
        return None
    labels = compact_labels(sorted({n for a, b, _ in edges for n in (a, b)}), previous)
    groups: dict[int, list[str]] = {}
    for node, label in labels.items():
        groups.setdefault(label, []).append(node)
    parts = connected_parts(edges, [tuple(g) for g in groups.values()])
    return _membership(parts)


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
    except BaseException as exc:  # a panic of graspologic-native on a warm start: run cold
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


def polished(
    edges: Sequence[Edge], settings: AnalyticsSettings, previous: Mapping[str, int]
) -> list[tuple[str, ...]]:
    """Warm-started from ``previous`` (cold when empty), then re-run from its own result until
    it is a fixed point or the rounds run out; cut into connected parts."""
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
    previous: Previous | None = None,
) -> list[RawCommunity]:
    """The communities of every level, sorted by (level, label), warm-started from the last
    build's hierarchy when there is one."""
    ordered = sorted(edges)
    if not ordered:
        return []
    previous = previous or Previous()
    level0 = polished(ordered, settings, previous.level(0))
    return emit_hierarchy(
        ordered,
        level0,
        settings,
        lambda inside, members, level: _split(inside, members, level, settings, previous),
    )


Split = Callable[[Sequence[Edge], Members, int], Sequence[Members]]


def emit_hierarchy(
    edges: Sequence[Edge], top: Sequence[Members], settings: AnalyticsSettings, split: Split
) -> list[RawCommunity]:
    """``top`` as level 0, and one level down the parts ``split(inside edges, members,
    level)`` gives for each community larger than ``max_cluster_size`` (when there is more
    than one), at most ``max_levels`` levels; sorted by (level, label). Shared by the
    in-process and the GDS runner, which differ only in how they split."""
    out: list[RawCommunity] = []
    _emit(edges, top, 0, None, settings, split, out)
    return sorted(out, key=lambda c: (c.level, c.label))


def _emit(
    edges: Sequence[Edge],
    groups: Sequence[Members],
    level: int,
    parent: int | None,
    settings: AnalyticsSettings,
    split: Split,
    out: list[RawCommunity],
) -> None:
    """Record ``groups`` at ``level`` and split each one that is too large, one level down."""
    for members, inside in zip(groups, edges_inside(edges, groups), strict=True):
        label = len(out)
        out.append(RawCommunity(level, label, parent, members))
        if len(members) <= settings.max_cluster_size or level + 1 >= settings.max_levels:
            continue
        parts = split(inside, members, level)
        if len(parts) > 1:
            _emit(inside, parts, level + 1, label, settings, split, out)


def _split(
    inside: Sequence[Edge],
    members: Members,
    level: int,
    settings: AnalyticsSettings,
    previous: Previous,
) -> list[Members]:
    """The parts of a too-large community: its previous split when its members are unchanged,
    else warm-started from its members' previous communities one level down, else cold."""
    kept = previous.splits.get((level, members))
    if kept:
        return connected_parts(inside, kept)
    below = previous.level(level + 1)
    start = {m: below[m] for m in members if m in below}
    if start:
        return polished(inside, settings, start)
    return connected_parts(inside, _leiden(inside, settings, None))


def edges_inside(edges: Sequence[Edge], groups: Sequence[tuple[str, ...]]) -> list[list[Edge]]:
    """The edges with both ends in each group (one pass over ``edges``)."""
    label = _membership(groups)
    inside: list[list[Edge]] = [[] for _ in groups]
    for edge in edges:
        mine = label.get(edge[0])
        if mine is not None and label.get(edge[1]) == mine:
            inside[mine].append(edge)
    return inside
