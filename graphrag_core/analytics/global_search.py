"""Global search: answer a broad question from community summaries.

Without a model the answer is the ranked summaries themselves: from each, its best member
findings and its relation/attitude findings become claims citing the community and the
entity, relation and change ids, each claim once (a parent and its child community share
member findings). With a model: map (each summary → the points relevant to the question,
citing entity ids; up to ``concurrency`` calls at once) then reduce (points → claims citing
community and entity ids). Ids the model invents are dropped and a claim left without a known
community id is dropped; the answer text is the kept claims joined, so every sentence in it is
cited. A model error in a map call skips that summary; an unusable reduce reply or a model
error there falls back to the summaries answer — either way with a ``note``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphrag_core.analytics_models import Claim, Finding, GlobalAnswer, SummaryHit
from graphrag_core.config import AnalyticsSettings
from graphrag_core.errors import ChatModelError
from graphrag_core.ports import ChatModel

logger = logging.getLogger(__name__)

MAP_SYSTEM = (
    "You extract from one community summary of a role-playing campaign the points that help "
    'answer the question. JSON: {"points": [{"text": one sentence, "entity_ids": [...]}]}. '
    "Use only the summary; cite the entity ids given with its findings; [] if nothing helps."
)
REDUCE_SYSTEM = (
    "You answer a broad question about a role-playing campaign from numbered points. JSON: "
    '{"claims": [{"text": one sentence, "community_ids": [...], "entity_ids": [...]}]}: the '
    "answer as a few claims, the most important first. Every claim cites the community and "
    "entity ids of the points it uses. Use only the points."
)
_MEMBER_CLAIMS = 2
_PAIR_CLAIMS = 2


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
    claims: list[_Claim]


def _claim(hit: SummaryHit, f: Finding) -> Claim:
    return Claim(
        text=f.text,
        community_ids=(hit.community_id,),
        entity_ids=f.entity_ids,
        relation_ids=f.relation_ids,
        change_ids=f.change_ids,
    )


def summary_claims(hits: Sequence[SummaryHit]) -> list[Claim]:
    """Per summary its best member findings and its pair (relation, attitude) findings, each
    finding once across all summaries."""
    seen: set[str] = set()
    claims = []
    for hit in hits:
        members = [f for f in hit.findings if not (f.relation_ids or len(f.entity_ids) > 1)]
        pairs = [f for f in hit.findings if f.relation_ids or len(f.entity_ids) > 1]
        for f in members[:_MEMBER_CLAIMS] + pairs[:_PAIR_CLAIMS]:
            if f.text not in seen:
                seen.add(f.text)
                claims.append(_claim(hit, f))
    return claims


def summaries_answer(
    question: str, campaign: str, as_player: bool, hits: Sequence[SummaryHit], note: str = ""
) -> GlobalAnswer:
    """The no-model answer: the ranked summaries, their findings as cited claims."""
    return GlobalAnswer(
        question=question,
        campaign=campaign,
        as_player=as_player,
        claims=tuple(summary_claims(hits)),
        summaries=tuple(hits),
        method="summaries",
        note=note,
    )


def _hit_prompt(question: str, hit: SummaryHit) -> str:
    findings = "\n".join(f"- {f.text} {list(f.entity_ids)}" for f in hit.findings)
    return f"Question: {question}\n\n{hit.title}\n{hit.summary}\nFindings:\n{findings}"


def map_points(
    question: str, hit: SummaryHit, chat: ChatModel, settings: AnalyticsSettings
) -> list[Claim] | None:
    """The points of one summary that help with ``question`` (entity ids checked); None when
    the model failed."""
    messages = [
        {"role": "system", "content": MAP_SYSTEM},
        {"role": "user", "content": _hit_prompt(question, hit)},
    ]
    schema = MapReply.model_json_schema()
    try:
        reply = chat.complete(messages, json_schema=schema, max_tokens=settings.map_max_tokens)
        parsed = MapReply.model_validate_json(reply.text)
    except (ChatModelError, ValidationError) as exc:
        logger.warning("map over %s: no usable model reply (%s)", hit.community_id, exc)
        return None
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


def map_all(
    question: str,
    hits: Sequence[SummaryHit],
    chat: ChatModel,
    settings: AnalyticsSettings,
    concurrency: int,
) -> tuple[list[Claim], int]:
    """Every summary's points, in rank order, and how many map calls failed."""
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        mapped = list(pool.map(lambda h: map_points(question, h, chat, settings), hits))
    points = [p for found in mapped if found for p in found]
    return points, sum(1 for found in mapped if found is None)


def map_reduce_answer(
    question: str,
    campaign: str,
    as_player: bool,
    hits: Sequence[SummaryHit],
    chat: ChatModel,
    settings: AnalyticsSettings,
    concurrency: int = 1,
) -> GlobalAnswer:
    """The model's cited answer, or the summaries answer (with a note) when it fails."""
    points, failed = map_all(question, hits, chat, settings, concurrency)
    skipped = f"{failed} of {len(hits)} map calls failed; " if failed else ""
    if not points:
        return summaries_answer(
            question, campaign, as_player, hits, f"{skipped}no summary gave a point"
        )
    claims, why = _reduce(question, points, chat, settings)
    if not claims:
        return summaries_answer(question, campaign, as_player, hits, f"{skipped}{why}")
    return GlobalAnswer(
        question=question,
        campaign=campaign,
        as_player=as_player,
        answer=" ".join(c.text for c in claims),
        claims=claims,
        summaries=tuple(hits),
        method=f"map-reduce:{chat.model_id}",
        note=skipped.removesuffix("; "),
    )


def _reduce(
    question: str, points: Sequence[Claim], chat: ChatModel, settings: AnalyticsSettings
) -> tuple[tuple[Claim, ...], str]:
    """The reduce step's cited claims, or () and why there are none."""
    numbered = [
        {"n": i, "text": p.text, "community_ids": p.community_ids, "entity_ids": p.entity_ids}
        for i, p in enumerate(points, 1)
    ]
    messages = [
        {"role": "system", "content": REDUCE_SYSTEM},
        {"role": "user", "content": f"Question: {question}\nPoints: {json.dumps(numbered)}"},
    ]
    schema = ReduceReply.model_json_schema()
    try:
        reply = chat.complete(messages, json_schema=schema, max_tokens=settings.reduce_max_tokens)
        parsed = ReduceReply.model_validate_json(reply.text)
    except ChatModelError as exc:
        logger.warning("reduce: model error (%s)", exc)
        return (), f"the reduce call failed ({exc}); these are the ranked summaries"
    except ValidationError as exc:
        logger.warning("reduce: unusable model reply (%s)", exc)
        return (), "the reduce reply did not match the schema; these are the ranked summaries"
    claims = checked_claims(parsed, points)
    return claims, "" if claims else "no reduce claim cited a known community"


def checked_claims(parsed: ReduceReply, points: Sequence[Claim]) -> tuple[Claim, ...]:
    """The reduce claims with known ids only; a claim citing no known community is dropped."""
    communities = {c for p in points for c in p.community_ids}
    entities = {e for p in points for e in p.entity_ids}
    kept = []
    for c in parsed.claims:
        cited = tuple(x for x in c.community_ids if x in communities)
        if c.text.strip() and cited:
            kept.append(
                Claim(
                    text=c.text.strip(),
                    community_ids=cited,
                    entity_ids=tuple(x for x in c.entity_ids if x in entities),
                )
            )
    return tuple(kept)
