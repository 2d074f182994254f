"""The GraphStore contract, continued: health, values no store can hold, a statement the server
itself rejects, and deleting a campaign (batched, loregraph's nodes only). Parametrised over
every backend (``store_backends``)."""

from __future__ import annotations

import math

import pytest

from graphrag_core.errors import StoreError
from graphrag_core.models import GmDecision, GraphDelta
from graphrag_core.ports import GraphStore
from graphrag_core.stores import cypher_store
from graphrag_core.stores.rows import entity_row
from graphrag_core.stores.schema import MIGRATIONS
from tests.integration import store_backends as sb
from tests.integration import store_data as d
from tests.integration.store_backends import Backend

pytestmark = pytest.mark.integration
backend, store = sb.backend, sb.store
EMPTY = ({}, [], [], [], [], [])


def test_a_migrated_store_is_healthy(store: GraphStore) -> None:
    health = store.health()
    assert (health.reachable, health.problems, health.indexes_missing) == (True, (), ())
    assert health.migrations_applied == MIGRATIONS
    assert health.version and health.healthy


def test_a_store_down_is_unhealthy_not_an_exception(backend: Backend) -> None:
    backend.stop_server()
    health = backend.store.health()
    assert not health.reachable and not health.healthy
    assert "not reachable" in health.problems[0]


# ---------------------------------------------------------------- values no store can hold


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_vector_writes_nothing(store: GraphStore, bad: float) -> None:
    vectors = dict(d.embed_all(d.ENTITIES, d.CHUNKS))
    vectors["c3"] = (bad, *vectors["c3"][1:])
    delta = d.delta().model_copy(update={"entities_removed": ("ghost",), "vectors": vectors})
    with pytest.raises(StoreError, match=r"'c3'(.|\n)*nothing was written"):
        store.apply_delta("c", delta)
    assert d.graph_state(store, "c") == EMPTY


def test_an_integer_beyond_64_bits_writes_nothing(store: GraphStore) -> None:
    """FalkorDB would silently store 2**63 - 1 instead."""
    record = d.record(1, 1, 1).model_copy(update={"change_count": 2**70})
    with pytest.raises(StoreError, match="nothing was written"):
        store.append_changeset("c", record, [d.change(1, 1, 1)])
    decision = GmDecision(seq=2**64, kind="alias_add", subject="torven", names=("T",))
    with pytest.raises(StoreError, match="nothing was written"):
        store.append_gm_decision("c", decision)
    assert d.graph_state(store, "c") == EMPTY and store.load_gm_decisions("c") == []


def test_a_non_finite_summary_vector_keeps_the_old_analytics(store: GraphStore) -> None:
    store.save_analytics("c", d.HARBOUR, d.summary_vectors(d.HARBOUR))
    rebuilt = d.analytics("c", d.summary("c-0-2", "party", "Mira pilots ships."))
    with pytest.raises(StoreError, match="nothing was written"):
        store.save_analytics("c", rebuilt, {"c-0-2@party": (math.nan,) * sb.DIM})
    assert store.load_analytics("c") == d.HARBOUR


# ---------------------------------------------------------------- a failure the server raises


def test_a_statement_the_server_rejects(store: GraphStore, backend: Backend) -> None:
    """Past the value checks: the second statement of one transaction fails on the server.
    Neo4j rolls the first back; FalkorDB (Redis MULTI/EXEC) cannot — the documented limit —
    and running the corrected call again completes it."""
    store.apply_delta("c", d.delta())
    before = d.graph_state(store, "c")
    dead = d.ENTITIES[0].model_copy(update={"status": "dead"})
    campaign = backend.campaign("c")
    not_numbers = [{"id": "torven", "embedding": ["x"] * sb.DIM}]
    statements = [
        ("entities_upsert", {"campaign": campaign, "rows": [entity_row(dead)]}),
        ("entity_embeddings_set", {"campaign": campaign, "rows": not_numbers}),
    ]
    with pytest.raises(StoreError, match="entity_embeddings_set"):
        backend.primitive(statements)
    status = {e.id: e.status for e in store.load_entities("c")}["torven"]
    if backend.rolls_back:
        assert d.graph_state(store, "c") == before
    else:
        assert status == "dead"  # the first statement stayed applied
    store.apply_delta("c", GraphDelta(entities_upsert=(dead,)))
    assert {e.id: e.status for e in store.load_entities("c")}["torven"] == "dead"
    query = sb.EMBEDDER.embed([f"{dead.name} {dead.description}"])[0]
    assert d.ids(store.vector_search("c", "entity", query, 1, d.BOTH)) == ["torven"]


# ---------------------------------------------------------------- deleting a campaign


def _fill_everything(store: GraphStore, campaign: str) -> None:
    store.apply_delta(campaign, d.delta())
    store.append_changeset(campaign, d.record(1, 1, 1), [d.change(1, 1, 1)])
    store.save_analytics(campaign, d.HARBOUR, d.summary_vectors(d.HARBOUR))
    store.save_extraction_cache(campaign, {"m|v1|a": "{}"})
    store.append_gm_decision(
        campaign, GmDecision(seq=1, kind="alias_add", subject="torven", names=("T",))
    )


def _everything(store: GraphStore, campaign: str) -> tuple[object, ...]:
    return (
        *d.graph_state(store, campaign),
        store.load_analytics(campaign),
        store.extraction_cache_keys(campaign),
        store.load_gm_decisions(campaign),
    )


def test_delete_campaign_in_batches_leaves_other_campaigns_and_foreign_nodes(
    store: GraphStore, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cypher_store, "DELETE_BATCH", 3)  # many transactions, not one
    _fill_everything(store, "one")
    _fill_everything(store, "two")
    kept = _everything(store, "two")
    backend.execute("CREATE (:ForeignApp {campaign: $c, note: 'not ours'})", {"c": "one"})
    try:
        store.delete_campaign("one")
        assert _everything(store, "one") == (*EMPTY, None, [], [])
        assert _everything(store, "two") == kept
        assert store.list_campaigns() == ["two"]
        assert (
            backend.count("MATCH (n:ForeignApp {campaign: $c}) RETURN count(n)", {"c": "one"}) == 1
        )
    finally:
        backend.execute("MATCH (n:ForeignApp {campaign: $c}) DELETE n", {"c": "one"})
