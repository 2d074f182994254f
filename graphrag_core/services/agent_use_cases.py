"""The application service's use cases for agents and broad questions: preview → expand →
context under a token budget, cited answers written by a chat model (as events), and the
community summaries brought up to date with the changelog. A base class of
:class:`~graphrag_core.services.service.LoregraphService`, kept apart so the service module
stays a table of contents; the logic is in :mod:`graphrag_core.services.context`,
:mod:`graphrag_core.services.answers` and :mod:`ranking.context`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from graphrag_core.analytics_models import CommunityView, GlobalAnswer
from graphrag_core.config import PresetName
from graphrag_core.errors import RequestError
from graphrag_core.input_safety import question_problem
from graphrag_core.models import AskResult, CampaignView
from graphrag_core.ports import TokenCounter
from graphrag_core.services import answers
from graphrag_core.services import context as agent_context
from graphrag_core.services.analytics import AnalyticsService, FindingPatch
from graphrag_core.services.cache import PinnedRevisions
from graphrag_core.services.llm_use_cases import check_campaign
from ranking.context.models import AnswerEvent, CitedAnswer, ContextBlock, ExpandResult, Preview


class AgentUseCases:
    analytics: AnalyticsService
    token_counter: TokenCounter | None
    revisions: PinnedRevisions

    if TYPE_CHECKING:  # defined by LoregraphService

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

    def communities(
        self,
        campaign: str,
        *,
        as_player: bool = False,
        level: int | None = None,
        as_of_session: int | None = None,
    ) -> list[CommunityView]:
        """The audience's communities, findings brought up to date with the changelog."""
        patch = self._finding_patch(campaign, as_player, as_of_session)
        return self.analytics.communities(campaign, as_player=as_player, level=level, patch=patch)

    def community(
        self,
        community_id: str,
        campaign: str,
        *,
        as_player: bool = False,
        as_of_session: int | None = None,
    ) -> CommunityView:
        patch = self._finding_patch(campaign, as_player, as_of_session)
        return self.analytics.community(campaign, community_id, as_player=as_player, patch=patch)

    def ask_global(
        self,
        question: str,
        campaign: str,
        *,
        as_player: bool = False,
        k: int | None = None,
        as_of_session: int | None = None,
    ) -> GlobalAnswer:
        """From the community summaries, as of ``as_of_session`` (default: now)."""
        if (problem := question_problem(question)) is not None:
            raise RequestError(problem)
        check_campaign(campaign)
        patch = self._finding_patch(campaign, as_player, as_of_session)
        return self.analytics.ask_global(question, campaign, as_player=as_player, k=k, patch=patch)

    def _finding_patch(
        self, campaign: str, as_player: bool, as_of_session: int | None
    ) -> FindingPatch:
        check_campaign(campaign)
        self.analytics.snapshot(campaign)  # no analytics: say which command to run
        return agent_context.finding_patch(
            self, campaign, as_player=as_player, as_of_session=as_of_session
        )

    def preview(
        self,
        question: str,
        campaign: str,
        *,
        k: int = 20,
        as_player: bool = False,
        as_of_session: int | None = None,
        preset: PresetName | None = None,
    ) -> Preview:
        """See :func:`graphrag_core.services.context.preview`."""
        with self.revisions.pinned():  # one revision read for the ranking and the preview
            return agent_context.preview(
                self, question, campaign, k=k, as_player=as_player, as_of_session=as_of_session,
                preset=preset,
            )  # fmt: skip

    def expand(
        self,
        handles: Sequence[str],
        campaign: str,
        *,
        budget: int,
        as_player: bool = False,
        as_of_session: int | None = None,
    ) -> ExpandResult:
        """See :func:`graphrag_core.services.context.expand`."""
        with self.revisions.pinned():
            return agent_context.expand(
                self, handles, campaign, budget=budget, as_player=as_player,
                as_of_session=as_of_session,
            )  # fmt: skip

    def context(
        self,
        question: str,
        campaign: str,
        *,
        budget: int = 6000,
        k: int = 20,
        as_player: bool = False,
        as_of_session: int | None = None,
        preset: PresetName | None = None,
    ) -> ContextBlock:
        """See :func:`graphrag_core.services.context.context`."""
        with self.revisions.pinned():
            return agent_context.context(
                self, question, campaign, budget=budget, k=k, as_player=as_player,
                as_of_session=as_of_session, preset=preset,
            )  # fmt: skip

    def answer_events(
        self,
        question: str,
        campaign: str,
        *,
        budget: int = 6000,
        as_player: bool = False,
        as_of_session: int | None = None,
        preset: PresetName | None = None,
    ) -> Iterator[AnswerEvent]:
        """See :func:`graphrag_core.services.answers.answer_events`."""
        return answers.answer_events(
            self, question, campaign, budget=budget, as_player=as_player,
            as_of_session=as_of_session, preset=preset,
        )  # fmt: skip

    def ask_events(
        self,
        question: str,
        campaign: str,
        *,
        budget: int = 6000,
        k: int = 10,
        as_player: bool = False,
        as_of_session: int | None = None,
        preset: PresetName | None = None,
    ) -> Iterator[AnswerEvent]:
        """See :func:`graphrag_core.services.answers.ask_events`."""
        return answers.ask_events(
            self, question, campaign, budget=budget, k=k, as_player=as_player,
            as_of_session=as_of_session, preset=preset,
        )  # fmt: skip

    def answer(
        self,
        question: str,
        campaign: str,
        *,
        budget: int = 6000,
        as_player: bool = False,
        as_of_session: int | None = None,
    ) -> CitedAnswer:
        """A short cited answer written by the configured chat model."""
        return answers.final_answer(
            self.answer_events(
                question,
                campaign,
                budget=budget,
                as_player=as_player,
                as_of_session=as_of_session,
            )
        )

    @property
    def can_answer(self) -> bool:
        """Whether a chat model is configured to write cited answers."""
        return self.analytics.chat is not None
