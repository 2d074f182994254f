"""The application service's LLM use cases: the dry-run estimate, the game master's entity
decisions and the recap draft. A base class of :class:`LoregraphService`, kept apart so the
service module stays a table of contents."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import cast

from extraction.recap import RecapDraft
from graphrag_core.config import IngestSettings
from graphrag_core.errors import ConfigError, UnknownCampaignError
from graphrag_core.models import GmDecision, GmDecisionKind
from graphrag_core.ports import Clock, Embedder, GraphStore, TokenCounter
from graphrag_core.services import decisions, recap_file
from graphrag_core.services.extraction import (
    DryRun,
    LlmSetup,
    estimate,
    prose_requests,
    stored_answers,
)
from graphrag_core.services.ingest import read_sources

_CAMPAIGN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def check_campaign(campaign: str) -> str:
    if not _CAMPAIGN.match(campaign):
        raise ConfigError(
            f"campaign {campaign!r} is not a valid campaign id: use 1-64 lowercase letters, "
            "digits, '-' or '_', starting with a letter or digit"
        )
    return campaign


def require_campaign(store: GraphStore, campaign: str) -> None:
    """Raise :class:`UnknownCampaignError` unless ``store`` holds something of ``campaign``."""
    known = store.list_campaigns()
    if campaign not in known:
        raise UnknownCampaignError(campaign, known)


def _decision_kind(kind: str) -> GmDecisionKind:
    if kind not in ("merge", "split", "alias_add"):
        raise ConfigError(f"unknown GM decision {kind!r}: use merge, split or alias_add")
    return cast(GmDecisionKind, kind)


class LlmUseCases:
    store: GraphStore
    embedder: Embedder
    clock: Clock
    ingest_settings: IngestSettings
    llm: LlmSetup | None
    token_counter: TokenCounter | None

    def _forget(self, campaign: str) -> None:
        raise NotImplementedError

    def estimate_llm(self, path: Path, campaign: str, *, retry_failed: bool = False) -> DryRun:
        """What ``ingest(..., use_llm=True)`` would send and cost; makes no LLM call."""
        check_campaign(campaign)
        llm = self._llm_setup(retry_failed=retry_failed)
        if self.token_counter is None:
            raise ConfigError("the dry run needs a token counter; build the service in wiring")
        plan = prose_requests(read_sources(path).documents, self.ingest_settings, llm)
        cached = stored_answers(plan, self.store, campaign)
        return estimate(plan, llm, self.token_counter, cached)

    def _llm_setup(self, *, retry_failed: bool = False) -> LlmSetup:
        if self.llm is None:
            raise ConfigError(
                "no LLM model configured: set LOREGRAPH_LLM_MODEL (and LOREGRAPH_LLM_BASE_URL "
                "for a server other than OpenAI)"
            )
        return replace(self.llm, retry_failed=retry_failed) if retry_failed else self.llm

    # ------------------------------------------------------------------ GM decisions, recap

    def decide(
        self,
        campaign: str,
        kind: str,
        subject: str,
        target: str = "",
        names: Sequence[str] = (),
        reason: str = "",
    ) -> GmDecision:
        """Store a GM resolution decision (merge, split, alias_add) and apply it now."""
        check_campaign(campaign)
        decision = decisions.make_decision(
            self.store, campaign, _decision_kind(kind), subject, target, names, reason,
            self.clock.now(),
        )  # fmt: skip
        decisions.apply_now(self.store, self.embedder, campaign, decision, self.ingest_settings)
        self._forget(campaign)
        return decision

    def draft_recap(
        self, transcript: Path, campaign: str, session: int, output: Path, *, offline: bool = False
    ) -> RecapDraft:
        """Write a reviewable change-set draft from a recap: proposed by the LLM, or, with no
        model configured (or ``offline``), by deterministic patterns over the campaign's
        known entities."""
        check_campaign(campaign)
        if offline or self.llm is None:
            require_campaign(self.store, campaign)
            entities = self.store.load_entities(campaign)
            return recap_file.offline_draft_to_file(transcript, session, output, entities)
        return recap_file.draft_to_file(self._llm_setup(), transcript, session, output)
