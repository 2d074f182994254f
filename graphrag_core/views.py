"""Build the read-side snapshot of a campaign for one audience (GM or players).

This is where visibility is enforced for reads: a player view holds no GM-only entity, secret
alias, GM note, secret relation, GM chunk or secret change. Everything downstream (ranker,
entity view, previews) works from the view alone."""

from __future__ import annotations

from collections.abc import Sequence

from changelog.overlay import effective_changes, effective_states
from graphrag_core.models import (
    PARTY_ID,
    CampaignView,
    Change,
    Chunk,
    Entity,
    Relation,
    Visibility,
)
from graphrag_core.ports import GraphStore

GM_VIEW: tuple[Visibility, ...] = ("gm", "party")
PLAYER_VIEW: tuple[Visibility, ...] = ("party",)


def audience(as_player: bool) -> tuple[Visibility, ...]:
    return PLAYER_VIEW if as_player else GM_VIEW


def load_view(
    store: GraphStore, campaign: str, *, as_player: bool, as_of_session: int | None = None
) -> CampaignView:
    """Read a campaign from the store and cut it down to what the audience may see."""
    return build_view(
        campaign,
        store.load_entities(campaign),
        store.load_relations(campaign),
        store.load_chunks(campaign),
        store.load_changes(campaign),
        as_player=as_player,
        as_of_session=as_of_session,
    )


def build_view(
    campaign: str,
    entities: Sequence[Entity],
    relations: Sequence[Relation],
    chunks: Sequence[Chunk],
    changes: Sequence[Change],
    *,
    as_player: bool,
    as_of_session: int | None = None,
) -> CampaignView:
    visibilities = audience(as_player)
    visible = {
        e.id: _redact(e) if as_player else e for e in entities if e.visibility in visibilities
    }
    kept_relations = tuple(
        r
        for r in relations
        if r.visibility in visibilities and r.source in visible and r.target in visible
    )
    kept_chunks = {c.id: _redact_chunk(c, visible) for c in chunks if c.visibility in visibilities}
    # Revisions supersede each other across visibilities, so the overlay sees every change
    # and filters itself; the view keeps only the effective, visible ones (for citations).
    kept_changes = tuple(
        c
        for c in effective_changes(changes, visibilities=visibilities, as_of_session=as_of_session)
        if _known(c.entity_id, visible) and (c.target_id is None or _known(c.target_id, visible))
    )
    states = effective_states(
        visible, list(changes), visibilities=visibilities, as_of_session=as_of_session
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
    )


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
