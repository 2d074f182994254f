"""The schema every Cypher store needs: its ordered migrations, the index each one creates,
and the check of what a database really holds against that list (names, state, vector
dimension).

Each migration is one ``cypher/<dialect>/migration_*.cypher`` file, applied once per database
in :data:`MIGRATIONS` order and recorded as a ``(:Migration {name})`` node. A new migration is
appended, never inserted: databases that applied the earlier ones apply only the new one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "EXPECTED_INDEXES",
    "MIGRATIONS",
    "FoundIndex",
    "IndexCheck",
    "IndexKind",
    "IndexSpec",
    "SchemaHints",
    "check_indexes",
    "index_problems",
]

IndexKind = Literal["key", "range", "vector", "fulltext"]
"""``key``: a uniqueness constraint (Neo4j) or, where Cypher has no constraints (FalkorDB,
which runs one write query at a time, so MERGE cannot race), a range index."""


@dataclass(frozen=True)
class IndexSpec:
    """What one migration creates."""

    migration: str
    name: str
    """The index or constraint name (Neo4j names them; FalkorDB does not)."""
    label: str
    kind: IndexKind
    properties: tuple[str, ...]
    """At least these properties (checked where indexes have no names: FalkorDB)."""

    @property
    def key(self) -> str:
        """``label:kind``, as ``StoreHealth.indexes_missing`` lists it."""
        return f"{self.label}:{self.kind}"

    def describe(self) -> str:
        return f"{self.name} ({self.kind} on :{self.label}({', '.join(self.properties)}))"


@dataclass(frozen=True)
class FoundIndex:
    """One index a database reports, in the shape both dialects share."""

    name: str | None
    label: str
    kind: str
    properties: tuple[str, ...]
    state: str = "ONLINE"
    dimension: int | None = None


def _spec(migration: str, name: str, label: str, kind: IndexKind, *props: str) -> IndexSpec:
    return IndexSpec(migration, name, label, kind, props)


EXPECTED_INDEXES: tuple[IndexSpec, ...] = (
    _spec("migration_entity_index", "entity_key", "Entity", "key", "campaign", "id"),
    _spec("migration_chunk_index", "chunk_key", "Chunk", "key", "campaign", "id"),
    _spec("migration_source_index", "source_key", "Source", "key", "campaign", "path"),
    _spec("migration_change_index", "change_key", "Change", "key", "campaign", "id"),
    _spec(
        "migration_changeset_index", "changeset_key", "ChangeSet", "key", "campaign", "session_id"
    ),
    _spec("migration_entity_vector_index", "entity_embedding", "Entity", "vector", "embedding"),
    _spec("migration_chunk_vector_index", "chunk_embedding", "Chunk", "vector", "embedding"),
    _spec(
        "migration_entity_fulltext_index", "entity_search_text", "Entity", "fulltext", "search_text"
    ),
    _spec("migration_chunk_fulltext_index", "chunk_text", "Chunk", "fulltext", "text"),
    _spec(
        "migration_summary_index",
        "community_summary_key",
        "CommunitySummary",
        "range",
        "campaign",
        "id",
    ),
    _spec(
        "migration_summary_vector_index",
        "community_summary_embedding",
        "CommunitySummary",
        "vector",
        "embedding",
    ),
    _spec(
        "migration_analytics_snapshot_index",
        "analytics_snapshot_key",
        "AnalyticsSnapshot",
        "key",
        "campaign",
    ),
    _spec(
        "migration_extraction_cache_index",
        "extraction_cache_key",
        "ExtractionCache",
        "key",
        "campaign",
        "key",
    ),
    _spec("migration_gm_decision_index", "gm_decision_key", "GmDecision", "key", "campaign", "seq"),
    _spec("migration_migration_name_index", "migration_key", "Migration", "key", "name"),
)
"""One per migration, in the order they are applied."""

MIGRATIONS: tuple[str, ...] = tuple(spec.migration for spec in EXPECTED_INDEXES)
"""Applied in this order, each once per database, recorded as a ``Migration`` node."""


@dataclass(frozen=True)
class IndexCheck:
    """How the indexes a database holds compare with :data:`EXPECTED_INDEXES`."""

    missing: tuple[IndexSpec, ...] = ()
    not_online: tuple[tuple[IndexSpec, str], ...] = ()
    wrong_dimension: tuple[tuple[IndexSpec, int], ...] = ()

    @property
    def failed(self) -> tuple[IndexSpec, ...]:
        return tuple(spec for spec, state in self.not_online if state == "FAILED")

    @property
    def blocking(self) -> bool:
        """Whether searches cannot work until someone acts (a populating index is not)."""
        return bool(self.missing or self.wrong_dimension or self.failed)


def check_indexes(
    found: Iterable[FoundIndex],
    dimension: int,
    key_kind: str = "key",
    *,
    exact_vectors: bool = False,
) -> IndexCheck:
    """Compare ``found`` with :data:`EXPECTED_INDEXES`; ``key_kind`` is what stands for a
    ``key`` in this dialect (``range`` on FalkorDB). With ``exact_vectors`` the dialect keeps
    no vector index (it searches vectors exactly, see ``FalkorDBStore``): none is expected."""
    indexes = list(found)
    missing, not_online, wrong = [], [], []
    for spec in EXPECTED_INDEXES:
        if exact_vectors and spec.kind == "vector":
            continue
        match = _find(spec, indexes, key_kind)
        if match is None:
            missing.append(spec)
            continue
        if match.state != "ONLINE":
            not_online.append((spec, match.state))
        if spec.kind == "vector" and match.dimension not in (None, dimension):
            wrong.append((spec, int(match.dimension)))
    return IndexCheck(tuple(missing), tuple(not_online), tuple(wrong))


def _find(spec: IndexSpec, indexes: Sequence[FoundIndex], key_kind: str) -> FoundIndex | None:
    kind = key_kind if spec.kind == "key" else spec.kind
    for index in indexes:
        if index.label != spec.label or index.kind != kind:
            continue
        if index.name == spec.name or (
            index.name is None and set(spec.properties) <= set(index.properties)
        ):
            return index
    return None


@dataclass(frozen=True)
class SchemaHints:
    """Dialect-specific words for the advice: how to drop an index, and how to point
    loregraph at a fresh store."""

    drop: Callable[[IndexSpec], str]
    fresh_store: str
    exact_vectors: bool = False
    """The dialect keeps no vector index: a dimension problem is one of the stored vectors."""


def index_problems(check: IndexCheck, dimension: int, hints: SchemaHints) -> list[str]:
    """One line per problem of ``check``, each with what to do about it."""
    problems = [_missing(spec, hints) for spec in check.missing]
    problems += [_not_online(spec, state, hints) for spec, state in check.not_online]
    if check.wrong_dimension:
        problems.append(_wrong(check.wrong_dimension, dimension, hints))
    return problems


def _forget(spec: IndexSpec) -> str:
    return f"MATCH (m:Migration {{name: '{spec.migration}'}}) DELETE m"


def _missing(spec: IndexSpec, hints: SchemaHints) -> str:
    return (
        f"index {spec.describe()} is missing. Open the store (e.g. `loregraph campaigns`) to "
        "create it. If it stays missing, another index already covers that label and property "
        f"under another name: drop that one, or use a store of loregraph's own "
        f"({hints.fresh_store})."
    )


def _not_online(spec: IndexSpec, state: str, hints: SchemaHints) -> str:
    if state != "FAILED":
        return f"index {spec.describe()} is {state}: searches use it once it is ONLINE; wait."
    return (
        f"index {spec.describe()} FAILED: drop it (`{hints.drop(spec)}`) and its record "
        f"(`{_forget(spec)}`), then open the store again to rebuild it."
    )


def _wrong(wrong: Sequence[tuple[IndexSpec, int]], dimension: int, hints: SchemaHints) -> str:
    if hints.exact_vectors:
        held = ", ".join(f":{spec.label} ({found} dimensions)" for spec, found in wrong)
        return (
            f"the stored vectors of {held} were made by another embedder than this one "
            f"({dimension} dimensions), so vector search cannot work. Use a store of its own "
            f"for this embedder ({hints.fresh_store}) and ingest there."
        )
    held = ", ".join(f"{spec.name} ({found} dimensions)" for spec, found in wrong)
    drops = "; ".join(f"`{hints.drop(spec)}`" for spec, _ in wrong)
    names = ", ".join(f"'{spec.migration}'" for spec, _ in wrong)
    return (
        f"the vector indexes {held} were built for another embedding size than the "
        f"embedder's {dimension} dimensions, so vector search cannot work. Use a "
        f"store of its own for this embedder ({hints.fresh_store}) and ingest there. If this "
        f"store holds nothing you need, drop the indexes ({drops}) and their records "
        f"(`MATCH (m:Migration) WHERE m.name IN [{names}] DELETE m`): the next open recreates "
        f"them with {dimension} dimensions."
    )
