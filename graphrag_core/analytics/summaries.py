"""Extractive community summaries, per audience, each finding citing its ids.

A summary is built from one audience's :class:`Facts` alone, so a party summary can only hold
party-visible entities, relations, text and changes: the view has already dropped the rest.
Findings state the world *after* the changelog: one per member (best connected first: type,
effective status, attitude toward the party, the first sentence of its own description, and
for the GM the first sentence of its notes), then the attitude changes between members and the
relations between members with their effective attitude — each citing the entity ids, relation
keys and change ids it rests on. The summary text is the findings joined, cut at
``summary_max_chars``, so every sentence of it is cited.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphrag_core.analytics.facts import Facts, as_json, json_list, pair
from graphrag_core.analytics_models import Community, CommunitySummary, EntityMetrics, Finding
from graphrag_core.config import AnalyticsSettings
from graphrag_core.models import Change, Entity, Relation

EXTRACTIVE_VERSION = "extractive-v2"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def relation_id(relation: Relation) -> str:
    return f"{relation.source}|{relation.type}|{relation.target}"


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    return _SENTENCE_END.split(text, maxsplit=1)[0] if text else ""


def extractive_recipe(settings: AnalyticsSettings) -> str:
    """What an extractive summary depends on besides the facts."""
    return (
        f"{EXTRACTIVE_VERSION}|findings={settings.summary_max_findings}"
        f"|chars={settings.summary_max_chars}"
    )


def ranked_members(members: Sequence[str], metrics: Mapping[str, EntityMetrics]) -> list[str]:
    def key(eid: str) -> tuple[float, str]:
        m = metrics.get(eid)
        return (-(m.importance if m else 0.0), eid)

    return sorted(members, key=key)


def title_of(names: Sequence[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return f"{names[0]}, {names[1]} and {len(names) - 2} more"


def _member_finding(entity: Entity, facts: Facts) -> Finding:
    state = facts.view.states.get(entity.id)
    status = state.status if state is not None else entity.status
    attitude = f"; {state.attitude} toward the party" if state and state.attitude else ""
    head = f"{entity.name} ({entity.type}{', ' + status if status else ''}{attitude})"
    parts = [first_sentence(entity.description), first_sentence(entity.gm_notes)]
    body = " ".join(p for p in parts if p)
    changes = (state.status_change, state.attitude_change) if state else ()
    return Finding(
        text=f"{head}: {body}" if body else f"{head}.",
        entity_ids=(entity.id,),
        change_ids=tuple(c for c in changes if c),
    )


def _since(change: Change) -> str:
    return f" since session {change.session_id}"


def _relation_finding(relation: Relation, facts: Facts) -> Finding:
    entities = facts.view.entities
    a, b = entities[relation.source], entities[relation.target]
    change = facts.pair_change(relation.source, relation.target)
    attitude = change.new_value if change else relation.attitude
    note = f" ({attitude}{_since(change) if change else ''})" if attitude else ""
    text = f"{a.name} {relation.type.replace('_', ' ')} {b.name}{note}."
    return Finding(
        text=f"{text} {first_sentence(relation.description)}".strip(),
        entity_ids=(relation.source, relation.target),
        relation_ids=(relation_id(relation),),
        change_ids=(change.id,) if change else (),
    )


def _change_finding(change: Change, facts: Facts) -> Finding:
    target = change.target_id or ""
    a, b = facts.view.entities[change.entity_id], facts.view.entities[target]
    return Finding(
        text=f"{a.name} is {change.new_value} toward {b.name}{_since(change)}.",
        entity_ids=(change.entity_id, target),
        change_ids=(change.id,),
    )


def _pair_findings(
    relations: Sequence[Relation], changes: Sequence[Change], facts: Facts, limit: int
) -> list[Finding]:
    """At most ``limit`` findings: attitude changes between members with no relation to carry
    them, then the relations (those whose attitude a change set first)."""
    related = {pair(r.source, r.target) for r in relations}
    bare = [c for c in changes if pair(c.entity_id, c.target_id or "") not in related]
    changed = [r for r in relations if facts.pair_change(r.source, r.target)]
    unchanged = [r for r in relations if not facts.pair_change(r.source, r.target)]
    found = [_change_finding(c, facts) for c in bare[:limit]]
    return found + [
        _relation_finding(r, facts) for r in (changed + unchanged)[: limit - len(found)]
    ]


def findings_of(
    members: Sequence[str],
    relations: Sequence[Relation],
    changes: Sequence[Change],
    facts: Facts,
    limit: int,
) -> list[Finding]:
    """Member findings first (at most ~2/3 of ``limit``), then pair findings."""
    pairs = len(relations) + len(changes)
    member_share = max(1, limit - min(pairs, limit // 3))
    found = [_member_finding(facts.view.entities[m], facts) for m in members[:member_share]]
    return found + _pair_findings(relations, changes, facts, limit - len(found))


def fingerprint(
    members: Sequence[str], relations: Sequence[Relation], changes: Sequence[Change], facts: Facts
) -> str:
    """A hash of every fact a summary of ``members`` could use for this audience: the JSON of
    ``[[entity, state] per member, relations, changes]``, from items :class:`Facts` encoded."""
    blob = json_list(
        [
            json_list([facts.entity_json(m) for m in sorted(members)]),
            json_list([facts.relation_json(r) for r in relations]),
            json_list([as_json(c.model_dump(mode="json")) for c in changes]),
        ]
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def joined(findings: Sequence[Finding], max_chars: int) -> str:
    """The findings' sentences joined, stopping before ``max_chars``."""
    text = ""
    for finding in findings:
        if text and len(text) + len(finding.text) + 1 > max_chars:
            break
        text = f"{text} {finding.text}".strip()
    return text


