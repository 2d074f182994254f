"""The GraphStore contract: one suite, run against every backend that can run here.

A backend is a factory yielding a :class:`Backend`; to add one (Neo4j), write its factory and
list it in ``BACKENDS``. Factories that need an absent service skip with the reason.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from falkordb import FalkorDB

from graphrag_core.errors import StoreError, StoreUnavailableError
from graphrag_core.models import (
    Change,
    ChangeSetRecord,
    Chunk,
    Entity,
    GraphDelta,
    Relation,
    ScoredId,
    SourceRecord,
    Visibility,
)
from graphrag_core.ports import GraphStore
from graphrag_core.stores.falkordb import FalkorDBStore
from tests.fakes import HashEmbedder
from tests.integration.falkordb_process import falkordb_server, free_port, stop

pytestmark = pytest.mark.integration

DIM = 32
EMBEDDER = HashEmbedder(dimension=DIM)
BOTH: tuple[Visibility, ...] = ("gm", "party")
PARTY: tuple[Visibility, ...] = ("party",)
MENTIONS_COUNT = "MATCH (:Chunk {campaign: $c})-[m:MENTIONS]->() RETURN count(m)"


@dataclass
class Backend:
    store: GraphStore
    stop_server: Callable[[], None]
    count: Callable[[str, dict[str, object]], int]
    """Runs a counting query in the backend's own dialect (for what the port cannot show)."""


def _falkordb_count(db: FalkorDB, graph: str) -> Callable[[str, dict[str, object]], int]:
    def count(query: str, params: dict[str, object]) -> int:
        return int(db.select_graph(graph).ro_query(query, params).result_set[0][0])

    return count


def _falkordb_embedded(tmp_path: Path) -> Iterator[Backend]:
    store = FalkorDBStore.embedded(tmp_path / "data", "contract", dimension=DIM)
    assert store.server is not None and store.server.started_here
    probe = FalkorDB(unix_socket_path=str(store.server.socket_path))
    try:
        yield Backend(store, store.server.stop, _falkordb_count(probe, "contract"))
    finally:
        probe.close()
        store.close()


def _falkordb_server(tmp_path: Path) -> Iterator[Backend]:
    """A FalkorDB server on a loopback TCP port, reached by URL like a remote one."""
    with falkordb_server(tmp_path) as (url, process):
        store = _wait_for(lambda: FalkorDBStore.from_url(url, "contract", dimension=DIM))
        probe = FalkorDB.from_url(url)
        try:
            yield Backend(store, lambda: stop(process), _falkordb_count(probe, "contract"))
        finally:
            probe.close()
            store.close()


def _wait_for(connect: Callable[[], FalkorDBStore], timeout_s: float = 20.0) -> FalkorDBStore:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return connect()
        except StoreUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class _ScopedStore:
    """A shared Neo4j may hold other data: every campaign this suite names gets a random
    suffix on the way in, and loses it on the way out (``list_campaigns``)."""

    def __init__(self, inner: GraphStore, suffix: str) -> None:
        self._inner = inner
        self._suffix = suffix
        self.used: set[str] = set()

    def scoped(self, campaign: object) -> object:
        if not isinstance(campaign, str):
            return campaign
        self.used.add(f"{campaign}-{self._suffix}")
        return f"{campaign}-{self._suffix}"

    def list_campaigns(self) -> list[str]:
        tail = f"-{self._suffix}"
        names = self._inner.list_campaigns()
        return [name.removesuffix(tail) for name in names if name.endswith(tail)]

    def __getattr__(self, name: str) -> object:
        method = getattr(self._inner, name)
        if name in {"migrate", "close", "health"}:
            return method
        return lambda campaign, *args, **kwargs: method(self.scoped(campaign), *args, **kwargs)


