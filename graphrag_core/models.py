"""Boundary objects of loregraph: pure data, validated, frozen where they are values.

Ids are canonical slugs (``torven-blackwater``), unique within a campaign. Every piece of
content carries a ``visibility``: ``party`` (players may see it) or ``gm`` (secret).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, computed_field, model_validator

Visibility = Literal["gm", "party"]
Attitude = Literal["allied", "neutral", "hostile"]

ENTITY_TYPES: tuple[str, ...] = (
    "NPC",
    "PC",
    "Location",
    "Faction",
    "Item",
    "Deity",
    "Creature",
    "Event",
    "Quest",
    "Other",
)
"""The entity taxonomy; extensible through settings (``extra_entity_types``)."""

STATUS_VOCABULARY: dict[str, tuple[str, ...]] = {
    "NPC": ("alive", "dead", "missing", "unknown", "captured"),
    "PC": ("alive", "dead", "missing", "unknown", "captured"),
    "Creature": ("alive", "dead", "missing", "unknown", "captured"),
    "Deity": ("active", "dormant", "dead", "unknown"),
    "Location": ("intact", "damaged", "destroyed", "abandoned", "unknown"),
    "Faction": ("active", "disbanded", "unknown"),
    "Item": ("present", "lost", "destroyed", "unknown"),
    "Event": ("upcoming", "ongoing", "past", "unknown"),
    "Quest": ("open", "completed", "failed", "abandoned", "unknown"),
    "Other": ("unknown",),
}
"""Allowed statuses per entity type; the first one is the default."""

_STILL_THERE: tuple[str, ...] = ("alive", "intact", "active", "present", "open")


def assumed_status(entity_type: str, later: str | None = None) -> str | None:
    """The status of an entity no source gives one: its type's default when that means "still
    there" (an NPC is ``alive``, a place ``intact``, a quest ``open``; an event or an ``Other``
    has none). For a type without one, ``later`` (the first status a change gives the entity)
    picks it: a thing that dies later was ``alive`` until then, one destroyed was ``intact``."""
    statuses = STATUS_VOCABULARY.get(entity_type, ())
    if statuses and statuses[0] in _STILL_THERE:
        return statuses[0]
    if later is None:
        return None
    for vocabulary in STATUS_VOCABULARY.values():
        if later in vocabulary and vocabulary[0] in _STILL_THERE:
            return vocabulary[0]
    return None


INACTIVE_STATUSES: frozenset[str] = frozenset(
    {"dead", "destroyed", "disbanded", "lost", "abandoned", "failed", "missing", "captured"}
)
"""Statuses that mean "not available now": such items are demoted unless the question is
historical."""

RELATION_TYPES: tuple[str, ...] = (
    "ruled_by",
    "member_of",
    "leads",
    "allied_with",
    "hostile_to",
    "located_in",
    "contains",
    "owned_by",
    "owns",
    "sacred_to",
    "worships",
    "killed_by",
    "knows",
    "related_to",
    "employs",
    "works_for",
    "guards",
    "seeks",
    "created_by",
    "parent_of",
    "married_to",
    "rival_of",
    "serves",
    "mentions",
)
"""The relation taxonomy; unknown relation types map to ``related_to``."""

PARTY_ID = "party"
"""The canonical id of the player characters' group."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ProfileSentence(_Model):
    """One sentence of a campaign's party-visible prose that names an entity, cited."""

    text: str
    chunk_id: str = Field(description="The chunk the sentence is in (its citation).")
    source_path: str = Field(description="The source file of that chunk.")
    session: int | None = Field(default=None, description="The session, for a session record.")


class Entity(_Model):
    """A typed thing of the world: an NPC, a place, a faction, ..."""

    id: str = Field(description="Canonical slug, unique within the campaign.")
    name: str = Field(description="Canonical display name.")
    type: str = Field(description="Entity type from the taxonomy, e.g. NPC or Location.")
    aliases: tuple[str, ...] = Field(default=(), description="Other names players use.")
    gm_aliases: tuple[str, ...] = Field(
        default=(), description="Secret names only the game master may see."
    )
    status: str | None = Field(default=None, description="Base status before any changelog.")
    visibility: Visibility = Field(default="party", description="gm: the whole entity is secret.")
    description: str = Field(default="", description="Player-safe description.")
    gm_notes: str = Field(default="", description="GM-only notes about the entity.")
    attributes: dict[str, str] = Field(
        default_factory=dict, description="Typed attributes, e.g. from YAML front matter."
    )
    sources: tuple[str, ...] = Field(default=(), description="Source paths that define it.")
    profile: tuple[ProfileSentence, ...] = Field(
        default=(),
        description="Derived at ingest, never authored: the best sentences of the party-visible "
        "prose that name the entity, for an entity whose description is empty or short "
        "(see extraction.profiles).",
    )


