"""One analytics build as named stages: graph → metrics → communities → stable ids →
summaries. Pure: the service reads the store, calls :func:`build_snapshot`, embeds and saves.

Summaries are kept from the previous snapshot when their community kept its id and the facts
the audience may see are unchanged (same fingerprint): a rebuild after a session re-summarises
only the communities whose members that session's changes touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_core.analytics.communities import level0_membership
from graphrag_core.analytics.graph_input import build_graph
from graphrag_core.analytics.llm_summaries import llm_summary
from graphrag_core.analytics.runners import AnalyticsRunner
from graphrag_core.analytics.stable_ids import assign_ids
from graphrag_core.analytics.summaries import extractive_summary
from graphrag_core.analytics_models import (
    AnalyticsSnapshot,
    Community,
    CommunitySummary,
    EntityMetrics,
)
from graphrag_core.models import CampaignView
from graphrag_core.ports import ChatModel, NullProgress, ProgressListener
from graphrag_core.settings import AnalyticsSettings


@dataclass(frozen=True)
class BuildOutcome:
    snapshot: AnalyticsSnapshot
    resummarised: int
    reused_ids: int


def build_snapshot(
    gm_view: CampaignView,
    party_view: CampaignView,
    previous: AnalyticsSnapshot | None,
    settings: AnalyticsSettings,
    *,
    runner: AnalyticsRunner,
    built_at: str,
    chat: ChatModel | None = None,
    progress: ProgressListener | None = None,
) -> BuildOutcome:
    """The new snapshot of ``gm_view.campaign``; ``previous`` gives ids, warm start, summaries."""
    progress = progress or NullProgress()
    graph = build_graph(list(gm_view.entities.values()), gm_view.relations)
    progress.start("centrality", None)
    metrics = runner.metrics(graph)
    progress.finish("centrality")
    progress.start("communities", None)
    raw = runner.communities(graph, previous.membership if previous else {})
    old = previous.communities if previous else ()
    communities, counters = assign_ids(raw, old, previous.counters if previous else {}, settings)
    progress.finish("communities")
    summaries, fresh = _summaries(
        communities, (gm_view, party_view), metrics, previous, settings, chat, progress
    )
    titled = _titled(communities, summaries)
    snapshot = AnalyticsSnapshot(
        campaign=gm_view.campaign,
        built_at=built_at,
        last_rebuild_session=max((c.session_id for c in gm_view.changes.values()), default=0),
        algorithm=runner.name,
        metrics=metrics,
        communities=tuple(titled),
        summaries=tuple(summaries),
        membership=level0_membership(raw),
        counters=counters,
    )
    old_ids = {c.id for c in old}
    reused = sum(1 for c in communities if c.id in old_ids)
    return BuildOutcome(snapshot, fresh, reused)


def _summaries(
    communities: Sequence[Community],
    views: tuple[CampaignView, CampaignView],
    metrics: dict[str, EntityMetrics],
    previous: AnalyticsSnapshot | None,
    settings: AnalyticsSettings,
    chat: ChatModel | None,
    progress: ProgressListener,
) -> tuple[list[CommunitySummary], int]:
    """Every community's summary per audience, and how many were written anew."""
    progress.start("summaries", len(communities))
    result: list[CommunitySummary] = []
    fresh = 0
    for community in communities:
        for view in views:
            summary = extractive_summary(community, view, metrics, settings)
            if summary is None:
                continue
            kept = previous.summary(community.id, summary.visibility) if previous else None
            if kept is not None and kept.fingerprint == summary.fingerprint:
                result.append(kept)
                continue
            result.append(llm_summary(summary, chat) if chat is not None else summary)
            fresh += 1
        progress.advance("summaries")
    progress.finish("summaries")
    return result, fresh


def _titled(
    communities: Sequence[Community], summaries: Sequence[CommunitySummary]
) -> list[Community]:
    """Communities carrying their GM summary's title."""
    titles = {s.community_id: s.title for s in summaries if s.visibility == "gm"}
    return [c.model_copy(update={"title": titles.get(c.id, "")}) for c in communities]
