"""Community summaries as ranked items: found by the store's summary vector search among the
audience's own summaries (a player view searches only the party's), scored like any item, and
turned into a ``RankedResult`` of kind ``community`` whose members come most central first.

A community has no status of its own (its members each have theirs); its centrality and recency
are those of its most central and most recently active member.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from graphrag_core.analytics_models import CommunitySummary
from graphrag_core.models import CampaignView, RankedResult, Visibility
from graphrag_core.ports import VectorSearch
from ranking.documents import ItemKey
from ranking.item_names import by_relevance
from ranking.text import gist

SUMMARY_GIST_CHARS = 300


def audience(view: CampaignView) -> Visibility:
    return "party" if view.as_player else "gm"


def summary_hits(
    store: VectorSearch,
    view: CampaignView,
    summaries: Mapping[str, CommunitySummary],
    vector: Sequence[float],
    k: int,
) -> dict[ItemKey, float]:
    """The audience's nearest summaries (similarity clipped to 0..1), by community key."""
    if not summaries:
        return {}
    wanted = audience(view)
    found: dict[ItemKey, float] = {}
    for hit in store.summary_search(view.campaign, vector, k, [wanted]):
        community_id, _, visibility = hit.id.partition("@")
        if visibility == wanted and community_id in summaries:
            found[ItemKey("community", community_id)] = min(max(hit.score, 0.0), 1.0)
    return found


def ranked_members(members: Iterable[str], centrality: Mapping[str, float]) -> tuple[str, ...]:
    """Members most central first, ties by id."""
    return tuple(sorted(members, key=lambda m: (-centrality.get(m, 0.0), m)))


def community_result(
    key: ItemKey,
    score: float,
    signals: dict[str, float],
    summary: CommunitySummary,
    centrality: Mapping[str, float],
    relevance: Mapping[str, float] | None = None,
    demoted: Collection[str] = (),
) -> RankedResult:
    """``relevance``: the ranker's score of each entity it scored for the question, which
    orders the result's ``names``, the ``demoted`` ones last (see :mod:`ranking.item_names`)."""
    members = ranked_members(summary.members, centrality)
    return RankedResult(
        id=key.id,
        kind="community",
        name=summary.title or key.id,
        type="community",
        status=None,
        available=True,
        score=score,
        signals=signals,
        text=gist(summary.summary, SUMMARY_GIST_CHARS),
        members=members,
        names=by_relevance(members, relevance or {}, demoted),
    )
