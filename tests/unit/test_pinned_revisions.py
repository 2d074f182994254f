"""A request reads each campaign's revision once (``PinnedRevisions.pinned``); outside one, and
in another thread, every read goes to the store."""

from __future__ import annotations

import threading

from graphrag_core.services.cache import CampaignCache, PinnedRevisions


def test_a_pinned_request_reads_each_revision_once_and_others_see_writes() -> None:
    store = {"a": 1, "b": 7}
    reads: list[str] = []

    def read(campaign: str) -> int:
        reads.append(campaign)
        return store[campaign]

    revisions = PinnedRevisions(read)
    cache: CampaignCache[int] = CampaignCache(revisions)
    builds: list[int] = []

    def build() -> int:
        builds.append(store["a"])
        return store["a"]

    with revisions.pinned():
        assert cache.get("a", "k", build) == 1
        store["a"] = 2  # a write by another process, mid-request
        with revisions.pinned():  # nested: the same pin
            assert cache.get("a", "k", build) == 1
        assert revisions("b") == 7 and revisions("b") == 7
        seen: list[int] = []
        other = threading.Thread(target=lambda: seen.append(revisions("a")))
        other.start()
        other.join()
        assert seen == [2]  # another thread's request is not pinned by this one
    assert reads == ["a", "b", "a"]
    assert cache.get("a", "k", build) == 2  # the next request sees the write
    assert builds == [1, 2]
    assert revisions("a") == 2 and reads[-2:] == ["a", "a"]