def _neo4j(tmp_path: Path) -> Iterator[Backend]:
    """The Neo4j at ``LOREGRAPH_NEO4J_URI``; this test's campaigns are made unique and are
    deleted afterwards. "Server down" points the store at a closed loopback port."""
    uri = os.environ.get("LOREGRAPH_NEO4J_URI")
    if not uri:
        pytest.skip("LOREGRAPH_NEO4J_URI is not set: no Neo4j server to run the suite against")
    import neo4j

    from graphrag_core.stores.neo4j import Neo4jStore

    auth = (
        os.environ.get("LOREGRAPH_NEO4J_USER", "neo4j"),
        os.environ.get("LOREGRAPH_NEO4J_PASSWORD", ""),
    )
    database = os.environ.get("LOREGRAPH_NEO4J_DATABASE", "neo4j")
    inner = Neo4jStore.connect(uri, *auth, database, dimension=DIM)
    store = _ScopedStore(inner, uuid.uuid4().hex[:12])
    probe = neo4j.GraphDatabase.driver(uri, auth=auth)

    def count(query: str, params: dict[str, object]) -> int:
        scoped = {key: store.scoped(value) for key, value in params.items()}
        records = probe.execute_query(query, scoped, database_=database).records
        return int(records[0][0])

    def stop_server() -> None:
        inner._driver.close()
        dead = f"bolt://127.0.0.1:{free_port()}"
        inner._driver = neo4j.GraphDatabase.driver(dead, auth=auth)
        inner._verified = False

    try:
        yield Backend(store, stop_server, count)  # type: ignore[arg-type]
    finally:
        cleanup = Neo4jStore.connect(uri, *auth, database, dimension=DIM)
        for campaign in store.used:
            cleanup.delete_campaign(campaign)
        cleanup.close()
        probe.close()
        inner.close()