class Relation(_Model):
    """A typed, directed edge between two entities."""

    source: str = Field(description="Entity id the relation starts from.")
    target: str = Field(description="Entity id the relation points to.")
    type: str = Field(description="Relation type from the taxonomy, e.g. located_in.")
    attitude: Attitude | None = Field(default=None, description="Attitude of source to target.")
    visibility: Visibility = "party"
    description: str = ""
    source_path: str = Field(default="", description="Source file the relation came from.")
    chunk_id: str | None = Field(default=None, description="Chunk that states the relation.")
    change_id: str | None = Field(
        default=None,
        description="Changelog change that started it (effective views only; never stored).",
    )
    evidence: Literal["stated", "co_occurrence"] = Field(
        default="stated",
        description="stated: a source says it; co_occurrence: the two are only named in one "
        "sentence with no relation recognised (a weaker link).",
    )

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.source, self.type, self.target)


class SourceUpload(_Model):
    """A source file's bytes as they arrive over a surface (an HTTP upload, an MCP argument),
    with the campaign path it is ingested under."""

    path: str = Field(description="Path in the campaign, '/'-separated: lore/bestiary.md.")
    data: bytes


class SourceDocument(_Model):
    """One ingested file, as read from disk."""

    path: str = Field(description="Path relative to the ingest root, '/'-separated.")
    kind: Literal["markdown", "text", "vault", "worldpack", "pdf", "epub"]
    sha256: str
    text: str
    pages: tuple[int, ...] = Field(
        default=(),
        description="PDF: the offset in ``text`` where each page (EPUB: chapter) starts.",
    )
    outline: tuple[tuple[int, int, str], ...] = Field(
        default=(),
        description="PDF, EPUB: headings found, as (offset in ``text``, level from 1, title).",
    )


class Chunk(_Model):
    """A contiguous substring of a source: ``text == source.text[start:end]``."""

    id: str = Field(description="Stable id: source path + ordinal + content hash prefix.")
    source_path: str
    start: int
    end: int
    text: str
    content_hash: str
    heading: str = Field(default="", description="Heading path, e.g. 'Waterdeep > Taverns'.")
    visibility: Visibility = "party"
    mentions: tuple[str, ...] = Field(default=(), description="Entity ids the chunk mentions.")
    subject: str | None = Field(
        default=None, description="Entity id the chunk is primarily about, if any."
    )
    session: int | None = Field(
        default=None,
        description="Session number when the source is a session record (a recap).",
    )
    page: int | None = Field(
        default=None, description="1-based page number when the source is a PDF."
    )


class Extraction(_Model):
    """Everything an extractor produced from a set of sources."""

    entities: tuple[Entity, ...] = ()
    relations: tuple[Relation, ...] = ()
    chunks: tuple[Chunk, ...] = ()


class SourceRecord(_Model):
    """What the store remembers of an ingested source (for idempotent re-ingest)."""

    path: str
    sha256: str
    kind: str
    chunk_count: int = 0
    extractor: str = Field(
        default="",
        description="The extractor and its code version that read it (offline:<code>, "
        "llm:<code>; see extraction.version); empty in a store written before it was recorded. "
        "A source read by another is read again.",
    )


# ---------------------------------------------------------------- changelog


ChangeKind = Literal["entity_status", "entity_property", "relationship"]


class Change(_Model):
    """One atomic, stored change from a session change set. Never mutates the base graph."""

    id: str = Field(description="Stable id: 's<session>-r<revision>-<seq>'.")
    session_id: int
    revision: int = 1
    seq: int
    kind: ChangeKind
    entity_id: str = Field(description="Canonical id of the changed entity (or relation source).")
    target_id: str | None = Field(default=None, description="Relation target, for relationships.")
    relation_type: str | None = None
    field: str = Field(description="'status', a property name, or 'attitude'.")
    old_value: str | None = None
    new_value: str
    details: dict[str, Any] = Field(default_factory=dict)
    visibility: Visibility = "party"
    source: str = Field(default="", description="Where the change came from (file, job).")


