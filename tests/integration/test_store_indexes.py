"""The indexes a real FalkorDB holds, as ``migrate`` and ``health`` see them: a store migrated
at one vector dimension and opened at another is refused with what to do; an index dropped
after its migration was recorded comes back; opening waits for indexes still being built."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_core.errors import ConfigError
from graphrag_core.models import GraphDelta, SourceRecord
from graphrag_core.stores.falkordb import FalkorDBStore
from graphrag_core.stores.schema import MIGRATIONS

pytestmark = pytest.mark.integration


def test_opening_at_another_dimension_is_refused(tmp_path: Path) -> None:
    with FalkorDBStore.embedded(tmp_path, dimension=8) as store:
        store.migrate()
        assert store.health().healthy
    with FalkorDBStore.embedded(tmp_path, dimension=16) as store:
        with pytest.raises(ConfigError, match=r"entity_embedding \(8 dimensions\).*16 dim"):
            store.migrate()
        health = store.health()
        assert health.reachable and not health.healthy
        assert health.migrations_applied == MIGRATIONS and health.indexes_missing == ()
        assert any("DROP VECTOR INDEX FOR (n:Chunk)" in p for p in health.problems)


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
    """A vector index recreated over stored vectors is built in the background, and FalkorDB
    refuses vector queries until it is done: migrate returns once it is online."""
    with FalkorDBStore.embedded(tmp_path, dimension=8) as store:
        store.migrate()
        store._graph.query("DROP VECTOR INDEX FOR (c:Chunk) ON (c.embedding)")
        store._graph.query("MATCH (m:Migration {name: 'migration_chunk_vector_index'}) DELETE m")
        store._graph.query(
            "UNWIND range(1, 40000) AS i "
            "CREATE (:Chunk {campaign: 'c', id: 'c' + toString(i), visibility: 'party', "
            "embedding: vecf32([1.0, 0, 0, 0, 0, 0, 0, toFloat(i) / 40000])})"
        )
        store.migrate()
        assert store.health().healthy  # every index online when migrate returns
        hits = store.vector_search("c", "chunk", [1.0, 0, 0, 0, 0, 0, 0, 0], 3, ["party"])
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
