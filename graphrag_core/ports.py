"""Ports: one small Protocol per external dependency. Adapters implement them; domain code
receives them as arguments and never builds one itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from graphrag_core.analytics_models import AnalyticsSnapshot
from graphrag_core.models import (
    Change,
    ChangeSetRecord,
    ChatReply,
    Chunk,
    Entity,
    GmDecision,
    GraphDelta,
    Relation,
    ScoredId,
    SourceRecord,
    StoreHealth,
    Visibility,
)

SearchKind = Literal["entity", "chunk"]


@runtime_checkable
class CampaignWrites(Protocol):
    """Sources and the base graph of a campaign: what an ingest writes."""

    def list_campaigns(self) -> list[str]: ...

    def load_sources(self, campaign: str) -> dict[str, SourceRecord]: ...

    def apply_delta(self, campaign: str, delta: GraphDelta) -> None:
        """Write one ingest's changes atomically."""

    def delete_campaign(self, campaign: str) -> None: ...


@runtime_checkable
class GraphReads(Protocol):
    """The base graph, loaded whole."""

    def load_entities(self, campaign: str) -> list[Entity]: ...

    def load_relations(self, campaign: str) -> list[Relation]: ...

    def load_chunks(self, campaign: str) -> list[Chunk]: ...

    def load_vectors(self, campaign: str, kind: SearchKind) -> dict[str, tuple[float, ...]]:
        """The stored embedding of every item of ``kind`` that has one, by id."""


