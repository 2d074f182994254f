"""Global search: answer a broad question from community summaries.

Without a model the answer is the ranked summaries themselves, each finding a claim citing
its community and entity ids. With a model: map (each summary → the points relevant to the
question, citing entity ids) then reduce (points → one answer whose claims cite community and
entity ids). Ids the model invents are dropped; a failed reduce falls back to the summaries.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphrag_core.analytics_models import Claim, GlobalAnswer, SummaryHit
from graphrag_core.ports import ChatModel

logger = logging.getLogger(__name__)

MAP_SYSTEM = (
    "You extract from one community summary of a role-playing campaign the points that help "
    'answer the question. JSON: {"points": [{"text": one sentence, "entity_ids": [...]}]}. '
    "Use only the summary; cite the entity ids given with its findings; [] if nothing helps."
)
REDUCE_SYSTEM = (
    "You answer a broad question about a role-playing campaign from numbered points. JSON: "
    '{"answer": a short paragraph, "claims": [{"text": one sentence, "community_ids": '
    '[...], "entity_ids": [...]}]}. Every claim cites the community and entity ids of the '
    "points it uses. Use only the points."
)


class _Point(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    entity_ids: list[str] = Field(default_factory=list)


class MapReply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    points: list[_Point]


class _Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    community_ids: list[str] = Field(default_factory=list)
    entity_ids: list[str] = Field(default_factory=list)


class ReduceReply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    answer: str
    claims: list[_Claim]


def summaries_answer(
    question: str, campaign: str, as_player: bool, hits: Sequence[SummaryHit]
) -> GlobalAnswer:
    """The no-model answer: the ranked summaries, their findings as cited claims."""
    claims = [
        Claim(text=f.text, community_ids=(h.community_id,), entity_ids=f.entity_ids)
        for h in hits
        for f in h.findings[:3]
    ]
    return GlobalAnswer(
        question=question,
        campaign=campaign,
        as_player=as_player,
        claims=tuple(claims),
        summaries=tuple(hits),
        method="summaries",
    )


def _hit_prompt(question: str, hit: SummaryHit) -> str:
    findings = "\n".join(f"- {f.text} {list(f.entity_ids)}" for f in hit.findings)
    return f"Question: {question}\n\n{hit.title}\n{hit.summary}\nFindings:\n{findings}"


def map_points(question: str, hit: SummaryHit, chat: ChatModel) -> list[Claim]:
    """The points of one summary that help with ``question`` (entity ids checked)."""
    messages = [
        {"role": "system", "content": MAP_SYSTEM},
        {"role": "user", "content": _hit_prompt(question, hit)},
    ]
    reply = chat.complete(messages, json_schema=MapReply.model_json_schema(), max_tokens=500)
    try:
        parsed = MapReply.model_validate_json(reply.text)
    except ValidationError as exc:
        logger.warning("map over %s: unusable model reply (%s)", hit.community_id, exc)
        return []
    allowed = {e for f in hit.findings for e in f.entity_ids}
    return [
        Claim(
            text=p.text.strip(),
            community_ids=(hit.community_id,),
            entity_ids=tuple(e for e in p.entity_ids if e in allowed),
        )
        for p in parsed.points
        if p.text.strip()
    ]


def map_reduce_answer(
    question: str,
    campaign: str,
    as_player: bool,
    hits: Sequence[SummaryHit],
    chat: ChatModel,
) -> GlobalAnswer:
    """The model's cited answer, or the summaries answer when the reduce step fails."""
    points = [p for hit in hits for p in map_points(question, hit, chat)]
    fallback = summaries_answer(question, campaign, as_player, hits)
    if not points:
        return fallback
    numbered = [
        {"n": i, "text": p.text, "community_ids": p.community_ids, "entity_ids": p.entity_ids}
        for i, p in enumerate(points, 1)
    ]
    messages = [
        {"role": "system", "content": REDUCE_SYSTEM},
        {"role": "user", "content": f"Question: {question}\nPoints: {json.dumps(numbered)}"},
    ]
    reply = chat.complete(messages, json_schema=ReduceReply.model_json_schema(), max_tokens=900)
    try:
        parsed = ReduceReply.model_validate_json(reply.text)
    except ValidationError as exc:
        logger.warning("reduce: unusable model reply (%s)", exc)
        return fallback
    return fallback.model_copy(
        update={
            "answer": parsed.answer.strip(),
            "claims": _checked_claims(parsed, points),
            "method": f"map-reduce:{chat.model_id}",
        }
    )


def _checked_claims(parsed: ReduceReply, points: Sequence[Claim]) -> tuple[Claim, ...]:
    communities = {c for p in points for c in p.community_ids}
    entities = {e for p in points for e in p.entity_ids}
    return tuple(
        Claim(
            text=c.text.strip(),
            community_ids=tuple(x for x in c.community_ids if x in communities),
            entity_ids=tuple(x for x in c.entity_ids if x in entities),
        )
        for c in parsed.claims
        if c.text.strip()
    )
