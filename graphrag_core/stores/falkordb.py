"""The FalkorDB adapter of the ``GraphStore`` port, embedded or over a server.

Every query is a parameterised statement from ``cypher/`` (dialect ``falkordb``). Writes of one
call go in one Redis ``MULTI``/``EXEC``: no other client sees half of them. Redis cannot roll
back a transaction, so every value is checked before anything is sent (``rows``: primitives
and arrays of them, finite numbers, 64-bit integers); a bad value fails the whole call with
nothing written.

Vectors are searched exactly (cosine over the campaign's items, one read each), with no vector
index: FalkorDB does not persist its HNSW indexes but rebuilds them from the stored vectors
while the server loads its data, before it answers anything (measured: 9–16 s for 25k
384-d vectors, 0.3 s for the same graph without them), and an exact search also never misses
an item of a small campaign behind the items of other campaigns. The vector migrations create
nothing here; a store of an earlier version has its vector indexes dropped when it is opened.

The limit, plainly: a failure the *server* raises part-way through the transaction (a query
timeout set on a shared server, out of memory) leaves the statements before it applied — the
pre-checks cannot see those failures. Every write is an idempotent upsert, so running the same
command again completes it. Neo4j rolls such a transaction back whole.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, TypeVar

import redis.exceptions
from falkordb import FalkorDB
from falkordb.query_result import QueryResult

import cypher
from graphrag_core.errors import ConfigError, StoreError, StoreUnavailableError
from graphrag_core.stores.cypher_store import CypherStore, Statement, unavailable
from graphrag_core.stores.falkordb_server import EmbeddedFalkorDB
from graphrag_core.stores.rows import Row
from graphrag_core.stores.schema import EXPECTED_INDEXES, FoundIndex, IndexSpec, SchemaHints
from graphrag_core.uris import redact

__all__ = ["FalkorDBStore"]

logger = logging.getLogger(__name__)

_VECTOR_LABELS = {  # label: (the statement dropping its old vector index, reading one vector)
    "Entity": ("vector_index_drop_entities", "vector_dimension_entities"),
    "Chunk": ("vector_index_drop_chunks", "vector_dimension_chunks"),
    "CommunitySummary": ("vector_index_drop_summaries", "vector_dimension_summaries"),
}
_VECTOR_MIGRATIONS = frozenset(spec.migration for spec in EXPECTED_INDEXES if spec.kind == "vector")
_EMPTY_GRAPH = "empty key"  # FalkorDB's answer to a read of a graph never written
_T = TypeVar("_T")


class FalkorDBStore(CypherStore):
    """A ``GraphStore`` over one FalkorDB graph; every node and edge carries its campaign."""

    dialect: ClassVar[cypher.Dialect] = "falkordb"
    key_kind: ClassVar[str] = "range"  # FalkorDB's Cypher has no constraints
    exact_vectors: ClassVar[bool] = True  # see the module docstring
    SCHEMA_TIMEOUT_S: ClassVar[float] = 30.0
    """How long the embedded engine may take to answer an index statement (see
    ``_schema_statement``)."""

    def __init__(
        self,
        db: Any,
        graph_name: str = "loregraph",
        *,
        dimension: int = 384,
        where: str = "the FalkorDB server",
        server: EmbeddedFalkorDB | None = None,
    ) -> None:
        kind = "falkordb" if server is None else "falkordb-embedded"
        super().__init__(kind=kind, dimension=dimension, where=where)
        self._db = db
        self._graph = db.select_graph(graph_name)
        self.graph_name = graph_name
        self._server = server
        self._exists = False

    # ------------------------------------------------------------ construction

    @classmethod
    def embedded(
        cls,
        data_dir: Path,
        graph_name: str = "loregraph",
        startup_timeout_s: float = 20.0,
        *,
        dimension: int = 384,
    ) -> FalkorDBStore:
        """Start (or reuse) the embedded engine of ``data_dir``; ``close()`` stops it if this
        store started it."""
        server = EmbeddedFalkorDB(data_dir, startup_timeout_s).start()
        where = f"{server.socket_path} (embedded, data dir {data_dir})"
        try:
            db = _connect(where, lambda: FalkorDB(unix_socket_path=str(server.socket_path)))
        except StoreUnavailableError:
            server.stop()
            raise
        return cls(db, graph_name, dimension=dimension, where=where, server=server)

    @classmethod
    def from_url(
        cls, url: str, graph_name: str = "loregraph", *, dimension: int = 384
    ) -> FalkorDBStore:
        """Connect to a FalkorDB server: ``redis://host:port``, ``falkor://…``, ``unix:///…``."""
        where = redact(url)
        db = _connect(where, lambda: FalkorDB.from_url(url))
        return cls(db, graph_name, dimension=dimension, where=where)

    @property
    def server(self) -> EmbeddedFalkorDB | None:
        """The embedded engine this store owns, if any."""
        return self._server

    def close(self) -> None:
        """Close the connections (``from_url`` hands its pool to the client, which would not
        close it) and stop the embedded engine if this store started it."""
        try:
            self._db.close()
            self._db.connection.connection_pool.disconnect()
        finally:
            if self._server is not None:
                self._server.stop()

    def __enter__(self) -> FalkorDBStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------ schema

    def _create_index(self, name: str) -> None:
        if name in _VECTOR_MIGRATIONS:
            return  # exact vector search: no index (see the module docstring)
        try:
            self._call(name, partial(self._schema_statement, name))
        except StoreError as exc:
            if "already indexed" not in str(exc):
                raise

    def _schema_statement(self, name: str) -> None:
        """Run one index statement. On the embedded engine it gets ``SCHEMA_TIMEOUT_S`` to
        answer (creating an index only starts its population, so it answers at once): an
        engine that does not is hung (see ``EmbeddedFalkorDB.restart_hung``), and is
        restarted and the statement sent once more."""
        params = {"dimension": self.dimension}
        if self._server is None:
            self._graph.query(self._q(name), params)
            return
        query = self._graph._build_params_header(params) + self._q(name)
        for attempt in (1, 2):
            client: Any = redis.Redis(  # redis-py's execute_command is untyped
                unix_socket_path=str(self._server.socket_path),
                socket_timeout=self.SCHEMA_TIMEOUT_S,
            )
            try:
                client.execute_command("GRAPH.QUERY", self.graph_name, query, "--compact")
                return
            except redis.exceptions.TimeoutError:
                if attempt == 2 or not self._server.restart_hung():
                    raise
            finally:
                client.close()

    def _drop_vector_indexes(self) -> None:
        found = {index.label for index in self._found_indexes() if index.kind == "vector"}
        dropped = False
        for label, (name, _) in _VECTOR_LABELS.items():
            if label in found:
                logger.info("dropping the vector index of :%s (exact search now)", label)
                self._call(name, partial(self._graph.query, self._q(name)))
                dropped = True
        if dropped and self._server is not None:
            # the compact base still holds the index, rebuilt at every start until rewritten
            self._call("BGREWRITEAOF", self._db.connection.bgrewriteaof)

    def _stored_dimensions(self) -> list[tuple[IndexSpec, int]]:
        wrong = []
        for spec in EXPECTED_INDEXES:
            if spec.kind != "vector":
                continue
            rows = self._read(_VECTOR_LABELS[spec.label][1], {})
            if rows and len(rows[0]["embedding"]) != self.dimension:
                wrong.append((spec, len(rows[0]["embedding"])))
        return wrong

    # ------------------------------------------------------------ dialect hooks

    def _fulltext_query(self, words: Sequence[str]) -> str:
        return "|".join(words)  # RediSearch: any of the words

    def server_version(self) -> str:
        info = self._call("INFO", lambda: self._db.connection.info("server"))
        modules = self._call("MODULE LIST", lambda: self._db.connection.module_list())
        graph = next((m for m in modules if _text(m.get("name")) == "graph"), None)
        module = f", FalkorDB module {_module_version(graph['ver'])}" if graph else ""
        return f"Redis {info.get('redis_version', '?')}{module}"

    def _found_indexes(self) -> list[FoundIndex]:
        """One entry per label and kind (FalkorDB keeps one index per label, with one
        status: ``OPERATIONAL`` or ``[Indexing] n/m: UNDER CONSTRUCTION``)."""
        found = []
        for row in self._read("indexes_list", {}):
            state = _state(str(row["status"]))
            by_kind: dict[str, list[str]] = {}
            for prop, kinds in row["types"].items():
                for kind in kinds:
                    by_kind.setdefault(kind.lower(), []).append(prop)
            for kind, props in by_kind.items():
                if kind != "vector":
                    found.append(FoundIndex(None, row["label"], kind, tuple(props), state))
                    continue
                for prop in props:  # one vector index per property, each with its dimension
                    dimension = row["options"].get(prop, {}).get("dimension")
                    found.append(FoundIndex(None, row["label"], kind, (prop,), state, dimension))
        return found

    def _schema_hints(self) -> SchemaHints:
        fresh = "another LOREGRAPH_GRAPH_NAME" + (
            ", or another LOREGRAPH_DATA_DIR" if self._server is not None else ""
        )
        return SchemaHints(
            drop=partial(_drop_statement, self.graph_name), fresh_store=fresh, exact_vectors=True
        )

    # ------------------------------------------------------------ execution

    def _read(self, name: str, params: dict[str, Any]) -> list[Row]:
        if not self._graph_exists():
            return []
        return self._call(name, partial(_read_rows, self._graph, self._q(name), params))

    def _graph_exists(self) -> bool:
        """Whether the graph key exists. Reads never touch a missing graph: FalkorDB 4.16.3
        answers them with an error, and under load that error path can leave a lock held so
        that the next write that creates the graph hangs the server (seen here ~1 in 15)."""
        if not self._exists:
            exists = self._call("exists", lambda: self._db.connection.exists(self.graph_name))
            self._exists = bool(exists)
        return self._exists

    def _execute(self, statements: Sequence[Statement]) -> None:
        """Run ``statements`` in one MULTI/EXEC; raise on the first failed reply (the ones
        before it stay applied: see the module docstring)."""
        pipe = self._db.connection.pipeline(transaction=True)
        for name, params in statements:
            query = self._graph._build_params_header(params) + self._q(name)
            pipe.execute_command("GRAPH.QUERY", self.graph_name, query, "--compact")
        replies = self._call("transaction", lambda: pipe.execute(raise_on_error=False))
        for (name, _), reply in zip(statements, replies, strict=True):
            self._call(name, partial(_check_reply, self._graph, reply))

    def _call(self, name: str, action: Callable[[], _T]) -> _T:
        try:
            return action()
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise _unavailable(self.where, exc) from exc
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"FalkorDB statement {name!r} failed: {exc}") from exc


