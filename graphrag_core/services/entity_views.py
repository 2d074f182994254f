"""What ``loregraph entity NAME`` shows: one entity as the audience may see it now."""

from __future__ import annotations

from extraction.resolution import EntityResolver
from graphrag_core.errors import UnknownEntityError
from graphrag_core.models import CampaignView, Change, EntityView


def resolve_entity(view: CampaignView, name: str) -> str:
    """The id of the entity ``name`` denotes in this view (id, name or visible alias)."""
    resolver = EntityResolver(list(view.entities.values()))
    entity_id = resolver.resolve(name)
    if entity_id is None or entity_id not in view.entities:
        raise UnknownEntityError(name, resolver.suggest(name))
    return entity_id


def entity_view(view: CampaignView, name: str) -> EntityView:
    entity = view.entities[resolve_entity(view, name)]
    state = view.states.get(entity.id)
    changes = _changes_touching(entity.id, view)
    status_change = view.changes.get(state.status_change) if state and state.status_change else None
    sources = set(entity.sources)
    sources.update(
        c.source_path
        for c in view.chunks.values()
        if c.subject == entity.id or entity.id in c.mentions
    )
    relations = tuple(r for r in view.relations if entity.id in (r.source, r.target))
    named = {r.source for r in relations} | {r.target for r in relations}
    named |= {end for c in changes for end in (c.entity_id, c.target_id) if end}
    return EntityView(
        id=entity.id,
        name=entity.name,
        type=entity.type,
        aliases=entity.aliases,
        gm_aliases=entity.gm_aliases,
        base_status=entity.status,
        status=state.status if state else entity.status,
        status_assumed=state.status_assumed if state else False,
        attitude=state.attitude if state else None,
        status_change=status_change,
        description=entity.description,
        profile=view.profile(entity.id),
        gm_notes=entity.gm_notes,
        attributes=entity.attributes,
        relations=relations,
        sources=tuple(sorted(sources)),
        changes=changes,
        visibility=entity.visibility,
        names={i: view.entities[i].name for i in sorted(named) if i in view.entities},
        mentioned_sessions=view.mentioned_sessions.get(entity.id, ()),
    )


def _changes_touching(entity_id: str, view: CampaignView) -> tuple[Change, ...]:
    """The view's effective changes about the entity, newest first."""
    touching = [c for c in view.changes.values() if entity_id in (c.entity_id, c.target_id)]
    return tuple(sorted(touching, key=lambda c: (c.session_id, c.seq), reverse=True))
