"""The dialect-agnostic half of every Cypher graph store.

:class:`CypherStore` implements the whole ``GraphStore`` port over two primitives a vendor
adapter supplies — ``_read(name, params) -> rows`` and ``_write(statements)``, atomic — and a
few dialect hooks (index creation, full-text query syntax, server version, index listing).
Statements are loaded by name from ``cypher/`` in the adapter's dialect; vector similarity is
converted to cosine inside each dialect's search statement. A method added here lands on
every backend at once.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime
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
    StoreHealth,
    Visibility,
)
from graphrag_core.ports import SearchKind
from graphrag_core.stores import rows as r
from graphrag_core.stores.analytics_store import (
    ANALYTICS_INDEXES,
    ANALYTICS_MIGRATIONS,
    AnalyticsStore,
)
from graphrag_core.stores.extraction_store import ExtractionStore
from graphrag_core.stores.rows import Row
from graphrag_core.stores.statements import BATCH_SIZE, Statement, batched, delta_statements

__all__ = ["BATCH_SIZE", "EXPECTED_INDEXES", "MIGRATIONS", "CypherStore", "Statement"]

MIGRATIONS: tuple[str, ...] = (
    "migration_entity_index",
    "migration_chunk_index",
    "migration_source_index",
    "migration_change_index",
    "migration_changeset_index",
    "migration_entity_vector_index",
    "migration_chunk_vector_index",
    "migration_entity_fulltext_index",
    "migration_chunk_fulltext_index",
    *ANALYTICS_MIGRATIONS,
)
"""Applied in this order, each once per database, recorded as a ``Migration`` node."""

EXPECTED_INDEXES: frozenset[str] = (
    frozenset(
        f"{label}:{kind}"
        for label, kind in [
            *((label, "range") for label in ("Entity", "Chunk", "Source", "Change", "ChangeSet")),
            *((label, kind) for label in ("Entity", "Chunk") for kind in ("vector", "fulltext")),
        ]
    )
    | ANALYTICS_INDEXES
)
"""``label:type`` of every index the migrations create (what ``doctor`` checks)."""

_PLURAL: dict[str, str] = {"entity": "entities", "chunk": "chunks"}
_MIN_FETCH = 64
_FETCH_GROWTH = 4
_MAX_FETCH_ROUNDS = 6
_WORD = re.compile(r"\w+")


class CypherStore(AnalyticsStore, ExtractionStore, ABC):
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
    def _write(self, statements: Sequence[Statement]) -> None:
        """Run ``statements`` atomically: all of them or none."""

    @abstractmethod
    def _create_index(self, name: str) -> None:
        """Run migration ``name``; an index that already exists is not an error."""

    @abstractmethod
    def _fulltext_query(self, words: Sequence[str]) -> str:
        """A full-text query matching any of ``words`` (plain ``\\w+`` tokens)."""

    @abstractmethod
    def server_version(self) -> str:
        """The server's product and version, for ``doctor``."""

    @abstractmethod
    def _index_names(self) -> set[str]:
        """``label:type`` (lower-case type) of every index the database has."""

    @abstractmethod
    def close(self) -> None: ...

    def _q(self, name: str) -> str:
        return cypher.load(name, self.dialect)

    # ------------------------------------------------------------ schema and health

    def migrate(self) -> None:
        applied = self.migrations_applied()
        for name in MIGRATIONS:
            if name not in applied:
                self._create_index(name)
                now = datetime.now(UTC).isoformat()
                self._write([("migration_record", {"name": name, "applied_at": now})])

    def migrations_applied(self) -> set[str]:
        return {row["name"] for row in self._read("migrations_applied", {})}

    def health(self) -> StoreHealth:
        """Reachability, version, migrations and indexes, each problem with what to do."""
        base = {"kind": self.kind, "where": self.where, "migrations_expected": MIGRATIONS}
        try:
            version = self.server_version()
            applied = self.migrations_applied()
            missing = sorted(EXPECTED_INDEXES - self._index_names())
        except StoreError as exc:
            return StoreHealth(**base, reachable=False, problems=(str(exc),))
        problems = []
        if pending := [name for name in MIGRATIONS if name not in applied]:
            problems.append(
                f"{len(pending)} migration(s) not applied ({', '.join(pending)}): run any "
                "loregraph command that opens the store (e.g. `loregraph campaigns`)."
            )
        if missing:
            problems.append(
                f"indexes missing: {', '.join(missing)}. Run `loregraph campaigns` to create "
                "them; if they stay missing, a migration was recorded but its index dropped: "
                "delete the Migration nodes and run it again."
            )
        return StoreHealth(
            **base,
            reachable=True,
            version=version,
            migrations_applied=tuple(name for name in MIGRATIONS if name in applied),
            indexes_missing=tuple(missing),
            problems=tuple(problems),
        )

    # ------------------------------------------------------------ campaigns and sources

    def list_campaigns(self) -> list[str]:
        rows = self._read("campaigns_list", {})
        return sorted({row["campaign"] for row in rows if row["campaign"] is not None})

    def delete_campaign(self, campaign: str) -> None:
        self._write([("campaign_delete", {"campaign": campaign})])

    def load_sources(self, campaign: str) -> dict[str, SourceRecord]:
        rows = self._read("sources_load", {"campaign": campaign})
        return {row["path"]: SourceRecord(**row) for row in rows}

    # ------------------------------------------------------------ base graph

    def apply_delta(self, campaign: str, delta: GraphDelta) -> None:
        statements = delta_statements(campaign, delta, self.dimension)
        if statements:
            self._write(statements)

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
        self._write(
            [("changeset_append", header), *batched("changes_append", campaign, "rows", rows)]
        )

    def load_changes(self, campaign: str) -> list[Change]:
        return [r.to_change(row) for row in self._read("changes_load", {"campaign": campaign})]


def unavailable(product: str, where: str, exc: Exception, what_to_do: str) -> StoreUnavailableError:
    return StoreUnavailableError(f"{product} is not reachable at {where}: {exc}. {what_to_do}")