BACKENDS: dict[str, Callable[[Path], Iterator[Backend]]] = {
    "falkordb-embedded": _falkordb_embedded,
    "falkordb-server": _falkordb_server,
    "neo4j": _neo4j,
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    yield from BACKENDS[request.param](tmp_path)


@pytest.fixture
def store(backend: Backend) -> GraphStore:
    backend.store.migrate()
    return backend.store


# ---------------------------------------------------------------- data


def _entity(eid: str, name: str, **fields: object) -> Entity:
    return Entity.model_validate({"id": eid, "name": name, "type": "NPC", **fields})


def _chunk(cid: str, text: str, *mentions: str, **fields: object) -> Chunk:
    return Chunk.model_validate(
        {
            "id": cid, "source_path": "lore.md", "start": 0, "end": len(text), "text": text,
            "content_hash": f"h-{cid}", "mentions": mentions, **fields,
        }
    )  # fmt: skip


ENTITIES = (
    _entity(
        "torven", "Torven Blackwater", aliases=("Torven",), gm_aliases=("The Drowned King",),
        status="alive", description="Keeper of the Rusty Anchor tavern.",
        gm_notes="Secretly a cultist of the deep.", attributes={"race": "human", "age": "54"},
        sources=("lore.md",),
    ),
    _entity("anchor", "Rusty Anchor", type="Location", status="intact",
            description="A tavern by the docks where sailors rest."),
    _entity("cult", "Cult of the Deep", type="Faction", visibility="gm",
            description="Drowned worshippers beneath the harbour."),
    _entity("mira", "Mira Sand", description="A harbour pilot and smuggler."),
)  # fmt: skip
RELATIONS = (
    Relation(source="torven", target="anchor", type="owns", attitude="allied",
             description="Torven owns the Anchor.", source_path="lore.md", chunk_id="c1"),
    Relation(source="torven", target="cult", type="member_of", visibility="gm"),
    Relation(source="mira", target="anchor", type="knows", attitude="neutral"),
)  # fmt: skip
CHUNKS = (
    _chunk("c1", "Torven Blackwater keeps the Rusty Anchor tavern by the docks.",
           "torven", "anchor", heading="Docks > Taverns", subject="anchor"),
    _chunk("c2", "The Cult of the Deep meets beneath the harbour at night.", "cult",
           visibility="gm"),
    _chunk("c3", "Mira Sand pilots ships through the harbour fog.", "mira"),
)  # fmt: skip


def _vectors(
    entities: tuple[Entity, ...], chunks: tuple[Chunk, ...]
) -> dict[str, tuple[float, ...]]:
    texts = {e.id: f"{e.name} {e.description}" for e in entities}
    texts |= {c.id: c.text for c in chunks}
    return dict(zip(texts, EMBEDDER.embed(list(texts.values())), strict=True))


def _delta(
    entities: tuple[Entity, ...] = ENTITIES,
    relations: tuple[Relation, ...] = RELATIONS,
    chunks: tuple[Chunk, ...] = CHUNKS,
) -> GraphDelta:
    return GraphDelta(
        sources_upsert=(SourceRecord(path="lore.md", sha256="abc", kind="markdown",
                                     chunk_count=len(chunks)),),
        entities_upsert=entities,
        relations_upsert=relations,
        chunks_upsert=chunks,
        vectors=_vectors(entities, chunks),
    )  # fmt: skip


def _snapshot(store: GraphStore, campaign: str) -> tuple[object, ...]:
    return (
        store.load_sources(campaign),
        store.load_entities(campaign),
        store.load_relations(campaign),
        store.load_chunks(campaign),
        store.load_changesets(campaign),
        store.load_changes(campaign),
    )


def _ids(results: Sequence[ScoredId]) -> list[str]:
    return [r.id for r in results]


# ---------------------------------------------------------------- schema and round trip


def test_store_implements_the_port(store: GraphStore) -> None:
    assert isinstance(store, GraphStore)


def test_migrate_twice_is_harmless(store: GraphStore) -> None:
    store.migrate()
    store.migrate()
    store.apply_delta("c", _delta())
    assert store.vector_search("c", "chunk", EMBEDDER.embed([CHUNKS[0].text])[0], 1, BOTH)


def test_delta_round_trips(store: GraphStore) -> None:
    store.apply_delta("c", _delta())
    assert store.load_sources("c") == {
        "lore.md": SourceRecord(path="lore.md", sha256="abc", kind="markdown", chunk_count=3)
    }
    assert store.load_entities("c") == sorted(ENTITIES, key=lambda e: e.id)
    key = lambda r: r.key  # noqa: E731
    assert sorted(store.load_relations("c"), key=key) == sorted(RELATIONS, key=key)
    assert sorted(store.load_chunks("c"), key=lambda c: c.id) == list(CHUNKS)


def test_reapplying_a_delta_changes_nothing(store: GraphStore, backend: Backend) -> None:
    store.apply_delta("c", _delta())
    before = (_snapshot(store, "c"), backend.count(MENTIONS_COUNT, {"c": "c"}))
    store.apply_delta("c", _delta())
    assert (_snapshot(store, "c"), backend.count(MENTIONS_COUNT, {"c": "c"})) == before
    assert before[1] == 4


def test_large_delta_crosses_batches(store: GraphStore) -> None:
    many = tuple(_entity(f"npc-{i:04d}", f"Villager {i}") for i in range(1203))
    store.apply_delta("c", GraphDelta(entities_upsert=many))
    assert store.load_entities("c") == list(many)


def test_upserting_a_chunk_replaces_its_mentions(store: GraphStore, backend: Backend) -> None:
    store.apply_delta("c", _delta())
    moved = CHUNKS[0].model_copy(update={"mentions": ("mira",)})
    store.apply_delta("c", GraphDelta(chunks_upsert=(moved,)))
    chunks = {c.id: c for c in store.load_chunks("c")}
    assert chunks["c1"].mentions == ("mira",)
    assert backend.count(MENTIONS_COUNT, {"c": "c"}) == 3


def test_mentions_are_provenance_not_relations(store: GraphStore) -> None:
    store.apply_delta("c", _delta(relations=()))
    assert store.neighbourhood("c", ["torven"], 3, BOTH) == {"torven": 0}
    assert {c.id: c.mentions for c in store.load_chunks("c")}["c1"] == ("torven", "anchor")


def test_removals(store: GraphStore, backend: Backend) -> None:
    store.apply_delta("c", _delta())
    store.apply_delta(
        "c",
        GraphDelta(
            chunks_removed=("c3",),
            entities_removed=("cult",),
            relations_removed=(("mira", "knows", "anchor"),),
            sources_removed=("lore.md",),
        ),
    )
    assert store.load_sources("c") == {}
    assert {c.id for c in store.load_chunks("c")} == {"c1", "c2"}
    assert {e.id for e in store.load_entities("c")} == {"torven", "anchor", "mira"}
    assert [r.key for r in store.load_relations("c")] == [("torven", "owns", "anchor")]
    assert backend.count(MENTIONS_COUNT, {"c": "c"}) == 2


def test_an_upsert_without_vector_keeps_the_stored_one(store: GraphStore) -> None:
    store.apply_delta("c", _delta())
    renamed = ENTITIES[3].model_copy(update={"status": "missing"})
    store.apply_delta("c", GraphDelta(entities_upsert=(renamed,)))
    query = EMBEDDER.embed([f"{renamed.name} {renamed.description}"])[0]
    assert _ids(store.vector_search("c", "entity", query, 1, BOTH)) == ["mira"]


# ---------------------------------------------------------------- retrieval


def test_vector_search_finds_the_same_text_first(store: GraphStore) -> None:
    store.apply_delta("c", _delta())
    for chunk in CHUNKS:
        hits = store.vector_search("c", "chunk", EMBEDDER.embed([chunk.text])[0], 3, BOTH)
        assert hits[0].id == chunk.id
        assert hits[0].score == pytest.approx(1.0, abs=1e-3)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_vector_search_stays_in_its_campaign(store: GraphStore) -> None:
    """Another campaign holds 200 items closer to the query: over-fetching must reach ours."""
    store.apply_delta("c", _delta())
    crowd = tuple(_chunk(f"x{i}", f"Rusty Anchor tavern docks copy {i}") for i in range(200))
    store.apply_delta("other", GraphDelta(chunks_upsert=crowd, vectors=_vectors((), crowd)))
    query = EMBEDDER.embed(["Rusty Anchor tavern docks"])[0]
    hits = store.vector_search("c", "chunk", query, 2, BOTH)
    assert len(hits) == 2 and hits[0].id == "c1"
    assert all(h.id in {"c1", "c2", "c3"} for h in hits)
    assert all(h.id.startswith("x") for h in store.vector_search("other", "chunk", query, 5, BOTH))


def test_vector_search_hides_gm_items_from_players(store: GraphStore) -> None:
    store.apply_delta("c", _delta())
    query = EMBEDDER.embed([CHUNKS[1].text])[0]
    assert "c2" not in _ids(store.vector_search("c", "chunk", query, 10, PARTY))
    query = EMBEDDER.embed(["Cult of the Deep"])[0]
    assert "cult" not in _ids(store.vector_search("c", "entity", query, 10, PARTY))
    assert _ids(store.vector_search("c", "entity", query, 1, BOTH)) == ["cult"]


def test_fulltext_search(store: GraphStore) -> None:
    store.apply_delta("c", _delta())
    store.apply_delta("other", _delta())
    assert _ids(store.fulltext_search("c", "chunk", "pilots", 5, BOTH)) == ["c3"]
    assert "anchor" in _ids(
        store.fulltext_search("c", "entity", "where can sailors rest?", 5, BOTH)
    )
    assert _ids(store.fulltext_search("c", "entity", "Torven", 5, BOTH))[0] == "torven"
    assert store.fulltext_search("c", "entity", "King secretly", 5, BOTH) == []
    assert store.fulltext_search("c", "chunk", "Cult", 5, PARTY) == []
    assert store.fulltext_search("c", "entity", '-@|(){}"*', 5, BOTH) == []
    assert _ids(store.fulltext_search("c", "entity", 'Torven -@|( "', 5, BOTH))[0] == "torven"
    assert store.fulltext_search("nobody", "entity", "Torven", 5, BOTH) == []


def test_neighbourhood_hops_and_visibility(store: GraphStore) -> None:
    secret = _entity("s", "Secret", visibility="gm")
    chain = (*(_entity(e, e.title()) for e in ("a", "b", "c", "d")), secret)
    relations = (
        Relation(source="a", target="b", type="knows"),
        Relation(source="c", target="b", type="knows"),  # walked against its direction
        Relation(source="c", target="d", type="knows"),
        Relation(source="a", target="s", type="knows"),
        Relation(source="a", target="d", type="rival_of", visibility="gm"),
    )
    store.apply_delta("c", GraphDelta(entities_upsert=chain, relations_upsert=relations))
    assert store.neighbourhood("c", ["a"], 0, PARTY) == {"a": 0}
    assert store.neighbourhood("c", ["a"], 1, PARTY) == {"a": 0, "b": 1}
    assert store.neighbourhood("c", ["a"], 3, PARTY) == {"a": 0, "b": 1, "c": 2, "d": 3}
    assert store.neighbourhood("c", ["a"], 1, BOTH) == {"a": 0, "b": 1, "s": 1, "d": 1}
    assert store.neighbourhood("c", ["s"], 2, PARTY) == {}
    assert store.neighbourhood("c", ["a", "d"], 1, PARTY) == {"a": 0, "d": 0, "b": 1, "c": 1}


# ---------------------------------------------------------------- changelog


def _change(session: int, revision: int, seq: int, **fields: object) -> Change:
    return Change.model_validate(
        {
            "id": f"s{session}-r{revision}-{seq}", "session_id": session, "revision": revision,
            "seq": seq, "kind": "entity_status", "entity_id": "torven", "field": "status",
            "new_value": "dead", **fields,
        }
    )  # fmt: skip


def _record(session: int, revision: int, count: int) -> ChangeSetRecord:
    return ChangeSetRecord(
        session_id=session, revision=revision, content_hash=f"h{session}.{revision}",
        source=f"session-{session}.yaml", posted_at="2026-01-01T00:00:00+00:00",
        title=f"Session {session}", change_count=count,
    )  # fmt: skip


def test_changesets_append_and_load_in_order(store: GraphStore) -> None:
    later = [_change(2, 1, 2, old_value="alive", details={"why": ["drowned"], "n": 1}),
             _change(2, 1, 1, kind="relationship", target_id="anchor",
                     relation_type="owns", field="attitude", new_value="hostile")]  # fmt: skip
    store.append_changeset("c", _record(2, 1, 2), later)
    store.append_changeset("c", _record(1, 2, 1), [_change(1, 2, 1, visibility="gm")])
    store.append_changeset("c", _record(1, 1, 1), [_change(1, 1, 1)])
    assert [(r.session_id, r.revision) for r in store.load_changesets("c")] == [
        (1, 1), (1, 2), (2, 1)
    ]  # fmt: skip
    changes = store.load_changes("c")
    assert [c.id for c in changes] == ["s1-r1-1", "s1-r2-1", "s2-r1-1", "s2-r1-2"]
    assert changes[3] == later[0] and changes[2] == later[1]
    assert store.load_changesets("c")[2] == _record(2, 1, 2)


def test_appending_a_changeset_again_adds_nothing(store: GraphStore) -> None:
    store.append_changeset("c", _record(1, 1, 1), [_change(1, 1, 1)])
    store.append_changeset("c", _record(1, 1, 1), [_change(1, 1, 1)])
    assert len(store.load_changesets("c")) == 1
    assert len(store.load_changes("c")) == 1


# ---------------------------------------------------------------- campaigns


def _fill(store: GraphStore, campaign: str) -> None:
    store.apply_delta(campaign, _delta())
    store.append_changeset(campaign, _record(1, 1, 1), [_change(1, 1, 1, source=campaign)])


def test_every_load_is_scoped_by_campaign(store: GraphStore) -> None:
    _fill(store, "one")
    store.apply_delta("two", GraphDelta(entities_upsert=(_entity("torven", "Other Torven"),)))
    assert _snapshot(store, "three") == ({}, [], [], [], [], [])
    assert [e.name for e in store.load_entities("two")] == ["Other Torven"]
    assert store.load_relations("two") == [] and store.load_chunks("two") == []
    assert store.load_changes("two") == [] and store.load_changesets("two") == []
    assert store.load_sources("two") == {}
    assert store.neighbourhood("two", ["torven"], 2, BOTH) == {"torven": 0}
    assert len(store.load_entities("one")) == len(ENTITIES)


def test_delete_campaign_removes_only_that_campaign(store: GraphStore) -> None:
    _fill(store, "one")
    _fill(store, "two")
    assert store.list_campaigns() == ["one", "two"]
    kept = _snapshot(store, "two")
    store.delete_campaign("one")
    assert store.list_campaigns() == ["two"]
    assert _snapshot(store, "one") == ({}, [], [], [], [], [])
    assert _snapshot(store, "two") == kept
    assert store.vector_search("one", "chunk", EMBEDDER.embed(["harbour"])[0], 5, BOTH) == []


# ---------------------------------------------------------------- failures


def test_a_store_whose_server_is_down_is_unavailable(backend: Backend) -> None:
    backend.stop_server()
    with pytest.raises(StoreUnavailableError, match="not reachable"):
        backend.store.load_entities("c")
    with pytest.raises(StoreUnavailableError):
        backend.store.apply_delta("c", _delta())


def test_a_failing_delta_writes_nothing(store: GraphStore) -> None:
    """The last row of the last statement holds a nested map, which the store cannot hold."""
    bad = ENTITIES[3].model_copy(update={"status": {"nested": {"map": 1}}})
    delta = _delta().model_copy(update={"entities_upsert": (*ENTITIES[:3], bad)})
    with pytest.raises(StoreError, match="nothing was written"):
        store.apply_delta("c", delta)
    assert _snapshot(store, "c") == ({}, [], [], [], [], [])


def test_a_vector_of_the_wrong_dimension_writes_nothing(store: GraphStore) -> None:
    delta = _delta().model_copy(update={"vectors": {"c3": (1.0, 0.0)}})
    with pytest.raises(StoreError, match="dimensions"):
        store.apply_delta("c", delta)
    assert _snapshot(store, "c") == ({}, [], [], [], [], [])
