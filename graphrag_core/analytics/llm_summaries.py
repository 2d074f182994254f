"""Community summaries written by a chat model, from the audience's extractive findings.

The model sees only the facts the extractive stage found for that audience (each numbered,
with its entity, relation and change ids) and answers with a title and findings citing those
ids. Ids it invents are dropped, findings left without a citation are dropped, and the summary
text is built from the cited findings, so every sentence of it carries ids. An unusable reply
or a model error falls back to the extractive summary, with a ``note`` saying why: a summary
never cites what the audience may not see, and a fallback is retried by the next build (its
recipe is the extractive one, not the model's).
"""

from __future__ import annotations

import json
import logging

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphrag_core.analytics.summaries import joined
from graphrag_core.analytics_models import CommunitySummary, Finding
from graphrag_core.config import AnalyticsSettings
from graphrag_core.errors import ChatModelError
from graphrag_core.ports import ChatModel

logger = logging.getLogger(__name__)

PROMPT_VERSION = "community-summary-v2"
SYSTEM = (
    "You summarise one community of a tabletop role-playing campaign's knowledge graph. "
    'Use only the facts given. Answer with JSON: {"title": short title, "findings": '
    '[{"text": one sentence, "entity_ids": [...], "relation_ids": [...], "change_ids": '
    "[...]}]}: two to eight findings, the most important first. Every finding cites the ids "
    "of the facts it uses, copied from those facts."
)


class _LlmFinding(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(description="One sentence.")
    entity_ids: list[str] = Field(description="Ids of the entities the sentence uses.")
    relation_ids: list[str] = Field(default_factory=list, description="Relation ids used.")
    change_ids: list[str] = Field(default_factory=list, description="Change ids used.")


class LlmSummary(BaseModel):
    """The JSON shape asked of the model."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(description="A short title naming what holds the community together.")
    findings: list[_LlmFinding] = Field(description="Two to eight cited findings.")


def model_recipe(chat: ChatModel, settings: AnalyticsSettings) -> str:
    """What a model-written summary depends on besides the facts."""
    return (
        f"{chat.model_id}|{PROMPT_VERSION}|findings={settings.summary_max_findings}"
        f"|chars={settings.summary_max_chars}|max_tokens={settings.summary_max_tokens}"
    )


def facts_prompt(extractive: CommunitySummary) -> str:
    lines = [f"Community {extractive.community_id} ({len(extractive.members)} members). Facts:"]
    for i, f in enumerate(extractive.findings, 1):
        ids = {
            "entity_ids": list(f.entity_ids),
            "relation_ids": list(f.relation_ids),
            "change_ids": list(f.change_ids),
        }
        lines.append(f"F{i}. {f.text} {json.dumps(ids)}")
    return "\n".join(lines)


def llm_summary(
    extractive: CommunitySummary, chat: ChatModel, settings: AnalyticsSettings
) -> CommunitySummary:
    """The model's summary of the same facts; ``extractive`` with a ``note`` when the reply
    is unusable. A :class:`ChatModelError` propagates (the build decides what to do)."""
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": facts_prompt(extractive)},
    ]
    schema = LlmSummary.model_json_schema()
    reply = chat.complete(messages, json_schema=schema, max_tokens=settings.summary_max_tokens)
    try:
        parsed = LlmSummary.model_validate_json(reply.text)
    except ValidationError as exc:
        logger.warning("summary of %s: unusable model reply (%s)", extractive.community_id, exc)
        return fallback(extractive, "the model's reply did not match the schema")
    findings = _cited(parsed, extractive)
    if not findings:
        return fallback(extractive, "no finding of the model's reply cited a known id")
    return extractive.model_copy(
        update={
            "title": parsed.title.strip() or extractive.title,
            "summary": joined(findings, settings.summary_max_chars),
            "findings": findings,
            "method": chat.model_id,
            "recipe": model_recipe(chat, settings),
        }
    )


def fallback(extractive: CommunitySummary, why: str) -> CommunitySummary:
    return extractive.model_copy(update={"note": f"{why}; extractive, retried next build"})


def guarded_summary(
    extractive: CommunitySummary, chat: ChatModel, settings: AnalyticsSettings
) -> tuple[CommunitySummary, bool]:
    """:func:`llm_summary`, with a model error turned into the extractive fallback. Returns
    the summary and whether the model itself failed."""
    try:
        return llm_summary(extractive, chat, settings), False
    except ChatModelError as exc:
        logger.warning("summary of %s: model error (%s)", extractive.community_id, exc)
        return fallback(extractive, f"model error: {exc}"), True


def _cited(parsed: LlmSummary, extractive: CommunitySummary) -> tuple[Finding, ...]:
    entity_ok = {e for f in extractive.findings for e in f.entity_ids}
    relation_ok = {r for f in extractive.findings for r in f.relation_ids}
    change_ok = {c for f in extractive.findings for c in f.change_ids}
    kept = []
    for f in parsed.findings:
        entities = tuple(e for e in f.entity_ids if e in entity_ok)
        relations = tuple(r for r in f.relation_ids if r in relation_ok)
        changes = tuple(c for c in f.change_ids if c in change_ok)
        if f.text.strip() and (entities or relations):
            kept.append(
                Finding(
                    text=f.text.strip(),
                    entity_ids=entities,
                    relation_ids=relations,
                    change_ids=changes,
                )
            )
    return tuple(kept)
