"""Preview items and expansions by handle: one place that knows the three kinds."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from graphrag_core.analytics_models import CommunityView
from graphrag_core.errors import RequestError
from graphrag_core.models import CampaignView, RankedResult
from graphrag_core.ports import TokenCounter
from ranking.context import communities as comm
from ranking.context.entities import (
    EntityStatus,
    Neighbourhood,
    entity_gist,
    expand_entity,
    key_relations,
)
from ranking.context.handles import Handle, community_handle, entity_handle, passage_handle
from ranking.context.markdown import render_expansion
from ranking.context.models import Expansion, PreviewItem
from ranking.context.passages import expand_passage, passage_gist, passage_name


def expansion(
    handle: Handle, view: CampaignView, communities: Mapping[str, CommunityView]
) -> Expansion:
    """The full expansion of ``handle``; an error naming it when the audience has no such item
    (a GM-only item reads exactly like a missing one to a player)."""
    if handle.kind == "entity" and handle.id in view.entities:
        return expand_entity(view, handle.id)
    if handle.kind == "passage" and handle.id in view.chunks:
        return expand_passage(view, view.chunks[handle.id])
    if handle.kind == "community" and handle.id in communities:
        return comm.expand_community(view, communities[handle.id])
    audience = "" if "gm" in view.visibilities else " for players"
    raise RequestError(
        f"unknown handle {str(handle)!r} in campaign {view.campaign!r}{audience}: "
        "take handles from `loregraph preview`"
    )


def _cost(
    build: Callable[[], Expansion], handle: str, counter: TokenCounter, near: Neighbourhood
) -> int:
    """Tokens of the handle's full expansion, counted once per view (the view is immutable)."""
    if handle not in near.costs:
        near.costs[handle] = counter.count(render_expansion(build()))
    return near.costs[handle]


def entity_item(
    view: CampaignView, entity_id: str, counter: TokenCounter, near: Neighbourhood
) -> PreviewItem:
    entity, status = view.entities[entity_id], EntityStatus(view, entity_id)
    return PreviewItem(
        handle=entity_handle(entity_id),
        kind="entity",
        type=entity.type,
        name=entity.name,
        status=status.status,
        available=status.available,
        status_note="; ".join(p for p in (status.note, status.details) if p),
        status_change=status.change,
        gist=entity_gist(view, entity_id),
        relations=key_relations(view, entity_id, near),
        cites=(status.change,) if status.change else (),
        expand_tokens=_cost(
            lambda: expand_entity(view, entity_id, near), entity_handle(entity_id), counter, near
        ),
    )


def passage_item(
    view: CampaignView, result: RankedResult, counter: TokenCounter, near: Neighbourhood
) -> PreviewItem:
    chunk = view.chunks[result.id]
    return PreviewItem(
        handle=passage_handle(chunk.id),
        kind="passage",
        type="passage",
        name=passage_name(chunk),
        status=result.status,
        available=result.available,
        status_note=result.status_note,
        gist=passage_gist(chunk),
        cites=(passage_handle(chunk.id),),
        expand_tokens=_cost(
            lambda: expand_passage(view, chunk), passage_handle(chunk.id), counter, near
        ),
    )


def community_item(
    view: CampaignView, community: CommunityView, counter: TokenCounter, near: Neighbourhood
) -> PreviewItem:
    members = comm.member_names(view, community)
    return PreviewItem(
        handle=community_handle(community.id),
        kind="community",
        type="community",
        name=community.title,
        gist=comm.community_gist(community),
        relations=tuple(f"member {name}" for name in members[: comm.KEY_MEMBERS]),
        cites=(community_handle(community.id),),
        expand_tokens=_cost(
            lambda: comm.expand_community(view, community),
            f"{community_handle(community.id)}@{community.version}:{hash(community.summary)}",
            counter,
            near,
        ),
    )


def _ranked_item(
    view: CampaignView,
    result: RankedResult,
    counter: TokenCounter,
    near: Neighbourhood,
    communities: Mapping[str, CommunityView],
) -> PreviewItem | None:
    """The preview of one ranked result (a ranker that ranks communities itself gives them
    the kind ``community``); None for anything the view does not hold."""
    kind = str(result.kind)
    if kind == "entity" and result.id in view.entities:
        return entity_item(view, result.id, counter, near)
    if kind == "passage" and result.id in view.chunks:
        return passage_item(view, result, counter, near)
    if kind == "community" and result.id in communities:
        return community_item(view, communities[result.id], counter, near)
    return None


def preview_items(
    view: CampaignView,
    results: Sequence[RankedResult],
    communities: Sequence[CommunityView],
    counter: TokenCounter,
    k: int,
) -> list[PreviewItem]:
    """Ranked entities and passages, with the communities of the best of them placed after
    their best-ranked member, ``k`` items at most, each once."""
    scores = {r.id: r.score for r in results if r.kind == "entity"}
    near = Neighbourhood.of(view)
    by_id = {c.id: c for c in communities}
    ranked: list[tuple[float, int, PreviewItem]] = []
    for n, result in enumerate(results):
        item = _ranked_item(view, result, counter, near, by_id)
        if item is not None:
            ranked.append((result.score, n, item))
    for community, _ in comm.communities_for(communities, scores, max(1, k // 5)):
        best = max(scores.get(m, 0.0) for m in community.members)
        ranked.append((best, len(results), community_item(view, community, counter, near)))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    unique = {item.handle: item for _, _, item in reversed(ranked)}  # the best of duplicates
    return [item for _, _, item in ranked if unique.get(item.handle) is item][:k]
