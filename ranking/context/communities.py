"""One community: its preview (title, first finding, main members) and its expansion (every
finding, patched from the overlay, citing its entities and changes; its members)."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_core.analytics_models import CommunityView, Finding
from graphrag_core.models import CampaignView
from ranking.context.handles import change_handle, community_handle, entity_handle
from ranking.context.models import ContextLine, Expansion
from ranking.text import clip

GIST_CHARS = 140
KEY_MEMBERS = 3


def member_names(view: CampaignView, community: CommunityView) -> list[str]:
    return [view.entities[m].name for m in community.members if m in view.entities]


def community_gist(community: CommunityView) -> str:
    first = community.findings[0].text if community.findings else community.summary
    return clip(first, GIST_CHARS)


def _finding_line(community_id: str, finding: Finding) -> ContextLine:
    cites = (
        community_handle(community_id),
        *(entity_handle(e) for e in finding.entity_ids),
        *(change_handle(c) for c in finding.change_ids),
    )
    return ContextLine(section="summary", text=finding.text, cites=tuple(dict.fromkeys(cites)))


def expand_community(view: CampaignView, community: CommunityView) -> Expansion:
    handle = community_handle(community.id)
    findings = [_finding_line(community.id, f) for f in community.findings]
    if not findings and community.summary:
        findings = [ContextLine(section="summary", text=community.summary, cites=(handle,))]
    members = [
        ContextLine(
            section="fact",
            text=f"member: {view.entities[m].name}",
            cites=(entity_handle(m), handle),
        )
        for m in community.members
        if m in view.entities
    ]
    return Expansion(
        handle=handle,
        kind="community",
        type="community",
        name=community.title,
        header=f"level {community.level}, {community.size} members",
        lines=(*findings, *members),
    )


def communities_for(
    communities: Sequence[CommunityView], scores: dict[str, float], limit: int
) -> list[tuple[CommunityView, float]]:
    """The ``limit`` communities whose ranked members score highest (sum), smaller first on
    ties; a community none of whose members ranked is left out."""
    ranked = scores.keys()
    # most communities hold no ranked member: skip them in C before summing (a warm preview
    # at 10k entities went through ~30k members in Python otherwise)
    scored = [
        (c, sum(scores.get(m, 0.0) for m in c.members))
        for c in communities
        if not ranked.isdisjoint(c.members)
    ]
    kept = [(c, s) for c, s in scored if s > 0.0]
    kept.sort(key=lambda pair: (-pair[1], pair[0].size, pair[0].id))
    return kept[:limit]