class ChangeSetRecord(_Model):
    """The stored header of a posted change set, or of a withdrawal (``withdraws`` set).

    A withdrawal is itself a revision of its session that holds no changes: it takes revision
    ``withdraws`` of that session out of effect from session ``at_session`` on (as-of views
    before ``at_session`` still show it). Nothing is ever deleted."""

    session_id: int
    revision: int
    content_hash: str
    source: str = Field(
        description="The file or job a post came from; who withdrew, for a withdrawal."
    )
    posted_at: str
    title: str = ""
    change_count: int = 0
    withdraws: int | None = Field(
        default=None, description="On a withdrawal: the revision of this session it withdraws."
    )
    at_session: int | None = Field(
        default=None,
        description="On a withdrawal: the session from which it takes effect; as-of views "
        "before it still show the withdrawn changes.",
    )
    note: str = Field(default="", description="Why it was withdrawn (a withdrawal's note).")

    @property
    def is_withdrawal(self) -> bool:
        return self.withdraws is not None


class UpdateDifference(_Model):
    """One entity or relationship update that two revisions of a session do not share."""

    kind: ChangeKind
    entity_id: str
    entity: str = Field(description="The entity's name (its id when it has none).")
    target_id: str | None = None
    target: str | None = Field(default=None, description="The relationship target's name.")
    field: str = Field(description="'status', a property name, or 'attitude'.")
    stored: str | None = Field(description="The stored revision's new value; null: it lacks it.")
    posted: str | None = Field(description="The posted change set's value; null: it lacks it.")
    visibility: Visibility = "party"

    def words(self) -> str:
        what = f"{self.entity} {self.field}"
        if self.target is not None:
            what = f"{self.entity} → {self.target} {self.field}"
        if self.posted is None:
            return f"stored has {what} {self.stored!r}, the posted one lacks it"
        if self.stored is None:
            return f"posted has {what} {self.posted!r}, the stored one lacks it"
        return f"{what}: stored {self.stored!r}, posted {self.posted!r}"


