"""Preview → expand → context for agents: the use cases the CLI, HTTP and MCP surfaces share.

Each reads the audience's view (``as_player``, ``as_of_session``) and the audience's
communities, their findings patched from the changelog overlay (``ranking.context.stale``), and
counts tokens with the configured ``TokenCounter``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Protocol

from graphrag_core.analytics_models import CommunityView, Finding
from graphrag_core.config import PresetName
from graphrag_core.errors import ConfigError, RequestError
from graphrag_core.models import AskResult, CampaignView
from graphrag_core.ports import TokenCounter
from graphrag_core.services.analytics import AnalyticsService, FindingPatch, community_views
from ranking.context.assemble import context_of, preview_of
from ranking.context.budget import fit
from ranking.context.handles import parse_handle
from ranking.context.items import expansion, preview_items
from ranking.context.models import ContextBlock, ExpandResult, Preview
from ranking.context.stale import patch_findings

MAX_K = 100


class ContextReads(Protocol):
    """What the use cases need of the application service."""

    analytics: AnalyticsService
    token_counter: TokenCounter | None

    def campaign_view(
        self, campaign: str, *, as_player: bool, as_of_session: int | None
    ) -> CampaignView: ...

    def ask(
        self,
        question: str,
        campaign: str,
        *,
        as_player: bool = False,
        historical: bool | None = None,
        as_of_session: int | None = None,
        k: int = 10,
        preset: PresetName | None = None,
    ) -> AskResult: ...


def _counter(reads: ContextReads) -> TokenCounter:
    if reads.token_counter is None:
        raise ConfigError("no token counter is configured: preview and expand need one")
    return reads.token_counter


def finding_patch(
    reads: ContextReads, campaign: str, *, as_player: bool, as_of_session: int | None
) -> FindingPatch:
    """Patches findings whose entities changed between the build and the view asked for
    (now, or ``as_of_session``): "Torven (dead since session 8)"."""
    snapshot = reads.analytics.stored(campaign)
    if snapshot is None:
        return _same
    view = reads.campaign_view(campaign, as_player=as_player, as_of_session=as_of_session)
    written = reads.campaign_view(
        campaign, as_player=as_player, as_of_session=snapshot.last_rebuild_session
    ).states
    return partial(patch_findings, view=view, written=written)


def _same(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    return findings


def current_communities(
    reads: ContextReads, campaign: str, *, as_player: bool, as_of_session: int | None
) -> list[CommunityView]:
    """The audience's communities, their findings patched from the overlay (none before the
    campaign's first build)."""
    return list(kept_communities(reads, campaign, as_player=as_player, as_of_session=as_of_session))


def kept_communities(
    reads: ContextReads, campaign: str, *, as_player: bool, as_of_session: int | None
) -> Sequence[CommunityView]:
    """:func:`current_communities` as the service keeps them: the same sequence while the
    campaign does not change (so a preview indexes their members once)."""
    snapshot = reads.analytics.stored(campaign)
    if snapshot is None:
        return ()

    def build() -> list[CommunityView]:
        patch = finding_patch(reads, campaign, as_player=as_player, as_of_session=as_of_session)
        return community_views(snapshot.audience("party" if as_player else "gm"), patch=patch)

    return reads.analytics.cached_community_views(campaign, (as_player, as_of_session), build)


def preview(
    reads: ContextReads,
    question: str,
    campaign: str,
    *,
    k: int = 20,
    as_player: bool = False,
    as_of_session: int | None = None,
    preset: PresetName | None = None,
) -> Preview:
    """Up to ``k`` entities, communities and passages with handles and expansion costs;
    ``preset`` forces the ranker's weight preset (as ``ask --preset``)."""
    _check_k(k)
    ranked = reads.ask(
        question, campaign, as_player=as_player, as_of_session=as_of_session, k=k, preset=preset
    )
    return preview_ranked(reads, ranked, k)


def _check_k(k: int) -> None:
    if not 1 <= k <= MAX_K:
        raise RequestError(f"-k must be between 1 and {MAX_K}, not {k}")


def preview_ranked(reads: ContextReads, ranked: AskResult, k: int) -> Preview:
    """The preview of a ranking already made (``ask``'s result, for its audience)."""
    _check_k(k)
    campaign, as_player, as_of_session = ranked.campaign, ranked.as_player, ranked.as_of_session
    view = reads.campaign_view(campaign, as_player=as_player, as_of_session=as_of_session)
    communities = kept_communities(
        reads, campaign, as_player=as_player, as_of_session=as_of_session
    )
    items = preview_items(view, ranked.results, communities, _counter(reads), k)
    return preview_of(
        ranked.question, campaign, items, _counter(reads), as_player=as_player,
        as_of_session=as_of_session,
    )  # fmt: skip


def _check_budget(budget: int) -> None:
    if budget < 0:
        raise RequestError(f"the budget must be 0 or more tokens, not {budget}")


def expand(
    reads: ContextReads,
    handles: Sequence[str],
    campaign: str,
    *,
    budget: int,
    as_player: bool = False,
    as_of_session: int | None = None,
) -> ExpandResult:
    """The items behind ``handles``, trimmed by the cascade to at most ``budget`` tokens."""
    _check_budget(budget)
    if not handles:
        raise RequestError("name at least one handle to expand, e.g. e:torven")
    parsed = [parse_handle(h) for h in dict.fromkeys(handles)]
    view = reads.campaign_view(campaign, as_player=as_player, as_of_session=as_of_session)
    communities = {
        c.id: c
        for c in current_communities(
            reads, campaign, as_player=as_player, as_of_session=as_of_session
        )
    }
    items = [expansion(h, view, communities) for h in parsed]
    return fit(items, budget, _counter(reads))


def context(
    reads: ContextReads,
    question: str,
    campaign: str,
    *,
    budget: int = 6000,
    k: int = 20,
    as_player: bool = False,
    as_of_session: int | None = None,
    preset: PresetName | None = None,
) -> ContextBlock:
    """The preview plus the best expansions that fit in ``budget`` tokens."""
    _check_budget(budget)
    shown = preview(
        reads, question, campaign, k=k, as_player=as_player, as_of_session=as_of_session,
        preset=preset,
    )  # fmt: skip
    return context_from(reads, shown, budget)


def context_from(reads: ContextReads, shown: Preview, budget: int) -> ContextBlock:
    """The context block of a preview already taken."""
    _check_budget(budget)
    campaign, as_player, as_of = shown.campaign, shown.as_player, shown.as_of_session
    view = reads.campaign_view(campaign, as_player=as_player, as_of_session=as_of)
    communities = {
        c.id: c
        for c in current_communities(reads, campaign, as_player=as_player, as_of_session=as_of)
    }
    full = [expansion(parse_handle(i.handle), view, communities) for i in shown.items]
    return context_of(shown, full, budget, _counter(reads))