@dataclass(frozen=True)
class CommunityFacts:
    """What one community's summary for one audience rests on: the members it may see
    (sorted), the relations and attitude changes between them, and their fingerprint."""

    community_id: str
    members: tuple[str, ...]
    relations: list[Relation]
    changes: list[Change]
    fingerprint: str


def community_facts(community: Community, facts: Facts) -> CommunityFacts | None:
    """The facts of ``community`` the audience may see, or None when it may see no member.
    Cheap next to :func:`summary_of`: a build computes this for every community and writes
    only the summaries whose fingerprint changed."""
    members = sorted(m for m in community.members if m in facts.view.entities)
    if not members:
        return None
    relations, changes = facts.relations_within(members), facts.changes_within(members)
    found = fingerprint(members, relations, changes, facts)
    return CommunityFacts(community.id, tuple(members), relations, changes, found)


def summary_of(
    found: CommunityFacts,
    facts: Facts,
    metrics: Mapping[str, EntityMetrics],
    settings: AnalyticsSettings,
) -> CommunitySummary:
    """The extractive summary of ``found``: findings of the best connected members first."""
    view = facts.view
    ranked = ranked_members(found.members, metrics)
    limit = settings.summary_max_findings
    findings = findings_of(ranked, found.relations, found.changes, facts, limit)
    return CommunitySummary(
        community_id=found.community_id,
        visibility="party" if view.as_player else "gm",
        title=title_of([view.entities[m].name for m in ranked]),
        summary=joined(findings, settings.summary_max_chars),
        members=found.members,
        findings=tuple(findings),
        recipe=extractive_recipe(settings),
        fingerprint=found.fingerprint,
    )


def extractive_summary(
    community: Community,
    facts: Facts,
    metrics: Mapping[str, EntityMetrics],
    settings: AnalyticsSettings,
) -> CommunitySummary | None:
    """The audience's summary, or None when it may see no member."""
    found = community_facts(community, facts)
    return None if found is None else summary_of(found, facts, metrics, settings)
