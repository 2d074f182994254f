"""A cache of per-campaign values that a resident server can share between requests.

Each value is kept with the store's campaign revision it was built at
(:meth:`~graphrag_core.ports.StoreAdmin.campaign_revision`, bumped by every write
transaction), and rebuilt when the revision moved: a write by another process (a CLI post
while ``serve`` runs) invalidates it as surely as one by this process. The revision is read
*before* the value is built, so a write racing the build leaves a value that is rebuilt on the
next read, never a stale one kept. Safe under concurrent requests: entries are replaced
whole, under a lock; builds of one key are serialised, so a cold campaign loads once. At most
``limit`` values are kept, the least recently used going first: a server asked ``as_of`` every
session of every campaign must not keep a view of each for ever."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar

from graphrag_core.services.gc_pause import paused_gc

V = TypeVar("V")


class CampaignCache(Generic[V]):
    """Values by ``(campaign, key)``, each valid at the campaign revision it was built at."""

    def __init__(self, revision: Callable[[str], int], limit: int = 32) -> None:
        self._revision = revision
        self._limit = limit
        self._entries: OrderedDict[tuple[str, Hashable], tuple[int, V]] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[tuple[str, Hashable], threading.Lock] = {}

    def get(self, campaign: str, key: Hashable, build: Callable[[], V]) -> V:
        """The value of ``key`` for ``campaign``, built by ``build`` when absent or stale."""
        slot = (campaign, key)
        with self._lock:
            builder = self._building.setdefault(slot, threading.Lock())
        with builder:
            revision = self._revision(campaign)
            with self._lock:
                entry = self._entries.get(slot)
                if entry is not None:
                    self._entries.move_to_end(slot)
            if entry is not None and entry[0] == revision:
                return entry[1]
            try:
                with paused_gc():  # a cold build allocates a lot and frees little
                    value = build()
            except BaseException:
                with self._lock:  # a failed build (an unknown campaign) leaves no trace
                    if slot not in self._entries:
                        self._building.pop(slot, None)
                raise
            with self._lock:
                self._entries[slot] = (revision, value)
                self._entries.move_to_end(slot)
                while len(self._entries) > self._limit:
                    oldest, _ = self._entries.popitem(last=False)
                    self._building.pop(oldest, None)
            return value

    def forget(self, campaign: str) -> None:
        """Drop every value of ``campaign`` (this process just wrote to it)."""
        with self._lock:
            for slot in [s for s in self._entries if s[0] == campaign]:
                del self._entries[slot]


class PinnedRevisions:
    """The store's campaign revisions, read once per campaign within :meth:`pinned`: one
    request (a preview ranks, then reads the view, the analytics and the community views)
    consults the caches at one revision, with one round trip to the store instead of one per
    cache. A write landing meanwhile is seen by the next request, as a write racing a build is
    (values are labelled with the revision read before them). Per thread and task: concurrent
    requests pin their own."""

    def __init__(self, read: Callable[[str], int]) -> None:
        self._read = read
        self._memo: ContextVar[dict[str, int] | None] = ContextVar("revisions", default=None)

    def __call__(self, campaign: str) -> int:
        memo = self._memo.get()
        if memo is None:
            return self._read(campaign)
        if campaign not in memo:
            memo[campaign] = self._read(campaign)
        return memo[campaign]

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """Read each campaign's revision once until the outermost ``pinned`` ends."""
        if self._memo.get() is not None:
            yield
            return
        token = self._memo.set({})
        try:
            yield
        finally:
            self._memo.reset(token)
