"""Stable community ids: new communities take the id of the old community of the same level
they overlap most (Jaccard ≥ ``match_min_jaccard``), greedily from the best overlap down, ties
by ids. A match whose changed share (1 − Jaccard) exceeds ``version_change_threshold`` keeps
the id with ``version + 1``. Unmatched communities get ``c-<level>-<n>`` with a fresh ``n``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphrag_core.analytics.communities import RawCommunity
from graphrag_core.analytics_models import Community
from graphrag_core.settings import AnalyticsSettings


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 1.0


def _order(raw: Sequence[RawCommunity]) -> list[RawCommunity]:
    """Deterministic order: level, larger first, then the smallest member id."""
    return sorted(raw, key=lambda c: (c.level, -len(c.members), c.members))


def _matches(
    new: Sequence[RawCommunity], old: Sequence[Community], threshold: float
) -> dict[int, Community]:
    """Index into ``new`` -> the old community it inherits from."""
    pairs: list[tuple[float, int, str, Community]] = []
    for i, c in enumerate(new):
        mine = frozenset(c.members)
        for o in old:
            if o.level == c.level:
                score = jaccard(mine, frozenset(o.members))
                if score >= threshold and score > 0:
                    pairs.append((-score, i, o.id, o))
    taken_new: set[int] = set()
    taken_old: set[str] = set()
    result: dict[int, Community] = {}
    for _, i, oid, o in sorted(pairs, key=lambda p: (p[0], p[1], p[2])):
        if i not in taken_new and oid not in taken_old:
            result[i] = o
            taken_new.add(i)
            taken_old.add(oid)
    return result


def assign_ids(
    raw: Sequence[RawCommunity],
    old: Sequence[Community],
    counters: Mapping[str, int],
    settings: AnalyticsSettings,
) -> tuple[list[Community], dict[str, int]]:
    """Communities with stable ids and parents, and the updated id counters per level."""
    ordered = _order(raw)
    inherited = _matches(ordered, old, settings.match_min_jaccard)
    next_n = dict(counters)
    ids: dict[tuple[int, int], str] = {}
    versions: dict[tuple[int, int], int] = {}
    for i, c in enumerate(ordered):
        key = (c.level, c.label)
        if i in inherited:
            o = inherited[i]
            changed = 1.0 - jaccard(frozenset(c.members), frozenset(o.members))
            ids[key] = o.id
            versions[key] = o.version + (1 if changed > settings.version_change_threshold else 0)
        else:
            n = next_n.get(str(c.level), 0) + 1
            next_n[str(c.level)] = n
            ids[key], versions[key] = f"c-{c.level}-{n}", 1
    communities = [
        Community(
            id=ids[(c.level, c.label)],
            version=versions[(c.level, c.label)],
            level=c.level,
            parent=ids.get((c.level - 1, c.parent_label)) if c.parent_label is not None else None,
            members=c.members,
        )
        for c in ordered
    ]
    return communities, next_n
