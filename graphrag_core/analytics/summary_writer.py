"""Who writes each community summary in a build: kept, extractive, or a chat model.

A previous summary is kept when its community kept its id, the facts the audience may see are
unchanged (fingerprint), and it was written the way this build would write it (its recipe:
method or model id, prompt version, summary settings) — so configuring a model, changing the
prompt or the summary settings rewrites the summaries, and a fallback is retried. A model
error for one community gives its extractive summary with a note and never stops the build;
after ``model_failures_before_giving_up`` errors in a row the rest of the build stops calling
the model (each skipped summary is a fallback too, retried next build).
"""

from __future__ import annotations

from graphrag_core.analytics.llm_summaries import fallback, guarded_summary, model_recipe
from graphrag_core.analytics.summaries import extractive_recipe
from graphrag_core.analytics_models import CommunitySummary
from graphrag_core.config import AnalyticsSettings
from graphrag_core.ports import ChatModel


class SummaryWriter:
    """Decides and writes summaries; counts what it wrote."""

    def __init__(self, chat: ChatModel | None, settings: AnalyticsSettings) -> None:
        self.chat = chat
        self.settings = settings
        self.recipe = model_recipe(chat, settings) if chat else extractive_recipe(settings)
        self.written = 0
        self.fallbacks = 0
        self._errors_in_row = 0

    def reused(self, fingerprint: str, kept: CommunitySummary | None) -> CommunitySummary | None:
        """``kept`` when it was written from facts with this ``fingerprint`` the way this build
        would write it (asked before the new extractive summary is built, which it spares)."""
        if (
            kept is not None
            and not kept.note
            and kept.fingerprint == fingerprint
            and kept.recipe == self.recipe
        ):
            return kept
        return None

    def summary(self, extractive: CommunitySummary) -> CommunitySummary:
        """A new summary of the facts of ``extractive``: itself, or the model's."""
        self.written += 1
        if self.chat is None:
            return extractive
        if self._errors_in_row >= self.settings.model_failures_before_giving_up:
            self.fallbacks += 1
            return fallback(extractive, "model not called after repeated model errors")
        summary, failed = guarded_summary(extractive, self.chat, self.settings)
        self._errors_in_row = self._errors_in_row + 1 if failed else 0
        self.fallbacks += 1 if summary.note else 0
        return summary