@runtime_checkable
class Retrieval(Protocol):
    """Search over entities and chunks, and graph neighbourhoods."""

    def vector_search(
        self,
        campaign: str,
        kind: SearchKind,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        """Nearest items by cosine similarity (higher is closer), best first."""

    def fulltext_search(
        self,
        campaign: str,
        kind: SearchKind,
        text: str,
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]: ...

    def neighbourhood(
        self,
        campaign: str,
        entity_ids: Sequence[str],
        hops: int,
        visibilities: Sequence[Visibility],
    ) -> dict[str, int]:
        """Entity ids within ``hops`` of any given id, with their hop distance (0 for seeds)."""


@runtime_checkable
class ChangelogStore(Protocol):
    """Session change sets: append-only."""

    def load_changesets(self, campaign: str) -> list[ChangeSetRecord]: ...

    def append_changeset(
        self, campaign: str, record: ChangeSetRecord, changes: Sequence[Change]
    ) -> None:
        """Store a change set and its changes atomically, append-only."""

    def load_changes(self, campaign: str) -> list[Change]: ...


@runtime_checkable
class AnalyticsStorage(Protocol):
    """The analytics snapshot and the indexed community summaries."""

    def save_analytics(
        self,
        campaign: str,
        snapshot: AnalyticsSnapshot,
        vectors: Mapping[str, Sequence[float]],
    ) -> None:
        """Replace the campaign's analytics snapshot and its indexed community summaries
        (keyed ``<community id>@<visibility>``, with ``vectors`` by that key) atomically: the
        old snapshot serves until the new one is completely written."""

    def load_analytics(self, campaign: str) -> AnalyticsSnapshot | None:
        """The last complete snapshot, or None before the first build."""

    def load_summary_vectors(self, campaign: str) -> dict[str, tuple[float, ...]]:
        """The stored embedding of every community summary, by summary key."""

    def summary_search(
        self,
        campaign: str,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        """Nearest community summaries (ids ``<community id>@<visibility>``), best first."""


@runtime_checkable
class ExtractionMemory(Protocol):
    """What extraction remembers: the LLM cache and the GM's decisions."""

    def load_extraction_cache(self, campaign: str, keys: Sequence[str]) -> dict[str, str]:
        """Cached LLM extractions (JSON text) for those of ``keys`` that have one."""

    def extraction_cache_keys(self, campaign: str) -> list[str]:
        """Every cached extraction's key (for migration and housekeeping)."""

    def save_extraction_cache(self, campaign: str, entries: Mapping[str, str]) -> None:
        """Store cache entries (key → JSON text) atomically; existing keys are replaced."""

    def load_gm_decisions(self, campaign: str) -> list[GmDecision]:
        """The game master's resolution decisions, in ``seq`` order."""

    def append_gm_decision(self, campaign: str, decision: GmDecision) -> None:
        """Store one decision, append-only (a ``seq`` already stored is left as it is)."""


@runtime_checkable
class StoreAdmin(Protocol):
    """Schema, health, revisions and the connection."""

    def migrate(self) -> None:
        """Create indexes and constraints; idempotent."""

    def close(self) -> None: ...

    def health(self) -> StoreHealth:
        """Reachability, version, migrations and indexes, for ``loregraph doctor``; never
        raises for an unreachable store (it says so in the report)."""

    def campaign_revision(self, campaign: str) -> int:
        """A number every write to ``campaign`` increases (0 before the first): readers
        compare it with the one their caches were built at, so another process's write
        invalidates them too."""

    def world_revision(self, campaign: str) -> int:
        """A number every write to ``campaign`` but the changelog's increases (0 before the
        first): entities, relations, chunks, sources, analytics and the stores' caches move it;
        appending a change set (a post, a withdrawal) does not. What is read only from those
        (not from change sets or changes) stays valid while it stays the same."""


@runtime_checkable
class VectorSearch(Protocol):
    """The nearest-neighbour reads the ranker makes: the store's, or the in-process search over
    a campaign's read snapshot."""

    def vector_search(
        self,
        campaign: str,
        kind: SearchKind,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]: ...

    def summary_search(
        self,
        campaign: str,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]: ...


@runtime_checkable
class SnapshotFiles(Protocol):
    """Named blobs kept per campaign beside the store: the read snapshot, a cache that is safe
    to delete. Every write is atomic (a reader sees the old blob or the new, never half)."""

    @property
    def store_identity(self) -> str:
        """Which store the blobs were read from (a blob of another store is never used)."""

    def read(self, campaign: str, name: str) -> bytes | None:
        """The blob, or None when there is none (or it cannot be read)."""

    def write(self, campaign: str, name: str, data: bytes) -> None: ...

    def delete(self, campaign: str) -> None:
        """Remove every blob of ``campaign``."""


@runtime_checkable
class GraphStore(
    CampaignWrites,
    GraphReads,
    Retrieval,
    ChangelogStore,
    AnalyticsStorage,
    ExtractionMemory,
    StoreAdmin,
    Protocol,
):
    """A campaign-scoped property graph: every role port above, as the one Cypher store
    (FalkorDB, Neo4j) and the in-memory fake of the tests implement it. Every method is scoped
    by ``campaign``; no call ever returns another campaign's data. Writes are atomic: on
    failure nothing is written. Code that needs one role takes that port only."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length vectors."""

    @property
    def model_id(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]: ...


@runtime_checkable
class TokenCounter(Protocol):
    def count(self, text: str) -> int: ...


@runtime_checkable
class ChatModel(Protocol):
    """An OpenAI-compatible chat model. ``json_schema`` asks for structured output of that
    shape (the adapter picks the mechanism the server supports); the reply carries the text
    and the token usage for the ledger."""

    @property
    def model_id(self) -> str: ...

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_schema: dict[str, object] | None = None,
        max_tokens: int = 1024,
    ) -> ChatReply: ...


@runtime_checkable
class Clock(Protocol):
    def now(self) -> datetime: ...


@runtime_checkable
class ProgressListener(Protocol):
    """Long jobs report progress here; only the CLI draws bars."""

    def start(self, task: str, total: int | None) -> None: ...

    def advance(self, task: str, n: int = 1) -> None: ...

    def finish(self, task: str) -> None: ...


class NullProgress:
    """A listener that ignores everything."""

    def start(self, task: str, total: int | None) -> None:
        return None

    def advance(self, task: str, n: int = 1) -> None:
        return None

    def finish(self, task: str) -> None:
        return None
