"""The indexes a real FalkorDB holds, as ``migrate`` and ``health`` see them: a store holding
vectors of one dimension and opened at another is refused with what to do; an index dropped
after its migration was recorded comes back; opening waits for indexes still being built; the
vector indexes of an older store are dropped (vectors are searched exactly)."""

from __future__ import annotations

from pathlib import Path

import pytest

import cypher
from graphrag_core.errors import ConfigError
from graphrag_core.models import Entity, GraphDelta, SourceRecord
from graphrag_core.stores.falkordb import FalkorDBStore
from graphrag_core.stores.schema import MIGRATIONS

pytestmark = pytest.mark.integration


def _entity_with_vector(dimension: int) -> GraphDelta:
    entity = Entity(id="e", name="E", type="NPC", description="d")
    return GraphDelta(entities_upsert=(entity,), vectors={"e": (1.0,) + (0.0,) * (dimension - 1)})


def test_opening_at_another_dimension_is_refused(tmp_path: Path) -> None:
    with FalkorDBStore.embedded(tmp_path, dimension=8) as store:
        store.migrate()
        assert store.health().healthy
    with FalkorDBStore.embedded(tmp_path, dimension=16) as store:
        store.migrate()  # nothing stored yet: any embedder fits
        store.apply_delta("c", _entity_with_vector(16))
        assert store.health().healthy
    with FalkorDBStore.embedded(tmp_path, dimension=8) as store:
        with pytest.raises(ConfigError, match=r":Entity \(16 dimensions\).*\(8 dimensions\)"):
            store.migrate()
        health = store.health()
        assert health.reachable and not health.healthy
        assert health.migrations_applied == MIGRATIONS and health.indexes_missing == ()
        assert any("another LOREGRAPH_GRAPH_NAME" in p for p in health.problems)


def test_vectors_are_searched_exactly_and_old_vector_indexes_are_dropped(tmp_path: Path) -> None:
    """A store an earlier version made has HNSW indexes, which FalkorDB rebuilds at every
    start: opening it drops them, and the search is exact, per campaign and audience."""
    with FalkorDBStore.embedded(tmp_path, dimension=8) as store:
        store.migrate()
        store._graph.query(
            cypher.load("migration_chunk_vector_index", "falkordb"), {"dimension": 8}
        )
        assert any(i.kind == "vector" for i in store._found_indexes())
        store.migrate()
        assert not any(i.kind == "vector" for i in store._found_indexes())
        assert store.health().healthy
        store._graph.query(
            "UNWIND range(1, 300) AS i "
            "CREATE (:Chunk {campaign: CASE WHEN i % 2 = 0 THEN 'c' ELSE 'd' END, "
            "id: 'c' + toString(i), visibility: CASE WHEN i % 3 = 0 THEN 'gm' ELSE 'party' END, "
            "embedding: vecf32([1.0, toFloat(i) / 100, 0, 0, 0, 0, 0, 0])})"
        )
        hits = store.vector_search("c", "chunk", [1.0, 0.5, 0, 0, 0, 0, 0, 0], 3, ["party"])
        assert [h.id for h in hits] == ["c50", "c52", "c46"]  # closest to i = 50, party, in c
        assert hits[0].score == pytest.approx(1.0, abs=1e-6)
        everything = store.vector_search("c", "chunk", [1.0, 0.5, 0, 0, 0, 0, 0, 0], 500, ["gm"])
        assert len(everything) == 50  # the GM-only half of campaign c, no more


def test_an_index_dropped_after_its_migration_comes_back(tmp_path: Path) -> None:
    with FalkorDBStore.embedded(tmp_path, dimension=8) as store:
        store.migrate()
        store._graph.query("DROP FULLTEXT INDEX FOR (c:Chunk) ON (c.text)")
        health = store.health()
        assert health.indexes_missing == ("Chunk:fulltext",)
        assert "chunk_text" in health.problems[0]
        store.migrate()
        assert store.health().healthy


def test_opening_waits_for_an_index_being_built(tmp_path: Path) -> None:
    """An index recreated over stored nodes is built in the background: migrate returns once
    it is online."""
    with FalkorDBStore.embedded(tmp_path, dimension=8) as store:
        store.migrate()
        store._graph.query("DROP FULLTEXT INDEX FOR (c:Chunk) ON (c.text)")
        store._graph.query("MATCH (m:Migration {name: 'migration_chunk_fulltext_index'}) DELETE m")
        store._graph.query(
            "UNWIND range(1, 40000) AS i "
            "CREATE (:Chunk {campaign: 'c', id: 'c' + toString(i), visibility: 'party', "
            "text: 'lantern number ' + toString(i)})"
        )
        store.migrate()
        assert store.health().healthy  # every index online when migrate returns
        hits = store.fulltext_search("c", "chunk", "lantern", 3, ["party"])
        assert len(hits) == 3


def test_listings_survive_deletes_in_a_big_graph(tmp_path: Path) -> None:
    """FalkorDB 4.16.3 returns deleted nodes from a plain scan of an indexed label once the
    graph holds some 16k nodes ("Attempted to access undefined attribute"); the campaign and
    migration listings read through the index instead."""
    sources = tuple(
        SourceRecord(path=f"{n}.md", sha256="x", kind="markdown", chunk_count=0) for n in "abc"
    )
    with FalkorDBStore.embedded(tmp_path, dimension=8) as store:
        store.migrate()
        store._graph.query("UNWIND range(1, 17000) AS i CREATE (:Filler)")
        store.apply_delta("one", GraphDelta(sources_upsert=sources))
        store.apply_delta("two", GraphDelta(sources_upsert=sources[:1]))
        store.apply_delta("one", GraphDelta(sources_removed=("b.md",)))
        store.delete_campaign("two")
        assert store.list_campaigns() == ["one"]
        store._graph.query("MATCH (m:Migration {name: 'migration_source_index'}) DELETE m")
        assert "migration_source_index" not in store.migrations_applied()
        store.migrate()
        assert store.health().healthy
