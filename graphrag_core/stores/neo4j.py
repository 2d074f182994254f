"""The Neo4j adapter of the ``GraphStore`` port, over the official ``neo4j`` driver.

The sync driver: the CLI and the application service are synchronous, one call at a time, so
the async driver would only add an event loop around every call. Reads run in
``session.execute_read`` and writes in ``session.execute_write``: managed transactions that
the driver retries on transient errors (deadlocks, leader switches). All statements of one
port call (``apply_delta``, ``append_changeset``) run in ONE write transaction, so a failure
rolls back everything. Writes are batched ``UNWIND`` statements (:data:`BATCH_SIZE` rows).
Every statement is a ``cypher/`` file of dialect ``neo4j``, scoped by ``$campaign``.

Migrations (constraints, vector and full-text indexes, ``IF NOT EXISTS``) run in order, each
recorded as a ``(:Migration {name})`` node; ``migrate`` then checks the indexes by name, state
and vector dimension (``SHOW INDEXES``). Neo4j's vector score for cosine is ``(1 + cos) / 2``;
the search statements convert it back to cosine. Needs Neo4j :data:`MIN_VERSION` or later
(``CREATE VECTOR INDEX`` is 5.15; ``db.create.setNodeVectorProperty`` 5.13).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

import neo4j
import neo4j.exceptions as ne

import cypher
from graphrag_core.errors import ConfigError, StoreError, StoreUnavailableError
from graphrag_core.stores.cypher_store import BATCH_SIZE, CypherStore, Statement, unavailable
from graphrag_core.stores.rows import Row
from graphrag_core.stores.schema import FoundIndex, IndexSpec, SchemaHints
from graphrag_core.uris import check_neo4j_uri, redact

__all__ = ["BATCH_SIZE", "MIN_VERSION", "Neo4jStore", "lucene_any"]

MIN_VERSION = (5, 15)
"""The oldest Neo4j whose Cypher runs every statement in ``cypher/neo4j`` (CREATE VECTOR INDEX)."""
_LUCENE_SPECIAL = frozenset('+-&|!(){}[]^"~*?:\\/')
_LUCENE_OPERATORS = frozenset({"and", "or", "not"})
_DOWN = (ne.ServiceUnavailable, ne.SessionExpired, ne.DatabaseUnavailable)
_NO_DATABASE = "Neo.ClientError.Database.DatabaseNotFound"
_RETRY_S = 15.0  # how long a managed transaction retries transient errors
_CONNECT_S = 10.0
_SETTINGS = (
    "LOREGRAPH_NEO4J_URI, LOREGRAPH_NEO4J_USER, LOREGRAPH_NEO4J_PASSWORD and "
    "LOREGRAPH_NEO4J_DATABASE"
)
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
        check_neo4j_uri(uri)
        where = f"{redact(uri)} (database {database!r}, user {user!r})"
        try:
            driver = neo4j.GraphDatabase.driver(
                uri,
                auth=(user, password or ""),
                max_transaction_retry_time=_RETRY_S,
                connection_timeout=_CONNECT_S,
            )
        except Exception as exc:  # the driver raises many kinds for a URI it cannot use
            raise ConfigError(
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

        return self._session([name], lambda session: session.execute_read(work), writes=False)

    def _execute(self, statements: Sequence[Statement]) -> None:
        """All ``statements`` in one managed write transaction (retried when transient)."""
        queries = [(name, self._q(name), params) for name, params in statements]
        running = [queries[0][0]]  # the statement an error belongs to

        def work(tx: Any) -> None:
            for name, query, params in queries:
                running[0] = name
                tx.run(query, params).consume()

        self._session(running, lambda session: session.execute_write(work), writes=True)

    def _create_index(self, name: str) -> None:
        """Schema commands cannot share a transaction with writes: one of their own."""
        self._write([(name, {"dimension": self.dimension})])

    def _fulltext_query(self, words: Sequence[str]) -> str:
        return lucene_any(words)

    # ------------------------------------------------------------ schema and version

    def server_version(self) -> str:
        rows = self._read("server_components", {})
        return ", ".join(f"{row['name']} {row['version']} {row['edition']}" for row in rows)

    def _version_problems(self, version: str) -> list[str]:
        found = re.search(r"(\d+)\.(\d+)", version)
        if found is None or (int(found[1]), int(found[2])) >= MIN_VERSION:
            return []
        least = ".".join(map(str, MIN_VERSION))
        return [
            f"{version} is older than Neo4j {least}, the oldest that runs loregraph's "
            f"statements (CREATE VECTOR INDEX): upgrade to {least} or later (5.26 LTS or "
            "2025.x recommended)."
        ]

    def _found_indexes(self) -> list[FoundIndex]:
        """``SHOW INDEXES``: a RANGE index owned by a constraint is a ``key``."""
        found = []
        for row in self._read("indexes_list", {}):
            kind = str(row["type"]).lower()
            if kind == "range" and row["constraint"]:
                kind = "key"
            dimension = row["dimension"]
            found.append(
                FoundIndex(
                    name=row["name"],
                    label=row["label"],
                    kind=kind,
                    properties=tuple(row["properties"] or ()),
                    state=str(row["state"]),
                    dimension=int(dimension) if dimension is not None else None,
                )
            )
        return found

    def _schema_hints(self) -> SchemaHints:
        return SchemaHints(drop=_drop_statement, fresh_store="another LOREGRAPH_NEO4J_DATABASE")

    # ------------------------------------------------------------ errors

    def _session(self, running: list[str], action: Callable[[Any], _T], *, writes: bool) -> _T:
        """Run ``action`` in a session; vendor errors become ours, naming ``running[0]``."""
        try:
            if not self._verified:  # a server down from the start fails now, not after retries
                self._driver.verify_connectivity()
                self._verified = True
            with self._driver.session(database=self.database) as session:
                return action(session)
        except ne.AuthError as exc:
            raise StoreUnavailableError(
                f"Neo4j at {self.where} refused the credentials ({exc.message}): check "
                "LOREGRAPH_NEO4J_USER and LOREGRAPH_NEO4J_PASSWORD."
            ) from exc
        except _DOWN as exc:
            raise _unavailable(self.where, exc) from exc
        except ne.Neo4jError as exc:
            raise _statement_error(running[0], exc, self.database, writes) from exc
        except ne.DriverError as exc:
            raise StoreError(f"Neo4j statement {running[0]!r} failed: {exc}") from exc


def _statement_error(name: str, exc: ne.Neo4jError, database: str, writes: bool) -> StoreError:
    if exc.code == _NO_DATABASE:
        return StoreError(
            f"Neo4j has no database {database!r}: create it (`CREATE DATABASE {database}`, "
            "Enterprise edition) or set LOREGRAPH_NEO4J_DATABASE to one that exists "
            "(`SHOW DATABASES`)."
        )
    rolled_back = "; nothing of this call was written" if writes else ""
    return StoreError(f"Neo4j statement {name!r} failed ({exc.code}): {exc.message}{rolled_back}.")


def _unavailable(where: str, exc: Exception) -> StoreUnavailableError:
    return unavailable("Neo4j", where, exc, f"Start the server, or check {_SETTINGS}.")


def _drop_statement(spec: IndexSpec) -> str:
    return f"DROP {'CONSTRAINT' if spec.kind == 'key' else 'INDEX'} {spec.name}"


def lucene_any(words: Sequence[str]) -> str:
    """A Lucene query matching any of ``words``: special characters escaped, the operator
    words AND / OR / NOT lower-cased so they are searched for, not obeyed."""
    terms = []
    for word in words:
        escaped = "".join(f"\\{ch}" if ch in _LUCENE_SPECIAL else ch for ch in word)
        terms.append(escaped.lower() if escaped.lower() in _LUCENE_OPERATORS else escaped)
    return " OR ".join(term for term in terms if term)
