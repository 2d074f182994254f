"""``communities_for`` through its member index picks what summing every community's members
picks: the same communities, order and sums, on random hierarchies and rankings."""

from __future__ import annotations

import random

import pytest

from graphrag_core.analytics_models import CommunityView
from ranking.context.communities import communities_for, member_index


def _by_brute_force(
    communities: tuple[CommunityView, ...], scores: dict[str, float], limit: int
) -> list[tuple[CommunityView, float]]:
    scored = [(c, sum(scores.get(m, 0.0) for m in c.members)) for c in communities]
    kept = [(c, s) for c, s in scored if s > 0.0]
    kept.sort(key=lambda pair: (-pair[1], pair[0].size, pair[0].id))
    return kept[:limit]


def _community(rng: random.Random, n: int, entities: list[str]) -> CommunityView:
    members = tuple(sorted(rng.sample(entities, rng.randint(1, 12))))
    return CommunityView(
        id=f"c-{n}", version=1, level=n % 3, parent=None, size=len(members),
        title=f"community {n}", members=members, summary="",
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(25))
def test_the_index_picks_what_the_sum_over_every_community_picks(seed: int) -> None:
    rng = random.Random(seed)
    entities = [f"e-{i}" for i in range(60)]
    communities = tuple(_community(rng, n, entities) for n in range(rng.randint(0, 40)))
    ranked = rng.sample(entities, rng.randint(0, 20))
    scores = {e: rng.choice([0.0, 0.25, 0.5, rng.random()]) for e in ranked}
    limit = rng.randint(1, 8)
    got = communities_for(communities, scores, limit)
    expected = _by_brute_force(communities, scores, limit)
    assert [c.id for c, _ in got] == [c.id for c, _ in expected]
    assert [s for _, s in got] == pytest.approx([s for _, s in expected])


def test_the_index_is_built_once_per_sequence_and_never_reused_for_another() -> None:
    rng = random.Random(1)
    entities = [f"e-{i}" for i in range(20)]
    one = tuple(_community(rng, n, entities) for n in range(5))
    other = tuple(_community(rng, n, entities) for n in range(5, 9))
    assert member_index(one) is member_index(one)
    assert set(member_index(other)) == {m for c in other for m in c.members}
    assert all(r < len(other) for rows in member_index(other).values() for r in rows)
