"""Build the read-side snapshot of a campaign for one audience (GM or players).

This is where visibility is enforced for reads: a player view holds no GM-only entity, secret
alias, GM note, secret relation, GM chunk or secret change, and a visible change's details
(``killed_by: [ashen-choir]``, a note) keep no value that names a GM-only entity or a secret
alias. Each change's ``old_value`` is the value it replaced *in this view*. The sessions each
entity was mentioned in come from the visible chunks only, so a GM-only recap section never tells
players that someone came up in it. Everything downstream (ranker, entity view, previews) works
from the view alone."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from changelog.old_values import with_old_values
from changelog.overlay import effective_changes, effective_states
from changelog.relations import effective_relations, held_until_ended
from graphrag_core.models import (
    PARTY_ID,
    CampaignView,
    Change,
    ChangeSetRecord,
    Chunk,
    Entity,
    Relation,
    Visibility,
)
from graphrag_core.ports import GraphStore

_WORD_SEPARATORS = re.compile(r"[\s_-]+")

GM_VIEW: tuple[Visibility, ...] = ("gm", "party")
PLAYER_VIEW: tuple[Visibility, ...] = ("party",)


def audience(as_player: bool) -> tuple[Visibility, ...]:
    return PLAYER_VIEW if as_player else GM_VIEW


@dataclass(frozen=True)
class StoredCampaign:
    """Everything a view is cut from, as stored (every audience's views share one read)."""

    campaign: str
    entities: tuple[Entity, ...]
    relations: tuple[Relation, ...]
    chunks: tuple[Chunk, ...]
    changes: tuple[Change, ...]
    records: tuple[ChangeSetRecord, ...]
    """The change-set records, withdrawals included: they decide each session's revision."""
    revision: int | None = None
    """The store's campaign revision read just before these were (None: not known)."""
    world_revision: int | None = None
    """The store's world revision read just before the entities, relations and chunks were
    (None: not known)."""

    def view(self, *, as_player: bool, as_of_session: int | None = None) -> CampaignView:
        return build_view(
            self.campaign, self.entities, self.relations, self.chunks, self.changes,
            as_player=as_player, as_of_session=as_of_session, records=self.records,
        )  # fmt: skip


def load_stored(store: GraphStore, campaign: str) -> StoredCampaign:
    return StoredCampaign(
        campaign,
        tuple(store.load_entities(campaign)),
        tuple(store.load_relations(campaign)),
        tuple(store.load_chunks(campaign)),
        tuple(store.load_changes(campaign)),
        tuple(store.load_changesets(campaign)),
    )


def load_view(
    store: GraphStore, campaign: str, *, as_player: bool, as_of_session: int | None = None
) -> CampaignView:
    """Read a campaign from the store and cut it down to what the audience may see."""
    return load_stored(store, campaign).view(as_player=as_player, as_of_session=as_of_session)


def build_view(
    campaign: str,
    entities: Sequence[Entity],
    relations: Sequence[Relation],
    chunks: Sequence[Chunk],
    changes: Sequence[Change],
    *,
    as_player: bool,
    as_of_session: int | None = None,
    records: Sequence[ChangeSetRecord] | None = None,
) -> CampaignView:
    """The audience's view. ``records`` (the change-set records, withdrawals included) decide
    which revision of each session is in effect; a store-backed view must pass them (None:
    the latest revision among ``changes``, for tests and benchmarks without records)."""
    visibilities = audience(as_player)
    visible = {
        e.id: _redact(e) if as_player else e for e in entities if e.visibility in visibilities
    }
    kept_relations = tuple(
        r
        for r in relations
        if r.visibility in visibilities and r.source in visible and r.target in visible
    )
    kept_chunks = {
        c.id: _redact_chunk(c, visible)
        for c in chunks
        if c.visibility in visibilities and not _later(c, as_of_session)
    }
    # Revisions supersede each other across visibilities, so the overlay sees every change
    # and filters itself; the view keeps only the effective, visible ones (for citations).
    kept_changes = with_old_values(
        (
            c
            for c in effective_changes(
                changes, visibilities=visibilities, as_of_session=as_of_session, records=records
            )
            if _known(c.entity_id, visible)
            and (c.target_id is None or _known(c.target_id, visible))
        ),
        visible,
        kept_relations,
    )
    if as_player:
        secrets = secret_names(entities, visible)
        kept_changes = [_redact_details(c, secrets) for c in kept_changes]
    ends = {**visible, **_party(visible)}
    if as_of_session is not None:  # what a later change ends held until then
        later = [
            c
            for c in effective_changes(changes, visibilities=visibilities, records=records)
            if c.session_id > as_of_session
        ]
        kept_relations += held_until_ended(kept_relations, kept_changes, later, ends)
    kept_relations = effective_relations(kept_relations, kept_changes, ends)
    states = effective_states(
        visible,
        list(changes),
        visibilities=visibilities,
        as_of_session=as_of_session,
        records=records,
    )
    return CampaignView(
        campaign=campaign,
        visibilities=visibilities,
        entities=visible,
        relations=kept_relations,
        chunks=kept_chunks,
        states=states,
        changes={c.id: c for c in kept_changes},
        as_of_session=as_of_session,
        mentioned_sessions=mentioned_sessions(kept_chunks.values(), as_of_session),
    )


def _party(visible: dict[str, Entity]) -> dict[str, Entity]:
    """The party as a stand-in entity, so relations to it resolve (only where none exists)."""
    if PARTY_ID in visible:
        return {}
    names = ("party", "player party", "player_party", "the players", "players")
    return {PARTY_ID: Entity(id=PARTY_ID, name="the party", type="PC", aliases=names)}


def mentioned_sessions(
    chunks: Iterable[Chunk], as_of_session: int | None = None
) -> dict[str, tuple[int, ...]]:
    """Entity id -> the sessions, ascending, whose session-record chunks name it (as subject
    or mention); sessions after ``as_of_session`` have not happened yet and are left out."""
    found: dict[str, set[int]] = {}
    for chunk in chunks:
        session = chunk.session
        if session is None or (as_of_session is not None and session > as_of_session):
            continue
        for entity_id in {*chunk.mentions, *((chunk.subject,) if chunk.subject else ())}:
            found.setdefault(entity_id, set()).add(session)
    return {entity_id: tuple(sorted(found[entity_id])) for entity_id in sorted(found)}


def _later(chunk: Chunk, as_of_session: int | None) -> bool:
    """A session record of a session after ``as_of_session``: not retrieved as of then (a
    spoiler-free view)."""
    return as_of_session is not None and chunk.session is not None and chunk.session > as_of_session


def _known(entity_id: str, visible: dict[str, Entity]) -> bool:
    """Visible, or the party (which a campaign need not define as an entity)."""
    return entity_id in visible or entity_id == PARTY_ID


def _redact(entity: Entity) -> Entity:
    """The player-safe copy of a party-visible entity."""
    if not entity.gm_aliases and not entity.gm_notes:
        return entity
    return entity.model_copy(update={"gm_aliases": (), "gm_notes": ""})


def _redact_chunk(chunk: Chunk, visible: dict[str, Entity]) -> Chunk:
    """Drop mentions of entities the audience may not see."""
    mentions = tuple(m for m in chunk.mentions if m in visible)
    subject = chunk.subject if chunk.subject in visible else None
    if mentions == chunk.mentions and subject == chunk.subject:
        return chunk
    return chunk.model_copy(update={"mentions": mentions, "subject": subject})


def secret_names(
    entities: Sequence[Entity], visible: Mapping[str, Entity]
) -> re.Pattern[str] | None:
    """A pattern matching every id, name and alias of a GM-only entity and every secret
    alias, as whole words in any case; ``None`` when there is nothing to hide."""
    terms: set[str] = set()
    for entity in entities:
        if entity.id not in visible:
            terms.update((entity.id, entity.name, *entity.aliases))
        terms.update(entity.gm_aliases)
    kept = sorted({t.strip() for t in terms if len(t.strip()) >= 3}, key=len, reverse=True)
    if not kept:
        return None
    # "Ashen Choir", "ashen-choir" and "Ashen_Choir" are one name
    alternation = "|".join(
        r"[\s_-]+".join(re.escape(part) for part in _WORD_SEPARATORS.split(term)) for term in kept
    )
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE)


def _redact_details(change: Change, secrets: re.Pattern[str] | None) -> Change:
    """The change without the detail values that name a secret."""
    if secrets is None or not change.details:
        return change
    details = _clean(change.details, secrets)
    if details == change.details:
        return change
    return change.model_copy(update={"details": details if isinstance(details, dict) else {}})


def _clean(value: object, secrets: re.Pattern[str]) -> object | None:
    """``value`` without the texts naming a secret; ``None`` when nothing is left of it."""
    if isinstance(value, str):
        return None if secrets.search(value) else value
    if isinstance(value, list | tuple):
        items = [c for c in (_clean(v, secrets) for v in value) if c is not None]
        return items if items or not value else None
    if isinstance(value, dict):
        kept = {k: c for k, v in value.items() if (c := _clean(v, secrets)) is not None}
        return kept if kept or not value else None
    return value
