"""Extractive community summaries, per audience, each finding citing its ids.

A summary is built from one audience's :class:`CampaignView` alone, so a party summary can
only hold party-visible entities, relations, text and changes: the view has already dropped
the rest. Findings: one per member (best connected first: type, current status, the first
sentence of its own description, and for the GM the first sentence of its notes), then one per
relation between members. The summary text is the findings joined, cut at ``summary_max_chars``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence

from graphrag_core.analytics_models import Community, CommunitySummary, EntityMetrics, Finding
from graphrag_core.models import CampaignView, Entity, Relation
from graphrag_core.settings import AnalyticsSettings

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def relation_id(relation: Relation) -> str:
    return f"{relation.source}|{relation.type}|{relation.target}"


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    return _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""


def visible_members(community: Community, view: CampaignView) -> list[str]:
    return [m for m in community.members if m in view.entities]


def ranked_members(members: Sequence[str], metrics: Mapping[str, EntityMetrics]) -> list[str]:
    def key(eid: str) -> tuple[float, str]:
        m = metrics.get(eid)
        return (-(m.importance if m else 0.0), eid)

    return sorted(members, key=key)


def member_relations(members: Sequence[str], view: CampaignView) -> list[Relation]:
    inside = set(members)
    return [r for r in view.relations if r.source in inside and r.target in inside]


def title_of(names: Sequence[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return f"{names[0]}, {names[1]} and {len(names) - 2} more"


def _member_finding(entity: Entity, view: CampaignView) -> Finding:
    state = view.states.get(entity.id)
    status = state.status if state is not None else entity.status
    head = f"{entity.name} ({entity.type}{', ' + status if status else ''})"
    parts = [first_sentence(entity.description), first_sentence(entity.gm_notes)]
    body = " ".join(p for p in parts if p)
    return Finding(text=f"{head}: {body}" if body else f"{head}.", entity_ids=(entity.id,))


def _relation_finding(relation: Relation, view: CampaignView) -> Finding:
    a, b = view.entities[relation.source], view.entities[relation.target]
    attitude = f" ({relation.attitude})" if relation.attitude else ""
    text = f"{a.name} {relation.type.replace('_', ' ')} {b.name}{attitude}."
    detail = first_sentence(relation.description)
    return Finding(
        text=f"{text} {detail}".strip(),
        entity_ids=(relation.source, relation.target),
        relation_ids=(relation_id(relation),),
    )


def findings_of(members: Sequence[str], view: CampaignView, limit: int) -> list[Finding]:
    """Member findings first (at most ~2/3 of ``limit``), then relation findings."""
    relations = member_relations(members, view)
    member_share = max(1, limit - min(len(relations), limit // 3))
    found = [_member_finding(view.entities[m], view) for m in members[:member_share]]
    found += [_relation_finding(r, view) for r in relations[: limit - len(found)]]
    return found


def fingerprint(members: Sequence[str], view: CampaignView) -> str:
    """A hash of every fact a summary of ``members`` could use for this audience."""
    facts = [[view.entities[m].model_dump(mode="json"), _state(view, m)] for m in sorted(members)]
    relations = [r.model_dump(mode="json") for r in member_relations(sorted(members), view)]
    blob = json.dumps([facts, relations], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _state(view: CampaignView, entity_id: str) -> object:
    state = view.states.get(entity_id)
    return None if state is None else state.model_dump(mode="json")


def extractive_summary(
    community: Community,
    view: CampaignView,
    metrics: Mapping[str, EntityMetrics],
    settings: AnalyticsSettings,
) -> CommunitySummary | None:
    """The audience's summary, or None when it may see no member."""
    members = ranked_members(visible_members(community, view), metrics)
    if not members:
        return None
    findings = findings_of(members, view, settings.summary_max_findings)
    text = ""
    for finding in findings:
        if text and len(text) + len(finding.text) + 1 > settings.summary_max_chars:
            break
        text = f"{text} {finding.text}".strip()
    visibility = "party" if view.as_player else "gm"
    return CommunitySummary(
        community_id=community.id,
        visibility=visibility,
        title=title_of([view.entities[m].name for m in members]),
        summary=text,
        members=tuple(sorted(members)),
        findings=tuple(findings),
        fingerprint=fingerprint(members, view),
    )
