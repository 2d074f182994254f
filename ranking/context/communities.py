"""One community: its preview (title, first finding, main members) and its expansion (every
finding, patched from the overlay, citing its entities and changes; its members)."""

from __future__ import annotations

from collections.abc import Sequence
from threading import Lock

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
    ties; a community none of whose members ranked is left out. Only the communities of the
    ranked members are looked at (:func:`member_index`)."""
    index = member_index(communities)
    sums: dict[int, float] = {}
    for member in sorted(scores):  # one order for every community: equal sets, equal sums
        for row in index.get(member, ()):
            sums[row] = sums.get(row, 0.0) + scores[member]
    kept = [(communities[row], total) for row, total in sums.items() if total > 0.0]
    kept.sort(key=lambda pair: (-pair[1], pair[0].size, pair[0].id))
    return kept[:limit]


def member_index(communities: Sequence[CommunityView]) -> dict[str, tuple[int, ...]]:
    """Entity id → the rows of ``communities`` it is a member of; built once per sequence (the
    service keeps its community views, so a warm preview pays a lookup: the memo holds the
    sequence, so its ``id`` stays unique)."""
    with _MEMO_LOCK:
        kept = _MEMO.get(id(communities))
        if kept is not None and kept[0] is communities:
            return kept[1]
    found: dict[str, list[int]] = {}
    for row, community in enumerate(communities):
        for member in community.members:
            found.setdefault(member, []).append(row)
    index = {member: tuple(rows) for member, rows in found.items()}
    with _MEMO_LOCK:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.pop(next(iter(_MEMO)))
        _MEMO[id(communities)] = (communities, index)
    return index


_MEMO: dict[int, tuple[Sequence[CommunityView], dict[str, tuple[int, ...]]]] = {}
_MEMO_SIZE = 8
_MEMO_LOCK = Lock()
