"""What runs here without a Neo4j server: the adapter against a closed loopback port."""

from __future__ import annotations

import socket

import pytest

from graphrag_core.errors import ConfigError, StoreUnavailableError
from graphrag_core.models import Entity, GraphDelta
from graphrag_core.stores.neo4j import Neo4jStore

pytestmark = pytest.mark.integration


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _store() -> Neo4jStore:
    uri = f"bolt://127.0.0.1:{_closed_port()}"
    return Neo4jStore.connect(uri, "neo4j", "secret", dimension=8)


def test_an_unreachable_neo4j_is_a_clear_error() -> None:
    store = _store()
    try:
        with pytest.raises(StoreUnavailableError, match=r"Neo4j is not reachable(.|\n)*NEO4J_URI"):
            store.load_entities("c")
        entity = Entity(id="a", name="A", type="NPC")
        with pytest.raises(StoreUnavailableError):
            store.apply_delta("c", GraphDelta(entities_upsert=(entity,)))
    finally:
        store.close()


def test_health_of_an_unreachable_neo4j_says_what_to_do() -> None:
    store = _store()
    try:
        health = store.health()
    finally:
        store.close()
    assert not health.reachable and not health.healthy
    assert health.kind == "neo4j"
    assert "secret" not in health.model_dump_json()
    assert "LOREGRAPH_NEO4J_URI" in health.problems[0]


@pytest.mark.parametrize("uri", ["http://127.0.0.1:7474", "https://db.example", "localhost:7687"])
def test_only_bolt_uris_are_accepted(uri: str) -> None:
    """The driver would take http:// as its preview Query API and fail on a missing package."""
    with pytest.raises(ConfigError, match="not a Neo4j Bolt URI"):
        Neo4jStore.connect(uri, "neo4j", "secret")


@pytest.mark.parametrize(
    ("version", "too_old"),
    [
        ("Neo4j Kernel 5.11.0 enterprise", True),
        ("Neo4j Kernel 5.15.0 community", False),
        ("Neo4j Kernel 5.26.3 enterprise", False),
        ("Neo4j Kernel 2025.01.0 community", False),
    ],
)
def test_doctor_names_a_neo4j_too_old_for_the_statements(version: str, too_old: bool) -> None:
    store = _store()
    try:
        problems = store._version_problems(version)
    finally:
        store.close()
    assert bool(problems) == too_old
    assert all("5.15" in problem for problem in problems)
