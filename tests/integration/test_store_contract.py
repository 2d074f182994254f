"""The GraphStore contract: one suite, run against every backend that can run here
(``store_backends``: embedded FalkorDB, a FalkorDB server process, and Neo4j whenever
``LOREGRAPH_NEO4J_URI`` is set). This module: upserts, idempotency, provenance, retrieval,
changelog and campaign isolation; ``test_store_contract_analytics`` and
``test_store_contract_safety`` cover the rest of the port.
"""

from __future__ import annotations

import pytest

from graphrag_core.errors import StoreError, StoreUnavailableError
from graphrag_core.models import GraphDelta, ProfileSentence, Relation, SourceRecord
from graphrag_core.ports import GraphStore
from tests.integration import store_backends as sb
from tests.integration import store_data as d
from tests.integration.store_backends import Backend

pytestmark = pytest.mark.integration
backend, store = sb.backend, sb.store


# ---------------------------------------------------------------- schema and round trip


def test_store_implements_the_port(store: GraphStore) -> None:
    assert isinstance(store, GraphStore)


def test_migrate_twice_is_harmless(store: GraphStore) -> None:
    store.migrate()
    store.migrate()
    store.apply_delta("c", d.delta())
    assert store.vector_search("c", "chunk", sb.EMBEDDER.embed([d.CHUNKS[0].text])[0], 1, d.BOTH)


def test_delta_round_trips(store: GraphStore) -> None:
    store.apply_delta("c", d.delta())
    assert store.load_sources("c") == {
        "lore.md": SourceRecord(path="lore.md", sha256="abc", kind="markdown", chunk_count=3)
    }
    assert store.load_entities("c") == sorted(d.ENTITIES, key=lambda e: e.id)
    key = lambda r: r.key  # noqa: E731
    assert sorted(store.load_relations("c"), key=key) == sorted(d.RELATIONS, key=key)
    assert sorted(store.load_chunks("c"), key=lambda c: c.id) == list(d.CHUNKS)


def test_reapplying_a_delta_changes_nothing(store: GraphStore, backend: Backend) -> None:
    store.apply_delta("c", d.delta())
    before = (d.graph_state(store, "c"), backend.count(d.MENTIONS_COUNT, {"c": "c"}))
    store.apply_delta("c", d.delta())
    assert (d.graph_state(store, "c"), backend.count(d.MENTIONS_COUNT, {"c": "c"})) == before
    assert before[1] == 4


def test_large_delta_crosses_batches(store: GraphStore) -> None:
    many = tuple(d.entity(f"npc-{i:04d}", f"Villager {i}") for i in range(1203))
    store.apply_delta("c", GraphDelta(entities_upsert=many))
    assert store.load_entities("c") == list(many)


def test_upserting_a_chunk_replaces_its_mentions(store: GraphStore, backend: Backend) -> None:
    store.apply_delta("c", d.delta())
    moved = d.CHUNKS[0].model_copy(update={"mentions": ("mira",)})
    store.apply_delta("c", GraphDelta(chunks_upsert=(moved,)))
    chunks = {c.id: c for c in store.load_chunks("c")}
    assert chunks["c1"].mentions == ("mira",)
    assert backend.count(d.MENTIONS_COUNT, {"c": "c"}) == 3


def test_a_chunks_session_and_page_round_trip_and_clear(store: GraphStore) -> None:
    store.apply_delta("c", d.delta())
    assert {c.id: (c.session, c.page) for c in store.load_chunks("c")}["c3"] == (7, 2)
    plain = d.CHUNKS[2].model_copy(update={"session": None, "page": None})
    store.apply_delta("c", GraphDelta(chunks_upsert=(plain,)))
    assert {c.id: (c.session, c.page) for c in store.load_chunks("c")}["c3"] == (None, None)


def test_an_entitys_derived_profile_round_trips_and_clears(store: GraphStore) -> None:
    store.apply_delta("c", d.delta())
    cited = (
        ProfileSentence(text="Torven keeps the ledger.", chunk_id="c1", source_path="lore.md"),
        ProfileSentence(text="Torven fled.", chunk_id="c3", source_path="lore.md", session=7),
    )
    profiled = d.ENTITIES[0].model_copy(update={"profile": cited})
    store.apply_delta("c", GraphDelta(entities_upsert=(profiled,)))
    assert {e.id: e for e in store.load_entities("c")}[profiled.id] == profiled
    store.apply_delta("c", GraphDelta(entities_upsert=(d.ENTITIES[0],)))
    assert {e.id: e for e in store.load_entities("c")}[profiled.id].profile == ()


