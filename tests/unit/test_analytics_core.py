"""Centrality, hierarchical Leiden and stable ids on small synthetic graphs (no services)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from graphrag_core.analytics.centrality import betweenness, compute_metrics
from graphrag_core.analytics.communities import (
    Previous,
    RawCommunity,
    connected_parts,
    hierarchical_leiden,
    warm_start,
)
from graphrag_core.analytics.gds import runner_for
from graphrag_core.analytics.graph_input import build_graph, from_pairs
from graphrag_core.analytics.runners import InProcessRunner
from graphrag_core.analytics.stable_ids import assign_ids
from graphrag_core.config import AnalyticsSettings
from graphrag_core.models import Entity, Relation
from graphrag_core.stores.analytics_store import AnalyticsStore
from graphrag_core.stores.rows import Row
from graphrag_core.stores.statements import Statement

SETTINGS = AnalyticsSettings(max_cluster_size=8)


def _clusters(n_groups: int, size: int, seed: int = 1) -> list[tuple[str, str]]:
    """Dense groups joined by a ring of single edges."""
    rng = random.Random(seed)
    pairs = []
    for g in range(n_groups):
        nodes = [f"g{g}-n{i}" for i in range(size)]
        pairs += [(a, b) for a in nodes for b in nodes if a < b and rng.random() < 0.6]
        pairs.append((nodes[0], f"g{(g + 1) % n_groups}-n0"))
    return pairs


def _ids(pairs: list[tuple[str, str]]) -> set[str]:
    return {n for p in pairs for n in p}


def test_graph_input_is_sorted_simple_and_weighted() -> None:
    entities = [Entity(id=i, name=i, type="NPC") for i in ("c", "a", "b")]
    relations = [
        Relation(source="a", target="b", type="knows"),
        Relation(source="b", target="a", type="allied_with"),
        Relation(source="a", target="a", type="knows"),
        Relation(source="a", target="zz", type="knows"),
    ]
    graph = build_graph(entities, relations)
    assert graph.ids == ("a", "b", "c")
    assert graph.weighted_edges() == [("a", "b", 2.0)]


def test_importance_reads_one_to_ten_and_the_hub_wins() -> None:
    pairs = [("hub", f"leaf{i}") for i in range(6)] + [("leaf0", "leaf1")]
    metrics = compute_metrics(from_pairs(_ids(pairs) | {"alone"}, pairs), SETTINGS)
    assert metrics["hub"].importance == pytest.approx(10.0)
    assert metrics["alone"].importance < min(
        m.importance for eid, m in metrics.items() if eid != "alone"
    )
    assert all(1.0 <= m.importance <= 10.0 for m in metrics.values())
    assert metrics["hub"].degree == 6


def test_sampled_betweenness_approximates_the_exact_one() -> None:
    pairs = _clusters(10, 12)
    graph = from_pairs(_ids(pairs), pairs)
    exact = betweenness(graph, SETTINGS)
    sampled = betweenness(
        graph, AnalyticsSettings(betweenness_exact_max_nodes=10, betweenness_samples=60)
    )
    top_exact = sorted(range(len(exact)), key=lambda i: -exact[i])[:5]
    top_sampled = sorted(range(len(sampled)), key=lambda i: -sampled[i])[:5]
    assert len(set(top_exact) & set(top_sampled)) >= 3
    assert sampled == betweenness(
        graph, AnalyticsSettings(betweenness_exact_max_nodes=10, betweenness_samples=60)
    )


def test_hierarchical_leiden_is_deterministic_and_hierarchical() -> None:
    pairs = _clusters(6, 12)
    edges = from_pairs(_ids(pairs), pairs).weighted_edges()
    first = hierarchical_leiden(edges, SETTINGS)
    assert first == hierarchical_leiden(list(reversed(edges)), SETTINGS)
    levels = {c.level for c in first}
    assert levels >= {0, 1}
    level0 = [c for c in first if c.level == 0]
    assert sorted(m for c in level0 for m in c.members) == sorted(_ids(pairs))
    assert all(len(c.members) <= SETTINGS.max_cluster_size for c in first if c.level == 1)


def test_warm_start_compacts_labels_and_gives_new_nodes_their_own() -> None:
    edges = [("a", "b", 1.0), ("b", "c", 1.0), ("c", "d", 1.0)]
    assert warm_start(edges, {"a": 7, "b": 7, "d": 40, "gone": 1}) == {
        "a": 0,
        "b": 0,
        "c": 1,
        "d": 2,
    }
    assert warm_start(edges, {}) is None


def test_warm_start_cuts_disconnected_starting_communities(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """graspologic-native 1.3.1 panics when a starting community is disconnected (e.g. a
    previous community that lost the relation holding it together); the warm start cuts such a
    community into its connected parts, so the run succeeds warm."""
    nodes = [f"n{i:02d}" for i in range(44)]
    path = [(nodes[i], nodes[i + 1], 1.0) for i in range(43)]
    every_other = {n: i % 2 for i, n in enumerate(nodes)}  # both communities disconnected
    start = warm_start(path, every_other)
    assert start is not None and len(set(start.values())) == 44  # every node its own part
    raw = hierarchical_leiden(path, SETTINGS, Previous(levels=(every_other,)))
    assert sorted(m for c in raw if c.level == 0 for m in c.members) == nodes
    assert "running it cold" not in caplog.text  # no panic, no cold fallback


def test_communities_are_connected_and_warm_rerun_is_a_fixed_point() -> None:
    pairs = _clusters(8, 14, seed=3)
    edges = from_pairs(_ids(pairs), pairs).weighted_edges()
    first = hierarchical_leiden(edges, SETTINGS)
    again = hierarchical_leiden(edges, SETTINGS, Previous.of_raw(first))
    assert [(c.level, c.members) for c in again] == [(c.level, c.members) for c in first]
    for c in first:
        assert connected_parts(edges, [c.members]) == [c.members], c


def test_connected_parts_splits_a_group_without_inner_edges() -> None:
    edges = [("a", "b", 1.0), ("c", "d", 1.0), ("b", "c", 1.0)]
    assert connected_parts(edges, [("a", "b", "d"), ("c",)]) == [("a", "b"), ("c",), ("d",)]


def test_stable_ids_survive_small_changes_and_version_big_ones() -> None:
    pairs = _clusters(6, 12)
    edges = from_pairs(_ids(pairs), pairs).weighted_edges()
    raw = hierarchical_leiden(edges, SETTINGS)
    first, counters = assign_ids(raw, [], {}, SETTINGS)
    again, _ = assign_ids(
        hierarchical_leiden(edges, SETTINGS, Previous.of_raw(raw)), first, counters, SETTINGS
    )
    assert [(c.id, c.version, c.members) for c in again] == [
        (c.id, c.version, c.members) for c in first
    ]
    # one extra member: same id, same version; half the members gone: same id, next version
    top = first[0]
    grown = RawCommunity(0, 99, None, (*top.members, "zz-new"))
    halved = RawCommunity(0, 98, None, top.members[: len(top.members) // 2 + 1])
    (one,), _ = assign_ids([grown], [top], counters, SETTINGS)
    assert (one.id, one.version) == (top.id, top.version)
    assert one.base_members == top.members  # the membership version 1 began with
    (two,), _ = assign_ids([halved], [top], counters, SETTINGS)
    assert (two.id, two.version, two.base_members) == (top.id, top.version + 1, ())
    stranger = RawCommunity(0, 97, None, ("x", "y"))
    (three,), new_counters = assign_ids([stranger], [top], counters, SETTINGS)
    assert three.id == f"c-0-{counters['0'] + 1}" and new_counters["0"] == counters["0"] + 1
    (party,), _ = assign_ids([stranger], [], {}, SETTINGS, prefix="p")
    assert party.id == "p-0-1"


def test_slow_drift_bumps_the_version_against_the_version_start() -> None:
    """One member swapped per rebuild: each step is small (Jaccard 9/11), but once more than
    20 % moved away from the membership version 1 began with, the version grows."""
    members = [f"m{i:02d}" for i in range(10)]
    old, counters = assign_ids([RawCommunity(0, 0, None, tuple(members))], [], {}, SETTINGS)
    versions = []
    for step in range(1, 9):
        members = [*members[1:], f"n{step:02d}"]
        raw = [RawCommunity(0, 0, None, tuple(sorted(members)))]
        old, counters = assign_ids(raw, old, counters, SETTINGS)
        versions.append(old[0].version)
        assert old[0].id == "c-0-1"
    assert versions[0] == 1  # 1 of 10 moved: within the threshold
    assert versions[-1] >= 3  # 8 of 10 moved over 8 rebuilds: bumped more than once
    assert versions == sorted(versions)


def test_id_matching_is_linear_in_shared_members() -> None:
    """Matching 2,000 communities against 2,000 old ones finishes through the member index
    (a quadratic scan would compare 4 million pairs); ids are all kept."""
    raw = [RawCommunity(1, i, None, (f"a{i}", f"b{i}", f"c{i}")) for i in range(2000)]
    first, counters = assign_ids(raw, [], {}, SETTINGS)
    again, _ = assign_ids(list(reversed(raw)), first, counters, SETTINGS)
    assert {c.id: c.members for c in again} == {c.id: c.members for c in first}


def test_parents_point_one_level_up() -> None:
    pairs = _clusters(6, 12)
    raw = hierarchical_leiden(from_pairs(_ids(pairs), pairs).weighted_edges(), SETTINGS)
    communities, _ = assign_ids(raw, [], {}, SETTINGS)
    by_id = {c.id: c for c in communities}
    for c in communities:
        if c.level == 0:
            assert c.parent is None
        else:
            assert c.parent is not None and by_id[c.parent].level == c.level - 1
            assert set(c.members) <= set(by_id[c.parent].members)


class _FakeGds:
    def __init__(self, version: str | None) -> None:
        self._version = version
        self.closed = False

    def version(self) -> str:
        if self._version is None:
            raise RuntimeError("There is no procedure with the name `gds.version`")
        return self._version

    def close(self) -> None:
        self.closed = True


def _refuse() -> object:
    raise ConnectionError("no Neo4j here")


def test_runner_for_picks_gds_only_on_neo4j_with_gds() -> None:
    assert runner_for("neo4j", SETTINGS, lambda: _FakeGds("2.6.0")).name == "gds"
    assert runner_for("neo4j", SETTINGS, lambda: _FakeGds(None)).name == "in-process"
    assert runner_for("neo4j", SETTINGS, _refuse).name == "in-process"
    assert runner_for("falkordb-embedded", SETTINGS, lambda: _FakeGds("2.6")).name == "in-process"
    assert InProcessRunner(SETTINGS).name == "in-process"


def test_runner_for_connects_lazily_once_and_closes() -> None:
    calls: list[_FakeGds] = []

    def connect() -> _FakeGds:
        calls.append(_FakeGds(None))
        return calls[-1]

    runner = runner_for("neo4j", SETTINGS, connect)
    assert calls == []  # opening the service does not connect
    pairs = [("a", "b"), ("b", "c")]
    metrics = runner.metrics(from_pairs(_ids(pairs), pairs))
    assert len(calls) == 1 and set(metrics) == {"a", "b", "c"}  # no GDS: ran in process
    runner.communities(from_pairs(_ids(pairs), pairs), Previous())
    assert len(calls) == 1
    runner.close()  # type: ignore[attr-defined]
    assert calls[0].closed


class _OldStore(AnalyticsStore):
    """An analytics store holding a snapshot in the format before the two clusterings."""

    dimension = 4

    def _read(self, name: str, params: dict[str, Any]) -> list[Row]:
        old = {"campaign": "x", "built_at": "", "communities": [], "membership": {"a": 0}}
        return [{"snapshot_json": json.dumps(old)}]

    def _write(self, statements: Sequence[Statement]) -> None:
        raise AssertionError("nothing is written")


def test_a_snapshot_in_an_older_format_reads_as_none_so_the_next_build_starts_afresh() -> None:
    assert _OldStore().load_analytics("x") is None
