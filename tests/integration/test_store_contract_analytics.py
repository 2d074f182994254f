"""The GraphStore contract, continued: stored embeddings, the analytics snapshot and community
summary search, the LLM extraction cache and the game master's decisions — each scoped by
campaign, and summaries by audience. Parametrised over every backend (``store_backends``)."""

from __future__ import annotations

import pytest

from graphrag_core.models import GmDecision, GraphDelta
from graphrag_core.ports import GraphStore
from tests.integration import store_backends as sb
from tests.integration import store_data as d

pytestmark = pytest.mark.integration
backend, store = sb.backend, sb.store


def _close(found: dict[str, tuple[float, ...]], wanted: dict[str, tuple[float, ...]]) -> None:
    """Stores keep float32: equal to ~1e-6."""
    assert found.keys() == wanted.keys()
    for key, vector in wanted.items():
        assert found[key] == pytest.approx(vector, abs=1e-6)


# ---------------------------------------------------------------- stored embeddings


def test_load_vectors_returns_what_was_stored_for_that_campaign(store: GraphStore) -> None:
    vectors = d.embed_all(d.ENTITIES, d.CHUNKS)
    store.apply_delta("c", d.delta())
    without = d.ENTITIES[3].model_copy(update={"id": "nobody"})
    store.apply_delta("c", GraphDelta(entities_upsert=(without,)))
    _close(
        store.load_vectors("c", "entity"), {e.id: vectors[e.id] for e in d.ENTITIES}
    )  # "nobody" has no vector and is left out
    _close(store.load_vectors("c", "chunk"), {c.id: vectors[c.id] for c in d.CHUNKS})
    assert store.load_vectors("other", "entity") == {}


def test_a_new_vector_replaces_the_stored_one_and_search_finds_it(store: GraphStore) -> None:
    """FalkorDB 4.16.3 silently ignored a SET of a vector over an existing one, so a changed
    entity (a new derived profile, a new description) kept its old vector."""
    store.apply_delta("c", d.delta())
    entity, chunk = d.ENTITIES[0], d.CHUNKS[0]
    moved = tuple(-v for v in d.embed_all(d.ENTITIES, d.CHUNKS)[entity.id])
    changed = entity.model_copy(update={"description": entity.description + " Changed."})
    store.apply_delta(
        "c",
        GraphDelta(
            entities_upsert=(changed,),
            chunks_upsert=(chunk,),
            vectors={entity.id: moved, chunk.id: moved},
        ),
    )
    assert store.load_vectors("c", "entity")[entity.id] == pytest.approx(moved, abs=1e-6)
    assert store.load_vectors("c", "chunk")[chunk.id] == pytest.approx(moved, abs=1e-6)
    hits = store.vector_search("c", "entity", moved, 1, ("party", "gm"))
    assert [h.id for h in hits] == [entity.id]


# ---------------------------------------------------------------- analytics


def test_analytics_round_trip(store: GraphStore) -> None:
    assert store.load_analytics("c") is None
    vectors = d.summary_vectors(d.HARBOUR)
    store.save_analytics("c", d.HARBOUR, vectors)
    assert store.load_analytics("c") == d.HARBOUR
    _close(store.load_summary_vectors("c"), vectors)
    assert store.load_analytics("other") is None
    assert store.load_summary_vectors("other") == {}


def test_saving_analytics_replaces_the_old_snapshot_and_summaries(store: GraphStore) -> None:
    store.save_analytics("c", d.HARBOUR, d.summary_vectors(d.HARBOUR))
    rebuilt = d.analytics("c", d.summary("c-0-2", "party", "Mira Sand pilots ships in fog."))
    store.save_analytics("c", rebuilt, d.summary_vectors(rebuilt))
    assert store.load_analytics("c") == rebuilt
    assert set(store.load_summary_vectors("c")) == {"c-0-2@party"}
    query = sb.EMBEDDER.embed(["Sailors rest at the Rusty Anchor tavern"])[0]
    assert d.ids(store.summary_search("c", query, 5, d.BOTH)) == ["c-0-2@party"]


def test_summary_search_ranks_and_hides_gm_summaries_from_players(store: GraphStore) -> None:
    store.save_analytics("c", d.HARBOUR, d.summary_vectors(d.HARBOUR))
    query = sb.EMBEDDER.embed([d.HARBOUR.summaries[0].summary])[0]
    hits = store.summary_search("c", query, 5, d.BOTH)
    assert d.ids(hits) == ["c-0-1@gm", "c-0-1@party"]
    assert hits[0].score == pytest.approx(1.0, abs=1e-3) and hits[0].score > hits[1].score
    assert d.ids(store.summary_search("c", query, 5, d.PARTY)) == ["c-0-1@party"]
    assert store.summary_search("c", query, 0, d.BOTH) == []


def test_summary_search_stays_in_its_campaign(store: GraphStore) -> None:
    """Another campaign holds 100 summaries closer to the query: ours must still come back."""
    store.save_analytics("c", d.HARBOUR, d.summary_vectors(d.HARBOUR))
    crowd = d.analytics(
        "other",
        *(
            d.summary(f"c-0-{i}", "party", f"Rusty Anchor tavern docks sailors {i}")
            for i in range(100)
        ),
    )
    store.save_analytics("other", crowd, d.summary_vectors(crowd))
    query = sb.EMBEDDER.embed(["Rusty Anchor tavern docks sailors"])[0]
    assert d.ids(store.summary_search("c", query, 1, d.PARTY)) == ["c-0-1@party"]
    assert d.ids(store.summary_search("nobody", query, 5, d.BOTH)) == []


# ---------------------------------------------------------------- extraction cache


def test_extraction_cache(store: GraphStore) -> None:
    store.save_extraction_cache("c", {"m|v1|a": '{"entities": []}', "m|v1|b": '{"x": 1}'})
    store.save_extraction_cache("other", {"m|v1|a": '{"other": true}'})
    assert store.load_extraction_cache("c", ["m|v1|a", "m|v1|zzz"]) == {
        "m|v1|a": '{"entities": []}'
    }
    assert store.extraction_cache_keys("c") == ["m|v1|a", "m|v1|b"]
    store.save_extraction_cache("c", {"m|v1|a": '{"entities": ["new"]}'})
    assert store.load_extraction_cache("c", ["m|v1|a"]) == {"m|v1|a": '{"entities": ["new"]}'}
    assert store.extraction_cache_keys("c") == ["m|v1|a", "m|v1|b"]
    assert store.load_extraction_cache("other", ["m|v1|a", "m|v1|b"]) == {
        "m|v1|a": '{"other": true}'
    }
    assert store.load_extraction_cache("c", []) == {}


# ---------------------------------------------------------------- GM decisions


def _decision(seq: int, **fields: object) -> GmDecision:
    return GmDecision.model_validate(
        {"seq": seq, "kind": "alias_add", "subject": "torven", "names": ("Old Torv",),
         "reason": "the table calls him that", "decided_at": "2026-01-02T00:00:00+00:00",
         **fields}
    )  # fmt: skip


def test_gm_decisions_are_append_only_and_ordered(store: GraphStore) -> None:
    second = _decision(2, kind="merge", subject="mira", target="torven", names=())
    store.append_gm_decision("c", second)
    store.append_gm_decision("c", _decision(1))
    store.append_gm_decision("c", _decision(1, reason="rewritten"))  # seq 1 stays as it was
    assert store.load_gm_decisions("c") == [_decision(1), second]
    assert store.load_gm_decisions("other") == []