def test_mentions_are_provenance_not_relations(store: GraphStore) -> None:
    store.apply_delta("c", d.delta(relations=()))
    assert store.neighbourhood("c", ["torven"], 3, d.BOTH) == {"torven": 0}
    assert {c.id: c.mentions for c in store.load_chunks("c")}["c1"] == ("torven", "anchor")


def test_removals(store: GraphStore, backend: Backend) -> None:
    store.apply_delta("c", d.delta())
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
    assert backend.count(d.MENTIONS_COUNT, {"c": "c"}) == 2


def test_an_upsert_without_vector_keeps_the_stored_one(store: GraphStore) -> None:
    store.apply_delta("c", d.delta())
    renamed = d.ENTITIES[3].model_copy(update={"status": "missing"})
    store.apply_delta("c", GraphDelta(entities_upsert=(renamed,)))
    query = sb.EMBEDDER.embed([f"{renamed.name} {renamed.description}"])[0]
    assert d.ids(store.vector_search("c", "entity", query, 1, d.BOTH)) == ["mira"]


# ---------------------------------------------------------------- retrieval


def test_vector_search_finds_the_same_text_first(store: GraphStore) -> None:
    store.apply_delta("c", d.delta())
    for chunk in d.CHUNKS:
        hits = store.vector_search("c", "chunk", sb.EMBEDDER.embed([chunk.text])[0], 3, d.BOTH)
        assert hits[0].id == chunk.id
        assert hits[0].score == pytest.approx(1.0, abs=1e-3)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_vector_search_stays_in_its_campaign(store: GraphStore) -> None:
    """Another campaign holds 200 items closer to the query: over-fetching must reach ours."""
    store.apply_delta("c", d.delta())
    crowd = tuple(d.chunk(f"x{i}", f"Rusty Anchor tavern docks copy {i}") for i in range(200))
    store.apply_delta("other", GraphDelta(chunks_upsert=crowd, vectors=d.embed_all((), crowd)))
    query = sb.EMBEDDER.embed(["Rusty Anchor tavern docks"])[0]
    hits = store.vector_search("c", "chunk", query, 2, d.BOTH)
    assert len(hits) == 2 and hits[0].id == "c1"
    assert all(h.id in {"c1", "c2", "c3"} for h in hits)
    assert all(
        h.id.startswith("x") for h in store.vector_search("other", "chunk", query, 5, d.BOTH)
    )


def test_vector_search_hides_gm_items_from_players(store: GraphStore) -> None:
    store.apply_delta("c", d.delta())
    query = sb.EMBEDDER.embed([d.CHUNKS[1].text])[0]
    assert "c2" not in d.ids(store.vector_search("c", "chunk", query, 10, d.PARTY))
    query = sb.EMBEDDER.embed(["Cult of the Deep"])[0]
    assert "cult" not in d.ids(store.vector_search("c", "entity", query, 10, d.PARTY))
    assert d.ids(store.vector_search("c", "entity", query, 1, d.BOTH)) == ["cult"]


def test_fulltext_search(store: GraphStore) -> None:
    store.apply_delta("c", d.delta())
    store.apply_delta("other", d.delta())
    assert d.ids(store.fulltext_search("c", "chunk", "pilots", 5, d.BOTH)) == ["c3"]
    assert "anchor" in d.ids(
        store.fulltext_search("c", "entity", "where can sailors rest?", 5, d.BOTH)
    )
    assert d.ids(store.fulltext_search("c", "entity", "Torven", 5, d.BOTH))[0] == "torven"
    # every word of the name, the aliases and the description is a word of its own
    for word in ("Blackwater", "Keeper"):
        assert d.ids(store.fulltext_search("c", "entity", word, 5, d.BOTH)) == ["torven"], word
    assert store.fulltext_search("c", "entity", "King secretly", 5, d.BOTH) == []
    assert store.fulltext_search("c", "chunk", "Cult", 5, d.PARTY) == []
    assert store.fulltext_search("c", "entity", '-@|(){}"*', 5, d.BOTH) == []
    assert d.ids(store.fulltext_search("c", "entity", 'Torven -@|( "', 5, d.BOTH))[0] == "torven"
    assert store.fulltext_search("nobody", "entity", "Torven", 5, d.BOTH) == []


