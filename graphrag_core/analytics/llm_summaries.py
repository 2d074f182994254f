"""Community summaries written by a chat model, from the audience's extractive findings.

The model sees only the facts the extractive stage found for that audience (each numbered,
with its entity and relation ids) and must answer with a title, a summary and findings citing
those ids. Ids it invents are dropped, findings left without a citation are dropped, and an
unusable reply falls back to the extractive summary: a summary never cites what the audience
may not see.
"""

from __future__ import annotations

import json
import logging

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphrag_core.analytics_models import CommunitySummary, Finding
from graphrag_core.ports import ChatModel

logger = logging.getLogger(__name__)

PROMPT_VERSION = "community-summary-v1"
SYSTEM = (
    "You summarise one community of a tabletop role-playing campaign's knowledge graph. "
    'Use only the facts given. Answer with JSON: {"title": short title, "summary": 2-4 '
    'sentences, "findings": [{"text": one sentence, "entity_ids": [...], '
    '"relation_ids": [...]}]}. Every finding cites the ids of the facts it uses.'
)


class _LlmFinding(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(description="One sentence.")
    entity_ids: list[str] = Field(description="Ids of the entities the sentence uses.")
    relation_ids: list[str] = Field(default_factory=list, description="Relation ids used.")


class LlmSummary(BaseModel):
    """The JSON shape asked of the model."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(description="A short title naming what holds the community together.")
    summary: str = Field(description="Two to four sentences.")
    findings: list[_LlmFinding] = Field(description="At most eight cited findings.")


def facts_prompt(extractive: CommunitySummary) -> str:
    lines = [f"Community {extractive.community_id} ({len(extractive.members)} members). Facts:"]
    for i, f in enumerate(extractive.findings, 1):
        ids = {"entity_ids": list(f.entity_ids), "relation_ids": list(f.relation_ids)}
        lines.append(f"F{i}. {f.text} {json.dumps(ids)}")
    return "\n".join(lines)


def llm_summary(extractive: CommunitySummary, chat: ChatModel) -> CommunitySummary:
    """The model's summary of the same facts, or ``extractive`` when the reply is unusable."""
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": facts_prompt(extractive)},
    ]
    reply = chat.complete(messages, json_schema=LlmSummary.model_json_schema(), max_tokens=700)
    try:
        parsed = LlmSummary.model_validate_json(reply.text)
    except ValidationError as exc:
        logger.warning("summary of %s: unusable model reply (%s)", extractive.community_id, exc)
        return extractive
    findings = _cited(parsed, extractive)
    if not findings:
        return extractive
    return extractive.model_copy(
        update={
            "title": parsed.title.strip() or extractive.title,
            "summary": parsed.summary.strip(),
            "findings": findings,
            "method": chat.model_id,
        }
    )


def _cited(parsed: LlmSummary, extractive: CommunitySummary) -> tuple[Finding, ...]:
    entity_ok = {e for f in extractive.findings for e in f.entity_ids}
    relation_ok = {r for f in extractive.findings for r in f.relation_ids}
    kept = []
    for f in parsed.findings:
        entities = tuple(e for e in f.entity_ids if e in entity_ok)
        relations = tuple(r for r in f.relation_ids if r in relation_ok)
        if entities or relations:
            kept.append(Finding(text=f.text.strip(), entity_ids=entities, relation_ids=relations))
    return tuple(kept)
