"""The analytics use cases behind ``loregraph build``, ``communities``, ``community`` and
``ask --global``: thin I/O around the pure stages of :mod:`graphrag_core.analytics`.

Every read goes to one audience's analytics only: the GM's communities and summaries, or the
party's (clustered from the party view alone); a player never sees a GM community."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from graphrag_core.analytics.build import BuildOutcome, build_snapshot
from graphrag_core.analytics.global_search import map_reduce_answer, summaries_answer
from graphrag_core.analytics.runners import AnalyticsRunner, InProcessRunner
from graphrag_core.analytics_models import (
    AnalyticsSnapshot,
    AudienceAnalytics,
    BuildReport,
    CommunityView,
    Finding,
    GlobalAnswer,
    SummaryHit,
)
from graphrag_core.config import AnalyticsSettings
from graphrag_core.errors import AnalyticsError
from graphrag_core.models import CampaignView, ScoredId, Visibility
from graphrag_core.ports import ChatModel, Clock, Embedder, GraphStore, ProgressListener
from graphrag_core.services.cache import CampaignCache
from graphrag_core.services.llm_use_cases import require_campaign
from graphrag_core.services.views import StoredCampaign, load_stored

SavedHook = Callable[
    [
        StoredCampaign,
        tuple[CampaignView, CampaignView],
        AnalyticsSnapshot,
        Mapping[str, Sequence[float]],
    ],
    None,
]
"""Told of each stored build: the stored campaign the build read (with the revision read
before it), the GM's and the players' present-day views of it, the new snapshot and its
summary vectors by summary key."""

logger = logging.getLogger(__name__)

FindingPatch = Callable[[tuple[Finding, ...]], tuple[Finding, ...]]
"""Brings a summary's findings up to date with the changelog (see ``ranking.context.stale``)."""


def _unchanged(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    return findings


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
        concurrency: int = 1,
        load: Callable[[str], AnalyticsSnapshot | None] | None = None,
        after_save: SavedHook | None = None,
        revisions: Callable[[str], int] | None = None,
    ) -> None:
        """``load``: how a stored snapshot is read (default: from the store; the service
        passes the read snapshot's); ``after_save``: called with the GM view a build read,
        the new snapshot and its summary vectors, once they are stored; ``revisions``: how
        its caches read a campaign's revision (default: the store's)."""
        self.store = store
        self._load = load or store.load_analytics
        self._after_save = after_save
        self.embedder = embedder
        self.clock = clock
        self.settings = settings
        self.chat = chat
        self.runner = runner or InProcessRunner(settings)
        self.concurrency = concurrency
        revision = revisions or store.campaign_revision
        self._snapshots: CampaignCache[AnalyticsSnapshot | None] = CampaignCache(revision)
        self._communities: CampaignCache[tuple[CommunityView, ...]] = CampaignCache(revision)

    def close(self) -> None:
        close = getattr(self.runner, "close", None)
        if callable(close):
            close()

    def build(
        self,
        campaign: str,
        progress: ProgressListener,
        *,
        previous: AnalyticsSnapshot | None = None,
    ) -> BuildReport:
        """Compute and atomically store a new snapshot; the old one serves meanwhile.
        ``previous``: the stored snapshot, when the caller has already read it."""
        started = time.perf_counter()
        require_campaign(self.store, campaign)
        if previous is None:
            previous = self.stored(campaign)
        progress.start("load", None)
        # before the read: see the hook
        read_at, world_at = (
            self.store.campaign_revision(campaign),
            self.store.world_revision(campaign),
        )
        stored = replace(
            load_stored(self.store, campaign), revision=read_at, world_revision=world_at
        )
        gm_view = stored.view(as_player=False)
        party_view = stored.view(as_player=True)
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
        vectors, embedded = self._summary_vectors(campaign, outcome.snapshot, previous, progress)
        progress.start("write", None)
        self.forget(campaign)
        self.store.save_analytics(campaign, outcome.snapshot, vectors)
        if self._after_save is not None:
            self._after_save(stored, (gm_view, party_view), outcome.snapshot, vectors)
        progress.finish("write")
        return _report(gm_view, outcome, embedded, time.perf_counter() - started)

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
        batch = 256
        for i in range(0, len(todo), batch):
            keys = todo[i : i + batch]
            vectors.update(zip(keys, self.embedder.embed([texts[k] for k in keys]), strict=True))
            progress.advance("embed summaries", len(keys))
        progress.finish("embed summaries")
        return vectors, len(todo)

    def stored(self, campaign: str) -> AnalyticsSnapshot | None:
        """The campaign's stored snapshot (None before its first build), read and parsed
        once, then kept until this service builds or forgets the campaign."""
        return self._snapshots.get(campaign, None, lambda: self._load(campaign))

    def cached_community_views(
        self, campaign: str, key: Hashable, build: Callable[[], list[CommunityView]]
    ) -> Sequence[CommunityView]:
        """An audience's community views (``key`` names the audience and the session), built
        by ``build`` once per campaign revision: patching every finding of every summary from
        the overlay is most of a warm ``preview`` otherwise (~150 ms at 10k entities). The
        same tuple while it is valid (a preview indexes its members once, see
        ``ranking.context.communities.member_index``)."""
        return self._communities.get(campaign, key, lambda: tuple(build()))

    def forget(self, campaign: str) -> None:
        """Drop the kept snapshot of ``campaign`` (its data changed)."""
        self._snapshots.forget(campaign)
        self._communities.forget(campaign)

    def snapshot(self, campaign: str) -> AnalyticsSnapshot:
        """The stored snapshot; an error naming the command to run when there is none."""
        snapshot = self.stored(campaign)
        if snapshot is None:
            raise AnalyticsError(
                f"campaign {campaign!r} has no analytics yet: run `loregraph build -c {campaign}`"
            )
        return snapshot

    def communities(
        self,
        campaign: str,
        *,
        as_player: bool,
        level: int | None = None,
        patch: FindingPatch = _unchanged,
    ) -> list[CommunityView]:
        """The audience's communities (players: the party's own clustering)."""
        analytics = self.snapshot(campaign).audience(_visibility(as_player))
        views = community_views(analytics, patch=patch)
        return [v for v in views if level is None or v.level == level]

    def community(
        self,
        campaign: str,
        community_id: str,
        *,
        as_player: bool,
        patch: FindingPatch = _unchanged,
    ) -> CommunityView:
        analytics = self.snapshot(campaign).audience(_visibility(as_player))
        found = community_views(analytics, community_id, patch=patch)
        if not found:
            raise AnalyticsError(
                f"no community {community_id!r} in campaign {campaign!r}"
                f"{' for players' if as_player else ''}: see `loregraph communities"
                f"{' --as-player' if as_player else ''}` for the ids"
            )
        return found[0]

    def ask_global(
        self,
        question: str,
        campaign: str,
        *,
        as_player: bool,
        k: int | None = None,
        patch: FindingPatch = _unchanged,
    ) -> GlobalAnswer:
        """Rank the audience's summaries for ``question``; map-reduce them with a model.
        ``patch`` brings the findings up to date (or back to an earlier session) first."""
        visibility = _visibility(as_player)
        analytics = self.snapshot(campaign).audience(visibility)
        k = k or self.settings.global_top_k
        vector = self.embedder.embed([question])[0]
        found = self.store.summary_search(campaign, vector, k, [visibility])
        hits = _hits(analytics, found, visibility, patch)
        if self.chat is None:
            return summaries_answer(question, campaign, as_player, hits)
        return map_reduce_answer(
            question, campaign, as_player, hits, self.chat, self.settings, self.concurrency
        )