def test_neighbourhood_hops_and_visibility(store: GraphStore) -> None:
    secret = d.entity("s", "Secret", visibility="gm")
    chain = (*(d.entity(e, e.title()) for e in ("a", "b", "c", "d")), secret)
    relations = (
        Relation(source="a", target="b", type="knows"),
        Relation(source="c", target="b", type="knows"),  # walked against its direction
        Relation(source="c", target="d", type="knows"),
        Relation(source="a", target="s", type="knows"),
        Relation(source="a", target="d", type="rival_of", visibility="gm"),
    )
    store.apply_delta("c", GraphDelta(entities_upsert=chain, relations_upsert=relations))
    assert store.neighbourhood("c", ["a"], 0, d.PARTY) == {"a": 0}
    assert store.neighbourhood("c", ["a"], 1, d.PARTY) == {"a": 0, "b": 1}
    assert store.neighbourhood("c", ["a"], 3, d.PARTY) == {"a": 0, "b": 1, "c": 2, "d": 3}
    assert store.neighbourhood("c", ["a"], 1, d.BOTH) == {"a": 0, "b": 1, "s": 1, "d": 1}
    assert store.neighbourhood("c", ["s"], 2, d.PARTY) == {}
    assert store.neighbourhood("c", ["a", "d"], 1, d.PARTY) == {"a": 0, "d": 0, "b": 1, "c": 1}


# ---------------------------------------------------------------- changelog


def test_changesets_append_and_load_in_order(store: GraphStore) -> None:
    later = [d.change(2, 1, 2, old_value="alive", details={"why": ["drowned"], "n": 1}),
             d.change(2, 1, 1, kind="relationship", target_id="anchor",
                     relation_type="owns", field="attitude", new_value="hostile")]  # fmt: skip
    store.append_changeset("c", d.record(2, 1, 2), later)
    store.append_changeset("c", d.record(1, 2, 1), [d.change(1, 2, 1, visibility="gm")])
    store.append_changeset("c", d.record(1, 1, 1), [d.change(1, 1, 1)])
    assert [(r.session_id, r.revision) for r in store.load_changesets("c")] == [
        (1, 1), (1, 2), (2, 1)
    ]  # fmt: skip
    changes = store.load_changes("c")
    assert [c.id for c in changes] == ["s1-r1-1", "s1-r2-1", "s2-r1-1", "s2-r1-2"]
    assert changes[3] == later[0] and changes[2] == later[1]
    assert store.load_changesets("c")[2] == d.record(2, 1, 2)


def test_appending_a_changeset_again_adds_nothing(store: GraphStore) -> None:
    store.append_changeset("c", d.record(1, 1, 1), [d.change(1, 1, 1)])
    store.append_changeset("c", d.record(1, 1, 1), [d.change(1, 1, 1)])
    assert len(store.load_changesets("c")) == 1
    assert len(store.load_changes("c")) == 1


def test_a_changeset_appended_again_keeps_what_was_stored_first(store: GraphStore) -> None:
    store.append_changeset("c", d.record(1, 1, 1), [d.change(1, 1, 1)])
    rewritten = d.record(1, 1, 1).model_copy(update={"title": "Rewritten", "change_count": 9})
    store.append_changeset("c", rewritten, [d.change(1, 1, 1, new_value="alive")])
    assert store.load_changesets("c") == [d.record(1, 1, 1)]
    assert store.load_changes("c") == [d.change(1, 1, 1)]


def test_a_withdrawal_record_round_trips_and_bumps_the_campaign_revision(
    store: GraphStore,
) -> None:
    store.append_changeset("c", d.record(1, 1, 1), [d.change(1, 1, 1)])
    before = store.campaign_revision("c")
    withdrawal = d.record(1, 2, 0).model_copy(
        update={"withdraws": 1, "at_session": 3, "note": "posted by mistake", "source": "cli"}
    )
    store.append_changeset("c", withdrawal, [])
    assert store.campaign_revision("c") > before  # cached views of the campaign are stale
    assert store.load_changesets("c") == [d.record(1, 1, 1), withdrawal]
    assert (
        store.load_changesets("c")[0].note == "" and store.load_changesets("c")[0].withdraws is None
    )
    assert store.load_changes("c") == [d.change(1, 1, 1)]  # append-only: nothing deleted


