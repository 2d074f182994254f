"""Stable community ids: new communities take the id of the old community of the same level
they overlap most (Jaccard ≥ ``match_min_jaccard``), greedily from the best overlap down, ties
by ids. A match keeps the id; its version grows when the changed share (1 − Jaccard) against the
membership the current version began with (``Community.version_members``) exceeds
``version_change_threshold``, so slow drift over many rebuilds bumps it too. Unmatched
communities get ``<prefix>-<level>-<n>`` with a fresh ``n``: ids are never handed out twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphrag_core.analytics.communities import RawCommunity
from graphrag_core.analytics_models import Community
from graphrag_core.config import AnalyticsSettings


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 1.0


def _order(raw: Sequence[RawCommunity]) -> list[RawCommunity]:
    """Deterministic order: level, larger first, then the smallest member id."""
    return sorted(raw, key=lambda c: (c.level, -len(c.members), c.members))


def _candidates(
    new: Sequence[RawCommunity], old: Sequence[Community], threshold: float
) -> list[tuple[float, int, str]]:
    """(−Jaccard, new index, old id) for every pair of one level sharing a member."""
    by_member: dict[tuple[int, str], list[int]] = {}
    for j, o in enumerate(old):
        for m in o.members:
            by_member.setdefault((o.level, m), []).append(j)
    pairs = []
    for i, c in enumerate(new):
        mine = frozenset(c.members)
        near = {j for m in c.members for j in by_member.get((c.level, m), ())}
        for j in near:
            score = jaccard(mine, frozenset(old[j].members))
            if score >= threshold and score > 0:
                pairs.append((-score, i, old[j].id))
    return sorted(pairs)


def _matches(
    new: Sequence[RawCommunity], old: Sequence[Community], threshold: float
) -> dict[int, Community]:
    """Index into ``new`` -> the old community it inherits from."""
    by_id = {o.id: o for o in old}
    result: dict[int, Community] = {}
    taken: set[str] = set()
    for _, i, oid in _candidates(new, old, threshold):
        if i not in result and oid not in taken:
            result[i] = by_id[oid]
            taken.add(oid)
    return result


def _inherit(c: RawCommunity, o: Community, threshold: float) -> tuple[str, int, tuple[str, ...]]:
    """Id, version and version-start membership of ``c`` inheriting from ``o``."""
    changed = 1.0 - jaccard(frozenset(c.members), frozenset(o.version_members))
    if changed > threshold:
        return o.id, o.version + 1, ()
    base = o.version_members
    return o.id, o.version, () if base == c.members else base


def assign_ids(
    raw: Sequence[RawCommunity],
    old: Sequence[Community],
    counters: Mapping[str, int],
    settings: AnalyticsSettings,
    prefix: str = "c",
) -> tuple[list[Community], dict[str, int]]:
    """Communities with stable ids and parents, and the updated id counters per level."""
    ordered = _order(raw)
    inherited = _matches(ordered, old, settings.match_min_jaccard)
    next_n = dict(counters)
    given: dict[tuple[int, int], tuple[str, int, tuple[str, ...]]] = {}
    for i, c in enumerate(ordered):
        if i in inherited:
            given[(c.level, c.label)] = _inherit(c, inherited[i], settings.version_change_threshold)
        else:
            n = next_n.get(str(c.level), 0) + 1
            next_n[str(c.level)] = n
            given[(c.level, c.label)] = (f"{prefix}-{c.level}-{n}", 1, ())
    communities = []
    for c in ordered:
        cid, version, base = given[(c.level, c.label)]
        up = given.get((c.level - 1, c.parent_label)) if c.parent_label is not None else None
        communities.append(
            Community(
                id=cid,
                version=version,
                level=c.level,
                parent=up[0] if up else None,
                members=c.members,
                base_members=base,
            )
        )
    return communities, next_n
