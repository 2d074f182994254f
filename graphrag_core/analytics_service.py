"""The analytics use cases behind ``loregraph build``, ``communities``, ``community`` and
``ask --global``: thin I/O around the pure stages of :mod:`graphrag_core.analytics`."""

from __future__ import annotations

import logging
import time

from graphrag_core.analytics.build import build_snapshot
from graphrag_core.analytics.global_search import map_reduce_answer, summaries_answer
from graphrag_core.analytics.runners import AnalyticsRunner, InProcessRunner
from graphrag_core.analytics_models import (
    AnalyticsSnapshot,
    BuildReport,
    CommunityView,
    GlobalAnswer,
    SummaryHit,
)
from graphrag_core.errors import AnalyticsError
from graphrag_core.models import Visibility
from graphrag_core.ports import ChatModel, Clock, Embedder, GraphStore, ProgressListener
from graphrag_core.settings import AnalyticsSettings
from graphrag_core.views import load_view

logger = logging.getLogger(__name__)


class AnalyticsService:
    """Build, read and search a campaign's analytics snapshot."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        clock: Clock,
        settings: AnalyticsSettings,
        *,
        chat: ChatModel | None = None,
        runner: AnalyticsRunner | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.settings = settings
        self.chat = chat
        self.runner = runner or InProcessRunner(settings)

    def build(self, campaign: str, progress: ProgressListener) -> BuildReport:
        """Compute and atomically store a new snapshot; the old one serves meanwhile."""
        started = time.perf_counter()
        previous = self.store.load_analytics(campaign)
        progress.start("load", None)
        gm_view = load_view(self.store, campaign, as_player=False)
        party_view = load_view(self.store, campaign, as_player=True)
        progress.finish("load")
        outcome = build_snapshot(
            gm_view,
            party_view,
            previous,
            self.settings,
            runner=self.runner,
            built_at=self.clock.now().isoformat(),
            chat=self.chat,
            progress=progress,
        )
        snapshot = outcome.snapshot
        vectors, embedded = self._summary_vectors(campaign, snapshot, previous, progress)
        progress.start("write", None)
        self.store.save_analytics(campaign, snapshot, vectors)
        progress.finish("write")
        return BuildReport(
            campaign=campaign,
            entities=len(gm_view.entities),
            relations=len(gm_view.relations),
            communities=len(snapshot.communities),
            levels=len({c.level for c in snapshot.communities}),
            summaries=len(snapshot.summaries),
            resummarised=outcome.resummarised,
            embedded=embedded,
            reused_ids=outcome.reused_ids,
            algorithm=snapshot.algorithm,
            seconds=round(time.perf_counter() - started, 3),
        )

    def _summary_vectors(
        self,
        campaign: str,
        snapshot: AnalyticsSnapshot,
        previous: AnalyticsSnapshot | None,
        progress: ProgressListener,
    ) -> tuple[dict[str, tuple[float, ...]], int]:
        """Embed new or rewritten summaries; reuse the stored vector of an unchanged one.
        Returns the vectors and how many were embedded anew."""
        texts = {s.key: f"{s.title}\n{s.summary}" for s in snapshot.summaries}
        old_texts = (
            {s.key: f"{s.title}\n{s.summary}" for s in previous.summaries} if previous else {}
        )
        stored = self.store.load_summary_vectors(campaign) if previous else {}
        vectors = {k: stored[k] for k, t in texts.items() if old_texts.get(k) == t and k in stored}
        todo = sorted(k for k in texts if k not in vectors)
        progress.start("embed summaries", len(todo))
        vectors.update(zip(todo, self.embedder.embed([texts[k] for k in todo]), strict=True))
        progress.finish("embed summaries")
        return vectors, len(todo)

    def snapshot(self, campaign: str) -> AnalyticsSnapshot:
        snapshot = self.store.load_analytics(campaign)
        if snapshot is None:
            raise AnalyticsError(
                f"campaign {campaign!r} has no analytics yet: run `loregraph build -c {campaign}`"
            )
        return snapshot

    def communities(
        self, campaign: str, *, as_player: bool, level: int | None = None
    ) -> list[CommunityView]:
        """The communities the audience may see (players: those with a party summary)."""
        snapshot = self.snapshot(campaign)
        views = [
            community_view(snapshot, c.id, _visibility(as_player)) for c in snapshot.communities
        ]
        return [v for v in views if v is not None and (level is None or v.level == level)]

    def community(self, campaign: str, community_id: str, *, as_player: bool) -> CommunityView:
        found = community_view(self.snapshot(campaign), community_id, _visibility(as_player))
        if found is None:
            raise AnalyticsError(
                f"no community {community_id!r} in campaign {campaign!r}: "
                "see `loregraph communities` for the ids"
            )
        return found

    def ask_global(
        self, question: str, campaign: str, *, as_player: bool, k: int | None = None
    ) -> GlobalAnswer:
        """Rank the audience's summaries for ``question``; map-reduce them with a model."""
        snapshot = self.snapshot(campaign)
        k = k or self.settings.global_top_k
        vector = self.embedder.embed([question])[0]
        found = self.store.summary_search(campaign, vector, k, [_visibility(as_player)])
        hits = [h for h in (_hit(snapshot, s.id, s.score, as_player) for s in found) if h]
        if self.chat is None:
            return summaries_answer(question, campaign, as_player, hits)
        return map_reduce_answer(question, campaign, as_player, hits, self.chat)


def _visibility(as_player: bool) -> Visibility:
    return "party" if as_player else "gm"


def community_view(
    snapshot: AnalyticsSnapshot, community_id: str, visibility: Visibility
) -> CommunityView | None:
    community = snapshot.community(community_id)
    summary = snapshot.summary(community_id, visibility)
    if community is None or summary is None:
        return None
    children = tuple(
        c.id
        for c in snapshot.communities
        if c.parent == community_id and snapshot.summary(c.id, visibility) is not None
    )
    parent = community.parent
    if parent is not None and snapshot.summary(parent, visibility) is None:
        parent = None
    return CommunityView(
        id=community.id,
        version=community.version,
        level=community.level,
        parent=parent,
        size=len(summary.members),
        title=summary.title,
        members=summary.members,
        summary=summary.summary,
        findings=summary.findings,
        children=children,
    )


def _hit(snapshot: AnalyticsSnapshot, key: str, score: float, as_player: bool) -> SummaryHit | None:
    """The summary behind a search hit, if it is one the audience may read."""
    community_id, _, visibility = key.partition("@")
    if visibility != _visibility(as_player):
        return None
    summary = snapshot.summary(community_id, visibility)
    community = snapshot.community(community_id)
    if summary is None or community is None:
        return None
    return SummaryHit(
        community_id=community_id,
        level=community.level,
        title=summary.title,
        summary=summary.summary,
        score=round(score, 6),
        findings=summary.findings,
    )