# ---------------------------------------------------------------- connection helpers


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _module_version(version: int) -> str:
    """FalkorDB encodes 4.16.3 as 41603."""
    return f"{version // 10000}.{version // 100 % 100}.{version % 100}"


def _connect(where: str, factory: Callable[[], Any]) -> Any:
    try:
        return factory()
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
        raise _unavailable(where, exc) from exc
    except ValueError as exc:  # redis-py's answer to a URL it cannot parse
        raise ConfigError(
            f"bad FalkorDB URL {where}: {exc}. Set LOREGRAPH_FALKORDB_URL to "
            "redis://[:password@]host:6379 (or rediss://, unix:///path/to/socket)."
        ) from exc


def _unavailable(where: str, exc: Exception) -> StoreUnavailableError:
    return unavailable(
        "FalkorDB", where, exc, "Start it or check LOREGRAPH_FALKORDB_URL / the data dir."
    )


def _state(status: str) -> str:
    """FalkorDB's index status in Neo4j's words: ONLINE, or POPULATING with its progress."""
    if status == "OPERATIONAL":
        return "ONLINE"
    if "UNDER CONSTRUCTION" in status:
        progress = re.search(r"(\d+)/(\d+)", status)
        return f"POPULATING ({progress[1]} of {progress[2]} indexed)" if progress else "POPULATING"
    return status


def _drop_statement(graph: str, spec: IndexSpec) -> str:
    """The redis-cli command that drops the index of ``spec``."""
    kind = {"vector": "VECTOR ", "fulltext": "FULLTEXT "}.get(spec.kind, "")
    props = ", ".join(f"n.{prop}" for prop in spec.properties)
    return f'GRAPH.QUERY {graph} "DROP {kind}INDEX FOR (n:{spec.label}) ON ({props})"'


def _read_rows(graph: Any, query: str, params: dict[str, Any]) -> list[Row]:
    """The rows of a read-only query as dicts; none while the graph does not exist yet."""
    try:
        result = graph.ro_query(query, params)
    except redis.exceptions.ResponseError as exc:
        if _EMPTY_GRAPH in str(exc):
            return []
        raise
    columns = [column[1] for column in result.header]
    return [dict(zip(columns, values, strict=True)) for values in result.result_set]


def _check_reply(graph: Any, reply: Any) -> None:
    """Raise the error a GRAPH.QUERY reply carries (a failed reply or a run-time error)."""
    if isinstance(reply, Exception):
        raise reply
    QueryResult(graph, reply)