def _visibility(as_player: bool) -> Visibility:
    return "party" if as_player else "gm"


def _report(
    view: CampaignView, outcome: BuildOutcome, embedded: int, seconds: float
) -> BuildReport:
    snapshot = outcome.snapshot
    return BuildReport(
        campaign=snapshot.campaign,
        entities=len(view.entities),
        relations=len(view.relations),
        communities=len(snapshot.gm.communities),
        party_communities=len(snapshot.party.communities),
        levels=len({c.level for c in snapshot.gm.communities}),
        summaries=len(snapshot.summaries),
        resummarised=outcome.resummarised,
        fallbacks=outcome.fallbacks,
        embedded=embedded,
        reused_ids=outcome.reused_ids,
        reclustered=outcome.reclustered,
        algorithm=snapshot.algorithm,
        seconds=round(seconds, 3),
    )


def community_views(
    analytics: AudienceAnalytics, only: str | None = None, *, patch: FindingPatch = _unchanged
) -> list[CommunityView]:
    """The audience's communities (or just ``only``) with summary and sub-communities, their
    findings passed through ``patch``."""
    summaries = analytics.summaries_by_id()
    children: dict[str, list[str]] = {}
    for c in analytics.communities:
        if c.parent is not None:
            children.setdefault(c.parent, []).append(c.id)
    return [
        CommunityView(
            id=c.id,
            version=c.version,
            level=c.level,
            parent=c.parent,
            size=len(summaries[c.id].members),
            title=summaries[c.id].title,
            members=summaries[c.id].members,
            children=tuple(children.get(c.id, ())),
            **_patched(summaries[c.id].summary, summaries[c.id].findings, patch),
        )
        for c in analytics.communities
        if c.id in summaries and (only is None or c.id == only)
    ]


def _patched(summary: str, findings: tuple[Finding, ...], patch: FindingPatch) -> dict[str, Any]:
    """``summary`` and ``findings`` after ``patch``; the summary is the findings' sentences
    joined, so it is rewritten only when a finding changed."""
    patched = patch(findings)
    if patched == findings:
        return {"summary": summary, "findings": findings}
    return {"summary": " ".join(f.text for f in patched), "findings": patched}


def _hits(
    analytics: AudienceAnalytics,
    found: list[ScoredId],
    visibility: Visibility,
    patch: FindingPatch = _unchanged,
) -> list[SummaryHit]:
    """The summaries behind the search hits that are this audience's, in rank order."""
    summaries = analytics.summaries_by_id()
    levels = {c.id: c.level for c in analytics.communities}
    hits = []
    for scored in found:
        community_id, _, found_visibility = scored.id.partition("@")
        summary = summaries.get(community_id)
        if found_visibility != visibility or summary is None or community_id not in levels:
            continue
        hits.append(
            SummaryHit(
                community_id=community_id,
                level=levels[community_id],
                title=summary.title,
                score=round(scored.score, 6),
                **_patched(summary.summary, summary.findings, patch),
            )
        )
    return hits