# ---------------------------------------------------------------- campaigns


def _fill(store: GraphStore, campaign: str) -> None:
    store.apply_delta(campaign, d.delta())
    store.append_changeset(campaign, d.record(1, 1, 1), [d.change(1, 1, 1, source=campaign)])


def test_every_load_is_scoped_by_campaign(store: GraphStore) -> None:
    _fill(store, "one")
    store.apply_delta("two", GraphDelta(entities_upsert=(d.entity("torven", "Other Torven"),)))
    assert d.graph_state(store, "three") == ({}, [], [], [], [], [])
    assert [e.name for e in store.load_entities("two")] == ["Other Torven"]
    assert store.load_relations("two") == [] and store.load_chunks("two") == []
    assert store.load_changes("two") == [] and store.load_changesets("two") == []
    assert store.load_sources("two") == {}
    assert store.neighbourhood("two", ["torven"], 2, d.BOTH) == {"torven": 0}
    assert len(store.load_entities("one")) == len(d.ENTITIES)


def test_delete_campaign_removes_only_that_campaign(store: GraphStore) -> None:
    _fill(store, "one")
    _fill(store, "two")
    assert store.list_campaigns() == ["one", "two"]
    kept = d.graph_state(store, "two")
    store.delete_campaign("one")
    assert store.list_campaigns() == ["two"]
    assert d.graph_state(store, "one") == ({}, [], [], [], [], [])
    assert d.graph_state(store, "two") == kept
    assert store.vector_search("one", "chunk", sb.EMBEDDER.embed(["harbour"])[0], 5, d.BOTH) == []


# ---------------------------------------------------------------- failures


def test_a_store_whose_server_is_down_is_unavailable(backend: Backend) -> None:
    backend.stop_server()
    with pytest.raises(StoreUnavailableError, match="not reachable"):
        backend.store.load_entities("c")
    with pytest.raises(StoreUnavailableError):
        backend.store.apply_delta("c", d.delta())


def test_a_failing_delta_writes_nothing(store: GraphStore) -> None:
    """The last row of the last statement holds a nested map, which the store cannot hold."""
    bad = d.ENTITIES[3].model_copy(update={"status": {"nested": {"map": 1}}})
    delta = d.delta().model_copy(update={"entities_upsert": (*d.ENTITIES[:3], bad)})
    with pytest.raises(StoreError, match="nothing was written"):
        store.apply_delta("c", delta)
    assert d.graph_state(store, "c") == ({}, [], [], [], [], [])


def test_a_vector_of_the_wrong_dimension_writes_nothing(store: GraphStore) -> None:
    delta = d.delta().model_copy(update={"vectors": {"c3": (1.0, 0.0)}})
    with pytest.raises(StoreError, match="dimensions"):
        store.apply_delta("c", delta)
    assert d.graph_state(store, "c") == ({}, [], [], [], [], [])


def test_the_changelog_moves_the_campaign_revision_and_not_the_world_revision(
    store: GraphStore,
) -> None:
    """Every write moves the campaign revision; every write but a change set's (a post, a
    withdrawal) moves the world revision too, so what is read from the world alone stays
    valid across posts. Both outlive a deleted campaign."""

    def revisions() -> tuple[int, int]:
        return store.campaign_revision("c"), store.world_revision("c")

    assert revisions() == (0, 0)
    store.apply_delta("c", d.delta())
    revision, world = revisions()
    assert revision > 0 and world > 0
    store.append_changeset("c", d.record(1, 1, 1), [d.change(1, 1, 1)])
    withdrawal = d.record(1, 2, 0).model_copy(update={"withdraws": 1, "at_session": 1})
    store.append_changeset("c", withdrawal, [])
    assert revisions()[0] > revision and revisions()[1] == world
    revision = revisions()[0]
    store.save_analytics("c", d.HARBOUR, d.summary_vectors(d.HARBOUR))
    assert revisions()[0] > revision and revisions()[1] > world
    revision, world = revisions()
    store.apply_delta("c", GraphDelta(entities_removed=(d.ENTITIES[0].id,)))
    assert revisions()[0] > revision and revisions()[1] > world
    revision, world = revisions()
    store.delete_campaign("c")
    assert revisions()[0] > revision and revisions()[1] > world
    assert store.world_revision("other") == 0
