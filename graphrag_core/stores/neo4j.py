"""The Neo4j adapter of the ``GraphStore`` port, over the official ``neo4j`` driver.

The sync driver: the CLI and the application service are synchronous, one call at a time, so
the async driver would only add an event loop around every call. Reads run in
``session.execute_read`` and writes in ``session.execute_write``: managed transactions that
the driver retries on transient errors (deadlocks, leader switches). All statements of one
port call (``apply_delta``, ``append_changeset``) run in ONE write transaction, so a failure
rolls back everything. Writes are batched ``UNWIND`` statements (:data:`BATCH_SIZE` rows).
Every statement is a ``cypher/`` file of dialect ``neo4j``, scoped by ``$campaign``.

Migrations (constraints, vector and full-text indexes, ``IF NOT EXISTS``) run in order, each
recorded as a ``(:Migration {name})`` node. Neo4j's vector score for cosine is
``(1 + cos) / 2``; the search statements convert it back to cosine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

import neo4j
import neo4j.exceptions as ne

import cypher
from graphrag_core.errors import StoreError, StoreUnavailableError
from graphrag_core.stores.cypher_store import (
    BATCH_SIZE,
    MIGRATIONS,
    CypherStore,
    Statement,
    unavailable,
)
from graphrag_core.stores.rows import Row

__all__ = ["BATCH_SIZE", "MIGRATIONS", "Neo4jStore", "lucene_any"]

_LUCENE_SPECIAL = frozenset('+-&|!(){}[]^"~*?:\\/')
_LUCENE_OPERATORS = frozenset({"and", "or", "not"})
_DOWN = (ne.ServiceUnavailable, ne.SessionExpired, ne.AuthError, ne.DatabaseUnavailable)
_RETRY_S = 15.0  # how long a managed transaction retries transient errors
_CONNECT_S = 10.0
_T = TypeVar("_T")


class Neo4jStore(CypherStore):
    """A ``GraphStore`` over one Neo4j database; every node and edge carries its campaign."""

    dialect: ClassVar[cypher.Dialect] = "neo4j"

    def __init__(self, driver: Any, database: str, *, dimension: int, where: str) -> None:
        super().__init__(kind="neo4j", dimension=dimension, where=where)
        self._driver = driver
        self.database = database
        self._verified = False

    @classmethod
    def connect(
        cls,
        uri: str,
        user: str,
        password: str | None,
        database: str = "neo4j",
        *,
        dimension: int = 384,
    ) -> Neo4jStore:
        """Open a driver for ``uri`` (``bolt://``, ``neo4j://``, ``neo4j+s://`` ...); the
        connection itself is checked by the first statement."""
        where = f"{uri} (database {database!r}, user {user!r})"
        try:
            driver = neo4j.GraphDatabase.driver(
                uri,
                auth=(user, password or ""),
                max_transaction_retry_time=_RETRY_S,
                connection_timeout=_CONNECT_S,
            )
        except (ne.ConfigurationError, ValueError) as exc:
            raise StoreError(
                f"bad Neo4j settings for {where}: {exc}. Check LOREGRAPH_NEO4J_URI."
            ) from exc
        return cls(driver, database, dimension=dimension, where=where)

    def close(self) -> None:
        self._driver.close()

    # ------------------------------------------------------------ vendor primitives

    def _read(self, name: str, params: dict[str, Any]) -> list[Row]:
        query = self._q(name)

        def work(tx: Any) -> list[Row]:
            return [dict(record) for record in tx.run(query, params)]

        return self._session(name, lambda session: session.execute_read(work))

    def _write(self, statements: Sequence[Statement]) -> None:
        """All ``statements`` in one managed write transaction (retried when transient)."""
        queries = [(name, self._q(name), params) for name, params in statements]

        def work(tx: Any) -> None:
            for _name, query, params in queries:
                tx.run(query, params).consume()

        label = queries[0][0] if len(queries) == 1 else "transaction"
        self._session(label, lambda session: session.execute_write(work))

    def _create_index(self, name: str) -> None:
        """Schema commands cannot share a transaction with writes: one of their own."""
        self._write([(name, {"dimension": self.dimension})])

    def _fulltext_query(self, words: Sequence[str]) -> str:
        return lucene_any(words)

    def server_version(self) -> str:
        rows = self._read("server_components", {})
        return ", ".join(f"{row['name']} {row['version']} {row['edition']}" for row in rows)

    def _index_names(self) -> set[str]:
        rows = self._read("indexes_list", {})
        return {f"{row['label']}:{str(row['type']).lower()}" for row in rows}

    # ------------------------------------------------------------ errors

    def _session(self, name: str, action: Callable[[Any], _T]) -> _T:
        try:
            if not self._verified:  # a server down from the start fails now, not after retries
                self._driver.verify_connectivity()
                self._verified = True
            with self._driver.session(database=self.database) as session:
                return action(session)
        except _DOWN as exc:
            raise _unavailable(self.where, exc) from exc
        except ne.Neo4jError as exc:
            raise StoreError(
                f"Neo4j statement {name!r} failed ({exc.code}): {exc.message}; "
                "nothing was written by it."
            ) from exc
        except ne.DriverError as exc:
            raise StoreError(f"Neo4j statement {name!r} failed: {exc}") from exc


def _unavailable(where: str, exc: Exception) -> StoreUnavailableError:
    return unavailable(
        "Neo4j",
        where,
        exc,
        "Start the server, or check LOREGRAPH_NEO4J_URI, LOREGRAPH_NEO4J_USER, "
        "LOREGRAPH_NEO4J_PASSWORD and LOREGRAPH_NEO4J_DATABASE.",
    )


def lucene_any(words: Sequence[str]) -> str:
    """A Lucene query matching any of ``words``: special characters escaped, the operator
    words AND / OR / NOT lower-cased so they are searched for, not obeyed."""
    terms = []
    for word in words:
        escaped = "".join(f"\\{ch}" if ch in _LUCENE_SPECIAL else ch for ch in word)
        terms.append(escaped.lower() if escaped.lower() in _LUCENE_OPERATORS else escaped)
    return " OR ".join(term for term in terms if term)
