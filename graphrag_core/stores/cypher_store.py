"""The dialect-agnostic half of every Cypher graph store.

:class:`CypherStore` implements the whole ``GraphStore`` port over two primitives a vendor
adapter supplies — ``_read(name, params) -> rows`` and ``_execute(statements)``, atomic — and a
few dialect hooks (index creation and listing, full-text query syntax, server version).
Every value is checked once before anything is sent: row lists as they are built
(:mod:`rows`), every other parameter by :func:`rows.check_statement`, so a value no store can
hold fails the call with nothing written. Statements are loaded by name from ``cypher/`` in the
adapter's dialect; vector similarity is converted to cosine inside each dialect's search
statement. A method added here lands on every backend at once.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import cypher
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
from graphrag_core.ports import SearchKind
from graphrag_core.stores import rows as r
from graphrag_core.stores.analytics_store import AnalyticsStore
from graphrag_core.stores.extraction_store import ExtractionStore
from graphrag_core.stores.rows import Row
from graphrag_core.stores.schema_store import SchemaStore
from graphrag_core.stores.statements import (
    BATCH_SIZE,
    Statement,
    batched,
    delta_statements,
    revision_bump,
)

__all__ = [
    "BATCH_SIZE",
    "DELETE_BATCH",
    "CypherStore",
    "Statement",
]

DELETE_BATCH = 5000
"""Nodes per transaction when a campaign is deleted."""
_PLURAL: dict[str, str] = {"entity": "entities", "chunk": "chunks"}
_MIN_FETCH = 64
_FETCH_GROWTH = 4
_MAX_FETCH_ROUNDS = 6
_WORD = re.compile(r"\w+")


class CypherStore(SchemaStore, AnalyticsStore, ExtractionStore, ABC):
    """A ``GraphStore`` over one property graph; every node and edge carries its campaign."""

    dialect: ClassVar[cypher.Dialect]

    def __init__(self, *, kind: str, dimension: int, where: str) -> None:
        self.kind = kind
        self.dimension = dimension
        self.where = where

    # ------------------------------------------------------------ vendor primitives

    @abstractmethod
    def _read(self, name: str, params: dict[str, Any]) -> list[Row]:
        """The rows of read-only statement ``name``."""

    @abstractmethod
    def _execute(self, statements: Sequence[Statement]) -> None:
        """Run ``statements`` in one transaction (see the adapter for what a server-side
        failure leaves behind)."""

    @abstractmethod
    def _fulltext_query(self, words: Sequence[str]) -> str:
        """A full-text query matching any of ``words`` (plain ``\\w+`` tokens)."""

    @abstractmethod
    def close(self) -> None: ...

    def _q(self, name: str) -> str:
        return cypher.load(name, self.dialect)

    def _write(self, statements: Sequence[Statement]) -> None:
        """Check the parameters the row builders did not, then run every statement in one
        transaction, which also bumps the revision of every campaign it writes to."""
        for name, params in statements:
            r.check_statement(name, params)
        self._run(statements)

    def _run(self, statements: Sequence[Statement]) -> None:
        """Run checked ``statements`` in one transaction with the revision bumps of every
        campaign written to (:func:`~.statements.revision_bump`)."""
        campaigns = sorted({p["campaign"] for _, p in statements if "campaign" in p})
        self._execute([*statements, *(revision_bump(c, statements) for c in campaigns)])

    def campaign_revision(self, campaign: str) -> int:
        rows = self._read("campaign_revision", {"campaign": campaign})
        return int(rows[0]["revision"]) if rows else 0

    def world_revision(self, campaign: str) -> int:
        rows = self._read("campaign_world_revision", {"campaign": campaign})
        return int(rows[0]["world"]) if rows else 0

    # ------------------------------------------------------------ campaigns and sources

    def list_campaigns(self) -> list[str]:
        rows = self._read("campaigns_list", {})
        return sorted({row["campaign"] for row in rows if row["campaign"] is not None})

    def delete_campaign(self, campaign: str) -> None:
        """Delete every node of ``campaign`` (loregraph's labels only) and its edges, in
        transactions of :data:`DELETE_BATCH` nodes: not atomic, so an interrupted delete is
        simply run again."""
        scope = {"campaign": campaign}
        left = self._read("campaign_nodes_count", scope)[0]["n"]
        while left:
            for _ in range(-(-left // DELETE_BATCH)):
                self._write([("campaign_delete", {**scope, "batch": DELETE_BATCH})])
            before, left = left, self._read("campaign_nodes_count", scope)[0]["n"]
            if left >= before:
                raise StoreError(
                    f"deleting campaign {campaign!r} at {self.where} made no progress "
                    f"({left} nodes left); nothing else was changed. Check the server's log."
                )

    def load_sources(self, campaign: str) -> dict[str, SourceRecord]:
        rows = self._read("sources_load", {"campaign": campaign})
        return {row["path"]: SourceRecord(**row) for row in rows}

    # ------------------------------------------------------------ base graph

    def apply_delta(self, campaign: str, delta: GraphDelta) -> None:
        """The delta in one transaction, then its source records in a second one, only once the
        first succeeded: a source record is ingest's "already read" mark, so it must never be
        stored without the content it marks (FalkorDB cannot roll back a transaction the server
        failed part-way; see the adapter). A crash between the two leaves the content without
        its mark, and the next ingest reads those files again and converges."""
        statements = delta_statements(campaign, delta, self.dimension)
        body = [s for s in statements if s[0] != "sources_upsert"]
        marks = [s for s in statements if s[0] == "sources_upsert"]
        for name, params in statements:  # every value, before anything is sent
            r.check_statement(name, params)
        if body:
            self._run(body)
        if marks:
            self._run(marks)

    def load_entities(self, campaign: str) -> list[Entity]:
        return [r.to_entity(row) for row in self._read("entities_load", {"campaign": campaign})]

    def load_relations(self, campaign: str) -> list[Relation]:
        rows = self._read("relations_load", {"campaign": campaign})
        return [r.to_relation(row) for row in rows]

    def load_chunks(self, campaign: str) -> list[Chunk]:
        return [r.to_chunk(row) for row in self._read("chunks_load", {"campaign": campaign})]

    def load_vectors(self, campaign: str, kind: SearchKind) -> dict[str, tuple[float, ...]]:
        """The stored embedding of every item of ``kind`` that has one, by id."""
        rows = self._read(f"{_PLURAL[kind]}_vectors_load", {"campaign": campaign})
        return {row["id"]: tuple(float(v) for v in row["embedding"]) for row in rows}

    # ------------------------------------------------------------ retrieval

    def vector_search(
        self,
        campaign: str,
        kind: SearchKind,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        """The vector index spans every campaign: fetch more than ``k`` and grow the fetch
        until ``k`` items of this campaign and audience are found or none are left."""
        if k <= 0:
            return []
        name = f"vector_search_{_PLURAL[kind]}"
        scope = {"campaign": campaign, "visibilities": list(visibilities)}
        params = {**scope, "vector": [float(v) for v in vector], "k": k}
        fetch, available = max(k * _FETCH_GROWTH, _MIN_FETCH), None
        for _ in range(_MAX_FETCH_ROUNDS):
            rows = self._read(name, {**params, "fetch": fetch})
            if len(rows) >= k:
                break
            if available is None:
                available = self._read(f"{_PLURAL[kind]}_embeddable_count", scope)[0]["n"]
            if len(rows) >= available:
                break
            fetch *= _FETCH_GROWTH
        return [ScoredId(id=row["id"], score=float(row["similarity"])) for row in rows]

    def fulltext_search(
        self,
        campaign: str,
        kind: SearchKind,
        text: str,
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        """Any of the words of ``text`` (query syntax is stripped, so user text is safe)."""
        words = _WORD.findall(text)
        if k <= 0 or not words:
            return []
        params = {
            "campaign": campaign,
            "visibilities": list(visibilities),
            "query": self._fulltext_query(words),
            "k": k,
        }
        rows = self._read(f"fulltext_search_{_PLURAL[kind]}", params)
        return [ScoredId(id=row["id"], score=float(row["score"])) for row in rows]

    def neighbourhood(
        self,
        campaign: str,
        entity_ids: Sequence[str],
        hops: int,
        visibilities: Sequence[Visibility],
    ) -> dict[str, int]:
        """Breadth-first over RELATED edges in both directions, one query per hop."""
        scope = {"campaign": campaign, "visibilities": list(visibilities)}
        seeds = self._read("neighbourhood_seeds", {**scope, "ids": list(entity_ids)})
        found = {row["id"]: 0 for row in seeds}
        frontier = list(found)
        for hop in range(1, hops + 1):
            if not frontier:
                break
            rows = self._read("neighbourhood_step", {**scope, "ids": frontier})
            frontier = sorted({row["id"] for row in rows} - found.keys())
            found.update(dict.fromkeys(frontier, hop))
        return found

    # ------------------------------------------------------------ changelog

    def load_changesets(self, campaign: str) -> list[ChangeSetRecord]:
        rows = self._read("changesets_load", {"campaign": campaign})
        return [ChangeSetRecord(**row) for row in rows]

    def append_changeset(
        self, campaign: str, record: ChangeSetRecord, changes: Sequence[Change]
    ) -> None:
        header = {
            "campaign": campaign,
            "session_id": record.session_id,
            "revision": record.revision,
            "props": r.checked(f"change set {record.session_id}", r.changeset_props(record)),
        }
        rows = [r.change_row(change) for change in changes]
        body = list(batched("changes_append", campaign, "rows", rows))
        mark: Statement = ("changeset_append", header)
        for name, params in [*body, mark]:  # every value, before anything is sent
            r.check_statement(name, params)
        if body:
            self._run(body)
        self._run([mark])  # the record last: it is what makes a re-post a duplicate

    def load_changes(self, campaign: str) -> list[Change]:
        """The changes of recorded change sets: a change whose record is missing (a post that
        failed between its changes and its record) is not in effect; posting again records
        it."""
        recorded = {(s.session_id, s.revision) for s in self.load_changesets(campaign)}
        rows = self._read("changes_load", {"campaign": campaign})
        changes = [r.to_change(row) for row in rows]
        return [c for c in changes if (c.session_id, c.revision) in recorded]


def unavailable(product: str, where: str, exc: Exception, what_to_do: str) -> StoreUnavailableError:
    reason = str(exc).strip().rstrip(".")
    return StoreUnavailableError(f"{product} is not reachable at {where}: {reason}. {what_to_do}")
