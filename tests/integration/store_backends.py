"""The backends of the GraphStore contract suite, and its ``backend`` / ``store`` fixtures.

A backend is a factory yielding a :class:`Backend`; to add one, write its factory and list it
in ``BACKENDS``. Factories that need an absent service skip with the reason. The ``memory``
backend (``tests/memory_store.py``, the fake the unit tests use) needs none and never skips
as a whole; a test that reaches for a backend's own queries skips there. Every backend
runs at the production embedding dimension (384, all-MiniLM-L6-v2), so a run against a
user's Neo4j creates exactly the indexes loregraph itself would, never ones of another size.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest
from falkordb import FalkorDB

from graphrag_core.errors import StoreUnavailableError
from graphrag_core.ports import GraphStore
from graphrag_core.stores.falkordb import FalkorDBStore
from tests.fakes import HashEmbedder
from tests.integration.falkordb_process import falkordb_server, free_port, stop
from tests.memory_store import MemoryStore

DIM = 384
"""The dimension of the embedder loregraph ships (all-MiniLM-L6-v2)."""
EMBEDDER = HashEmbedder(dimension=DIM)

Statement = tuple[str, dict[str, Any]]


@dataclass
class Backend:
    store: GraphStore
    stop_server: Callable[[], None]
    count: Callable[[str, dict[str, object]], int]
    """Runs a counting query in the backend's own dialect (for what the port cannot show)."""
    execute: Callable[[str, dict[str, object]], None]
    """Runs a writing query in the backend's own dialect (to set up what the port cannot)."""
    primitive: Callable[[Sequence[Statement]], None]
    """The adapter's own transaction primitive, below the value checks of ``_write``."""
    campaign: Callable[[str], str] = lambda name: name
    """The name a campaign has in the database (Neo4j runs add a unique suffix)."""
    rolls_back: bool = False
    """Whether a statement the server rejects undoes the statements before it."""
    own_language: bool = True
    """Whether ``count``, ``execute``, ``primitive`` and ``stop_server`` work: a backend without
    a query language of its own (the in-memory store) skips a test when it calls one."""


def needs_own_language(*_: object) -> NoReturn:
    """Stands for ``count``/``execute``/``primitive``/``stop_server`` where there are none:
    the test has checked what it could through the port, and skips the rest."""
    pytest.skip("needs the backend's own query language (the in-memory store has none)")


def _memory(tmp_path: Path) -> Iterator[Backend]:
    """The in-memory fake of the unit tests, held to the same contract."""
    own = needs_own_language
    yield Backend(MemoryStore(dimension=DIM), own, own, own, own, own_language=False)


def _falkordb(db: FalkorDB, store: FalkorDBStore, stop_server: Callable[[], None]) -> Backend:
    graph = db.select_graph("contract")

    def count(query: str, params: dict[str, object]) -> int:
        return int(graph.ro_query(query, params).result_set[0][0])

    def execute(query: str, params: dict[str, object]) -> None:
        graph.query(query, params)

    return Backend(store, stop_server, count, execute, store._execute)


def _falkordb_embedded(tmp_path: Path) -> Iterator[Backend]:
    store = FalkorDBStore.embedded(tmp_path / "data", "contract", dimension=DIM)
    assert store.server is not None and store.server.started_here
    probe = FalkorDB(unix_socket_path=str(store.server.socket_path))
    try:
        yield _falkordb(probe, store, store.server.stop)
    finally:
        probe.close()
        store.close()


def _falkordb_server(tmp_path: Path) -> Iterator[Backend]:
    """A FalkorDB server on a loopback TCP port, reached by URL like a remote one."""
    with falkordb_server(tmp_path) as (url, process):
        store = _wait_for(lambda: FalkorDBStore.from_url(url, "contract", dimension=DIM))
        probe = FalkorDB.from_url(url)
        try:
            yield _falkordb(probe, store, lambda: stop(process))
        finally:
            probe.close()
            probe.connection.connection_pool.disconnect()  # from_url: close() leaves the pool
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


class ScopedStore:
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


def neo4j_settings() -> tuple[str, tuple[str, str], str]:
    """URI, auth and database of the Neo4j to test against, or skip when none is set."""
    uri = os.environ.get("LOREGRAPH_NEO4J_URI")
    if not uri:
        pytest.skip("LOREGRAPH_NEO4J_URI is not set: no Neo4j server to run the suite against")
    auth = (
        os.environ.get("LOREGRAPH_NEO4J_USER", "neo4j"),
        os.environ.get("LOREGRAPH_NEO4J_PASSWORD", ""),
    )
    return uri, auth, os.environ.get("LOREGRAPH_NEO4J_DATABASE", "neo4j")


def refuse_other_dimensions(store: Any, database: str) -> None:
    """Fail before writing anything when the database's vector indexes have another size."""
    wrong = store.index_check().wrong_dimension
    if wrong:
        store.close()
        held = ", ".join(f"{spec.name} ({found})" for spec, found in wrong)
        pytest.fail(
            f"Neo4j database {database!r} has vector indexes of another dimension than "
            f"loregraph's {DIM}: {held}. Run the suite on a scratch database "
            "(LOREGRAPH_NEO4J_DATABASE=...); it changes nothing here."
        )


def _neo4j(tmp_path: Path) -> Iterator[Backend]:
    """The Neo4j at ``LOREGRAPH_NEO4J_URI``; this test's campaigns are made unique and are
    deleted afterwards. "Server down" points the store at a closed loopback port."""
    uri, auth, database = neo4j_settings()
    import neo4j

    from graphrag_core.stores.neo4j import Neo4jStore

    inner = Neo4jStore.connect(uri, *auth, database, dimension=DIM)
    refuse_other_dimensions(inner, database)
    store = ScopedStore(inner, uuid.uuid4().hex[:12])
    probe = neo4j.GraphDatabase.driver(uri, auth=auth)

    def run(query: str, params: dict[str, object]) -> Any:
        scoped = {key: store.scoped(value) for key, value in params.items()}
        return probe.execute_query(query, scoped, database_=database).records

    def stop_server() -> None:
        inner._driver.close()
        dead = f"bolt://127.0.0.1:{free_port()}"
        inner._driver = neo4j.GraphDatabase.driver(dead, auth=auth)
        inner._verified = False

    try:
        yield Backend(
            store,  # type: ignore[arg-type]
            stop_server,
            count=lambda query, params: int(run(query, params)[0][0]),
            execute=run,
            primitive=inner._execute,
            campaign=lambda name: str(store.scoped(name)),
            rolls_back=True,
        )
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
    "memory": _memory,
    "neo4j": _neo4j,
}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    yield from BACKENDS[request.param](tmp_path)


@pytest.fixture
def store(backend: Backend) -> GraphStore:
    backend.store.migrate()
    return backend.store
