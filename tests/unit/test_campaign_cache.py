"""The per-campaign cache of the service: revision-checked, bounded, and a failed build
leaves nothing behind."""

from __future__ import annotations

import pytest

from graphrag_core.services.cache import CampaignCache


def test_a_value_is_rebuilt_when_the_revision_moves() -> None:
    revision = {"c": 1}
    built: list[int] = []
    cache: CampaignCache[int] = CampaignCache(lambda campaign: revision[campaign])

    def build() -> int:
        built.append(revision["c"])
        return revision["c"]

    assert cache.get("c", "k", build) == 1
    assert cache.get("c", "k", build) == 1
    revision["c"] = 2
    assert cache.get("c", "k", build) == 2
    assert built == [1, 2]


def test_at_most_limit_values_are_kept_least_recent_first_out() -> None:
    cache: CampaignCache[str] = CampaignCache(lambda campaign: 0, limit=3)
    builds: list[int] = []
    for as_of in range(5):
        cache.get("c", as_of, lambda as_of=as_of: builds.append(as_of) or str(as_of))
    assert len(cache._entries) == 3 and len(cache._building) == 3
    cache.get("c", 4, lambda: "again")  # kept: not rebuilt
    cache.get("c", 0, lambda: "again")  # evicted: rebuilt
    assert builds == [0, 1, 2, 3, 4]
    assert cache.get("c", 0, lambda: "x") == "again"


def test_a_failed_build_leaves_no_entry_and_no_lock() -> None:
    cache: CampaignCache[int] = CampaignCache(lambda campaign: 0)

    def fail() -> int:
        raise LookupError("unknown campaign")

    with pytest.raises(LookupError):
        cache.get("nobody", "k", fail)
    assert not cache._entries and not cache._building
