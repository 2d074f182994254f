"""One analytics build as named stages, run once per audience (GM, then party): graph →
metrics → communities → stable ids → summaries. Pure: the service reads the store, calls
:func:`build_snapshot`, embeds and saves.

The party's stages see only the party view (party-visible entities, relations and changes), so
its communities, ids, member order and summaries cannot depend on anything GM-only. When an
audience's graph and the clustering settings are unchanged (same fingerprint), its metrics and
communities are kept as they are and clustering is skipped; otherwise every level is
warm-started from the previous communities (:mod:`.communities`). Summaries are kept when
their community kept its id and their facts and recipe are unchanged (:mod:`.summary_writer`):
a rebuild after a session re-summarises only the communities whose visible facts that
session's changes touched.

Changelog updates do not feed clustering: the graph is the base graph from the sources. An
attitude change says how two entities stand now, not whether they belong together, and
re-clustering per session would churn the ids agents hold; the changes reach the summaries
(effective status and attitudes, cited by change id) and their fingerprints instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphrag_core.analytics.communities import Previous
from graphrag_core.analytics.facts import Facts
from graphrag_core.analytics.graph_input import AnalyticsGraph, build_graph
from graphrag_core.analytics.runners import AnalyticsRunner
from graphrag_core.analytics.stable_ids import assign_ids
from graphrag_core.analytics.summaries import community_facts, summary_of
from graphrag_core.analytics.summary_writer import SummaryWriter
from graphrag_core.analytics_models import (
    AnalyticsSnapshot,
    AudienceAnalytics,
    Community,
    CommunitySummary,
    EntityMetrics,
)
from graphrag_core.config import AnalyticsSettings
from graphrag_core.models import CampaignView
from graphrag_core.ports import ChatModel, NullProgress, ProgressListener

ALGORITHM_VERSION = "hierarchical-leiden-v2"
_STRUCTURE = {
    "degree_weight", "betweenness_weight", "pagerank_weight", "betweenness_exact_max_nodes",
    "betweenness_samples", "seed", "resolution", "max_cluster_size", "max_levels",
    "leiden_polish_rounds",
}  # fmt: skip


@dataclass(frozen=True)
class BuildOutcome:
    snapshot: AnalyticsSnapshot
    resummarised: int
    fallbacks: int
    reused_ids: int
    reclustered: bool


@dataclass(frozen=True)
class _Stage:
    """What one build shares between the two audiences."""

    settings: AnalyticsSettings
    runner: AnalyticsRunner
    writer: SummaryWriter
    progress: ProgressListener


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
    stage = _Stage(settings, runner, SummaryWriter(chat, settings), progress or NullProgress())
    gm, gm_new = _audience(stage, gm_view, previous.gm if previous else None)
    party, party_new = _audience(stage, party_view, previous.party if previous else None)
    reclustered = gm_new or party_new  # always, without a previous snapshot
    snapshot = AnalyticsSnapshot(
        campaign=gm_view.campaign,
        built_at=built_at,
        last_rebuild_session=max((c.session_id for c in gm_view.changes.values()), default=0),
        algorithm=previous.algorithm if previous is not None and not reclustered else runner.name,
        gm=gm,
        party=party,
    )
    old_ids = (
        {c.id for c in previous.gm.communities + previous.party.communities} if previous else set()
    )
    reused = sum(1 for c in gm.communities + party.communities if c.id in old_ids)
    writer = stage.writer
    return BuildOutcome(snapshot, writer.written, writer.fallbacks, reused, reclustered)


def _audience(
    stage: _Stage, view: CampaignView, previous: AudienceAnalytics | None
) -> tuple[AudienceAnalytics, bool]:
    """One audience's metrics, communities and summaries; and whether it was re-clustered."""
    name, prefix = ("party", "p") if view.as_player else ("GM", "c")
    graph = build_graph(list(view.entities.values()), view.relations)
    settings = stage.settings
    fingerprint = graph.fingerprint(ALGORITHM_VERSION, settings.model_dump(include=_STRUCTURE))
    reclustered = previous is None or previous.fingerprint != fingerprint
    communities: Sequence[Community]
    if previous is not None and not reclustered:
        metrics, communities, counters = previous.metrics, previous.communities, previous.counters
    else:
        metrics, communities, counters = _cluster(stage, graph, previous, name, prefix)
    summaries = _summaries(stage, communities, Facts.of(view), metrics, previous, name)
    analytics = AudienceAnalytics(
        fingerprint=fingerprint,
        metrics=metrics,
        communities=tuple(_titled(communities, summaries)),
        summaries=tuple(summaries),
        counters=counters,
    )
    return analytics, reclustered


def _cluster(
    stage: _Stage,
    graph: AnalyticsGraph,
    previous: AudienceAnalytics | None,
    name: str,
    prefix: str,
) -> tuple[dict[str, EntityMetrics], Sequence[Community], dict[str, int]]:
    """Centrality, then communities warm-started from ``previous`` with stable ids."""
    stage.progress.start(f"centrality ({name})", None)
    metrics = stage.runner.metrics(graph)
    stage.progress.finish(f"centrality ({name})")
    stage.progress.start(f"communities ({name})", None)
    old = previous.communities if previous else ()
    raw = stage.runner.communities(
        graph, Previous.of((c.id, c.parent, c.level, c.members) for c in old)
    )
    counters = previous.counters if previous else {}
    communities, counters = assign_ids(raw, old, counters, stage.settings, prefix)
    stage.progress.finish(f"communities ({name})")
    return metrics, communities, counters


def _summaries(
    stage: _Stage,
    communities: Sequence[Community],
    facts: Facts,
    metrics: dict[str, EntityMetrics],
    previous: AudienceAnalytics | None,
    name: str,
) -> list[CommunitySummary]:
    """Every community's summary for this audience: kept, or written anew."""
    kept = previous.summaries_by_id() if previous else {}
    task = f"summaries ({name})"
    stage.progress.start(task, len(communities))
    result: list[CommunitySummary] = []
    for community in communities:
        found = community_facts(community, facts)
        if found is not None:
            summary = stage.writer.reused(found.fingerprint, kept.get(community.id))
            if summary is None:
                summary = stage.writer.summary(summary_of(found, facts, metrics, stage.settings))
            result.append(summary)
        stage.progress.advance(task)
    stage.progress.finish(task)
    return result


def _titled(
    communities: Sequence[Community], summaries: Sequence[CommunitySummary]
) -> list[Community]:
    """Communities carrying their summary's title."""
    titles = {s.community_id: s.title for s in summaries}
    return [c.model_copy(update={"title": titles.get(c.id, "")}) for c in communities]