class ChangeSetDifference(_Model):
    """What a conflicting post differs in from the session's stored latest revision."""

    session_id: int
    stored_revision: int
    stored_source: str
    updates: tuple[UpdateDifference, ...] = Field(
        default=(), description="Every update one side has and the other lacks or sets otherwise."
    )
    hidden: int = Field(
        default=0, description="Differences in GM-only stored updates left out for this caller."
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> tuple[str, ...]:
        """The differences in plain words, one line each."""
        lines = tuple(update.words() for update in self.updates)
        if self.hidden:
            lines += (f"{self.hidden} GM-only stored update(s) differ too",)
        return lines or ("the same updates, other wording (title, notes or details)",)

    def for_gm(self, gm: bool) -> ChangeSetDifference:
        """This difference as a caller may see it: without GM-only stored updates unless
        ``gm``."""
        if gm:
            return self
        secret = [u for u in self.updates if u.visibility == "gm" and u.stored is not None]
        kept = tuple(u for u in self.updates if u not in secret)
        return self.model_copy(update={"updates": kept, "hidden": self.hidden + len(secret)})

    def message(self, limit: int = 3) -> str:
        """The one-line refusal: what differs (the first ``limit``) and what to do."""
        shown = "; ".join(self.summary[:limit])
        more = len(self.summary) - limit
        if more > 0:
            shown += f"; and {more} more"
        return (
            f"session {self.session_id} was already posted with different content "
            f"(revision {self.stored_revision}, {self.stored_source}): {shown}; pass --amend "
            "(HTTP: ?amend=true) to post a correction that supersedes it"
        )


class EffectiveState(_Model):
    """An entity's state after applying the changelog to the base graph."""

    entity_id: str
    status: str | None
    status_change: str | None = Field(default=None, description="Change id that set the status.")
    status_session: int | None = None
    status_assumed: bool = Field(
        default=False,
        description="No source or change gives a status: ``status`` is the type's default "
        "(``models.assumed_status``).",
    )
    attitude: Attitude | None = Field(default=None, description="Attitude toward the party.")
    attitude_change: str | None = None
    properties: dict[str, str] = Field(default_factory=dict)
    relation_attitudes: dict[str, Attitude] = Field(
        default_factory=dict, description="Attitude toward other entities, keyed by entity id."
    )

    @property
    def inactive(self) -> bool:
        return self.status in INACTIVE_STATUSES or self.attitude == "hostile"


def base_state(entity: Entity, later: str | None = None) -> EffectiveState:
    """The entity's state before any change: its base status, or the status it is assumed to
    have when no source gives one (:func:`assumed_status`; ``later`` is the first status a
    change gives it, for a type without a default)."""
    if entity.status:
        return EffectiveState(entity_id=entity.id, status=entity.status)
    assumed = assumed_status(entity.type, later)
    return EffectiveState(entity_id=entity.id, status=assumed, status_assumed=assumed is not None)


# ---------------------------------------------------------------- search and answers


class ScoredId(_Model):
    id: str
    score: float


class Citation(_Model):
    kind: Literal["chunk", "change", "source"]
    id: str
    source: str = Field(description="File path, or change set source.")
    quote: str = Field(default="", description="The cited text, possibly shortened.")
    session_id: int | None = None
    page: int | None = Field(default=None, description="Page of a PDF source, from 1.")


class RankedResult(_Model):
    """One answer item, best first in ``AskResult.results``."""

    id: str
    kind: Literal["entity", "passage", "community"]
    name: str
    type: str = Field(description="Entity type, 'passage' or 'community'.")
    status: str | None = Field(description="Effective status after the changelog.")
    status_assumed: bool = Field(
        default=False,
        description="No source or change gives a status: ``status`` is the type's default.",
    )
    attitude: Attitude | None = None
    available: bool = Field(description="False when dead/destroyed/hostile/... now.")
    availability: Literal["available", "unavailable"] = Field(
        default="available", description="``available`` in words (set from it)."
    )
    score: float
    signals: dict[str, float]
    citations: tuple[Citation, ...] = ()
    text: str = Field(default="", description="Gist (entity) or passage text.")
    status_note: str = Field(default="", description="Why the status is what it is.")
    members: tuple[str, ...] = Field(
        default=(), description="A community's member entity ids, most central first."
    )
    names: tuple[str, ...] = Field(
        default=(),
        description="A passage's subject and the entities it names, or a community's members: "
        "the ones the ranker scored for this question first, best first, then the rest (a "
        "passage: in the order it writes them; a community: most central first).",
    )
    former: tuple[str, ...] = Field(
        default=(),
        description="Entity ids of this result (itself, or among ``names``) that a change tied "
        "to what the question names along the relation it asks about and that nothing ties now "
        "(a former holder, leader or member): no answer to a question about now. Empty for a "
        "historical question.",
    )

    @model_validator(mode="after")
    def _availability_in_words(self) -> RankedResult:
        words = "available" if self.available else "unavailable"
        if self.availability != words:
            object.__setattr__(self, "availability", words)
        return self


class AskResult(_Model):
    question: str
    campaign: str
    as_player: bool
    historical: bool
    as_of_session: int | None = None
    results: tuple[RankedResult, ...]
    preset: str = Field(default="", description="The weight preset the ranker used.")
    note: str = Field(
        default="", description="Why there are no results, when nothing fits the question."
    )


class EntityView(_Model):
    """Everything ``loregraph entity NAME`` shows."""

    id: str
    name: str
    type: str
    aliases: tuple[str, ...]
    gm_aliases: tuple[str, ...] = Field(default=(), description="Secret aliases (GM view only).")
    base_status: str | None
    status: str | None
    status_assumed: bool = Field(
        default=False,
        description="No source or change gives a status: ``status`` is the type's default.",
    )
    attitude: Attitude | None
    status_change: Change | None
    description: str
    profile: tuple[ProfileSentence, ...] = Field(
        default=(),
        description="Derived from the sources, not authored: the sentences of the prose this "
        "view may see that name the entity, best first, each citing its chunk.",
    )
    gm_notes: str = ""
    attributes: dict[str, str]
    relations: tuple[Relation, ...]
    sources: tuple[str, ...]
    changes: tuple[Change, ...]
    visibility: Visibility
    names: dict[str, str] = Field(
        default_factory=dict,
        description="Display names of the entities its relations and changes name, by id.",
    )
    mentioned_sessions: tuple[int, ...] = Field(
        default=(),
        description="Sessions whose records (recaps) mention the entity, ascending.",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def first_session(self) -> int | None:
        """The first session whose record mentions the entity."""
        return self.mentioned_sessions[0] if self.mentioned_sessions else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def last_session(self) -> int | None:
        """The last session whose record mentions the entity."""
        return self.mentioned_sessions[-1] if self.mentioned_sessions else None


# ---------------------------------------------------------------- LLM ledger and GM decisions


class LedgerStage(_Model):
    """LLM usage of one pipeline stage in one run."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0


GmDecisionKind = Literal["merge", "split", "alias_add"]


class GmDecision(_Model):
    """A game master's correction of entity resolution, replayed after every extraction.

    merge: ``subject`` merges into ``target``. split: ``names`` leave ``subject`` and become an
    entity of their own (``target`` is its id). alias_add: ``names`` become aliases of
    ``subject``. Ids can move when the sources change, so the names and types the ids had
    are kept too: a replay checks them and finds the entity by name and type if need be."""

    seq: int = Field(description="Order of the decision within the campaign, from 1.")
    kind: GmDecisionKind
    subject: str = Field(description="Canonical id the decision is about.")
    target: str = Field(default="", description="merge: the id kept; split: the new id.")
    names: tuple[str, ...] = Field(default=(), description="split / alias_add: the names.")
    reason: str = Field(default="", description="Why, in the game master's words.")
    decided_at: str = ""
    subject_name: str = Field(
        default="", description="The subject's name when decided (checked on replay)."
    )
    subject_type: str = Field(default="", description="The subject's type when decided.")
    target_name: str = Field(default="", description="merge: the kept entity's name.")
    target_type: str = Field(default="", description="merge: the kept entity's type.")


# ---------------------------------------------------------------- reports


class IngestReport(_Model):
    """What one ingest run did; also written as the run's manifest."""

    campaign: str
    root: str
    files: dict[str, str] = Field(description="Ingested path -> SHA-256.")
    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    recovered: tuple[str, ...] = Field(
        default=(), description="Files that failed last time and read again now (re-extracted)."
    )
    outdated: tuple[str, ...] = Field(
        default=(),
        description="Unchanged files read again because another extractor (or an older version "
        "of this one) read them last.",
    )
    failures: dict[str, str] = Field(default_factory=dict, description="Path -> reason.")
    entities: int = 0
    relations: int = 0
    chunks: int = 0
    embedded: int = Field(default=0, description="Texts embedded in this run.")
    wrote: bool = Field(default=False, description="False when nothing had to change.")
    extractor: str = Field(default="offline", description="offline, or llm:<model>.")
    ledger: dict[str, LedgerStage] = Field(
        default_factory=dict, description="LLM usage per stage (extract, repair, glean, ...)."
    )
    extraction_records: tuple[str, ...] = Field(
        default=(), description="Chunks that failed, types and relations pruned, merges made."
    )
    decision_warnings: tuple[str, ...] = Field(
        default=(),
        description="GM decisions that did not replay as stored: skipped, or applied to an "
        "entity found by another id (also in extraction_records).",
    )


class GraphDelta(_Model):
    """What one ingest writes to the store, applied atomically.

    ``vectors`` maps chunk and entity ids to their embeddings; an upserted item without an
    entry keeps the vector it already has in the store.
    """

    sources_upsert: tuple[SourceRecord, ...] = ()
    sources_removed: tuple[str, ...] = ()
    chunks_upsert: tuple[Chunk, ...] = ()
    chunks_removed: tuple[str, ...] = ()
    entities_upsert: tuple[Entity, ...] = ()
    entities_removed: tuple[str, ...] = ()
    relations_upsert: tuple[Relation, ...] = ()
    relations_removed: tuple[tuple[str, str, str], ...] = Field(
        default=(), description="(source, type, target) keys."
    )
    vectors: dict[str, tuple[float, ...]] = Field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (
            self.sources_upsert
            or self.sources_removed
            or self.chunks_upsert
            or self.chunks_removed
            or self.entities_upsert
            or self.entities_removed
            or self.relations_upsert
            or self.relations_removed
        )


class ChatReply(_Model):
    """One chat-model completion."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str = ""
    finish_reason: str = Field(default="", description="'stop', 'length' (cut off), ...")
    retries: int = Field(default=0, description="Retries the adapter needed (429, 5xx, ...).")


class CampaignView(_Model):
    """The read-side snapshot of one campaign as one audience may see it.

    Built by the application service from the store and the changelog overlay; for a player
    view every GM-only entity, alias, note, relation, chunk and change is already gone.
    """

    campaign: str
    visibilities: tuple[Visibility, ...]
    entities: dict[str, Entity]
    relations: tuple[Relation, ...]
    chunks: dict[str, Chunk]
    states: dict[str, EffectiveState] = Field(description="Effective state per entity id.")
    changes: dict[str, Change] = Field(description="Visible changes by id, for citations.")
    as_of_session: int | None = None
    mentioned_sessions: dict[str, tuple[int, ...]] = Field(
        default_factory=dict,
        description="Entity id -> the sessions (ascending) whose visible session-record "
        "chunks name it (as subject or mention), up to ``as_of_session``.",
    )

    _relation_changes: dict[str, tuple[str, ...]] | None = PrivateAttr(default=None)
    _chunks_by_entity: dict[str, tuple[tuple[int, Chunk], ...]] | None = PrivateAttr(default=None)

    @property
    def as_player(self) -> bool:
        return "gm" not in self.visibilities

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy whose indexes are built again (``update`` may change what they index)."""
        copied = super().model_copy(update=update, deep=deep)
        copied._relation_changes = None
        copied._chunks_by_entity = None
        return copied

    def relation_changes(self, entity_id: str) -> tuple[str, ...]:
        """Ids of the visible changes that started a relation of ``entity_id``, in relation
        order; indexed on first use (a result cited them by scanning every relation: 40 ms
        of each ``ask`` at 10k entities)."""
        if self._relation_changes is None:
            index: dict[str, list[str]] = {}
            for relation in self.relations:
                if relation.change_id and relation.change_id in self.changes:
                    for end in dict.fromkeys((relation.source, relation.target)):
                        index.setdefault(end, []).append(relation.change_id)
            self._relation_changes = {key: tuple(ids) for key, ids in index.items()}
        return self._relation_changes.get(entity_id, ())

    def profile(self, entity_id: str) -> tuple[ProfileSentence, ...]:
        """The entity's derived profile cut to this view: only sentences whose chunk the view
        holds and its audience may see (an as-of view holds no later session's record)."""
        entity = self.entities.get(entity_id)
        if entity is None:
            return ()
        return tuple(
            s
            for s in entity.profile
            if (c := self.chunks.get(s.chunk_id)) is not None and c.visibility in self.visibilities
        )

    def profile_text(self, entity_id: str) -> str:
        """The visible profile's sentences as one text (empty when there is none)."""
        return " ".join(s.text for s in self.profile(entity_id))

    def chunks_naming(self, entity_id: str) -> tuple[tuple[int, Chunk], ...]:
        """The visible chunks about (0) or mentioning (1) ``entity_id``, in chunk order;
        indexed on first use (a result scanned every chunk for its citations)."""
        if self._chunks_by_entity is None:
            index: dict[str, list[tuple[int, Chunk]]] = {}
            for chunk in self.chunks.values():
                if chunk.visibility not in self.visibilities:
                    continue
                for named in dict.fromkeys((chunk.subject or "", *chunk.mentions)):
                    if named:
                        rank = 0 if chunk.subject == named else 1
                        index.setdefault(named, []).append((rank, chunk))
            self._chunks_by_entity = {key: tuple(pairs) for key, pairs in index.items()}
        return self._chunks_by_entity.get(entity_id, ())


class StoreHealth(_Model):
    """What ``loregraph doctor`` reports about the configured graph store."""

    kind: str = Field(description="The store kind: falkordb-embedded, falkordb or neo4j.")
    where: str = Field(description="Where the store is (URL or data dir), without secrets.")
    reachable: bool
    version: str = ""
    migrations_expected: tuple[str, ...] = ()
    migrations_applied: tuple[str, ...] = ()
    indexes_missing: tuple[str, ...] = Field(
        default=(), description="Expected indexes (label:type) the store does not have."
    )
    problems: tuple[str, ...] = Field(
        default=(), description="Each problem found, with what to do about it."
    )

    @property
    def healthy(self) -> bool:
        return self.reachable and not self.problems
