"""Analytics builds of one service, one at a time per campaign.

Two builds of a campaign running at once would both write a snapshot, and the one that
started first (from older data) could be stored last. And under a stream of posts each
calling for a rebuild, most of those builds are redundant: a post only needs *some* build
that read the store after its write. So builds of a campaign run one at a time, and a build a
post asks for is skipped when one that started after the post's write has finished meanwhile
(the store revision read before a build loads anything is at least the revision it sees)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

R = TypeVar("R")


class Rebuilds:
    """Per-campaign build locks and the store revision each last finished build started at."""

    def __init__(self, revision: Callable[[str], int]) -> None:
        self._revision = revision
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._started: dict[str, int] = {}
        self._finished: dict[str, int] = {}

    def finished(self, campaign: str) -> int:
        """How many builds of ``campaign`` this service finished (a snapshot read before a
        post is still the stored one when this has not moved since)."""
        with self._guard:
            return self._finished.get(campaign, 0)

    def run(self, campaign: str, build: Callable[[], R]) -> R:
        """Run ``build`` once no other build of ``campaign`` runs."""
        with self._lock_of(campaign):
            return self._run(campaign, build)

    def after_write(self, campaign: str, written_at: int, build: Callable[[], R]) -> R | None:
        """Run ``build`` for a write that left the campaign at revision ``written_at``; None
        (no build) when a build that started at or after that revision finished meanwhile."""
        with self._lock_of(campaign):
            with self._guard:
                covered = self._started.get(campaign, -1) >= written_at
            if covered:
                return None
            return self._run(campaign, build)

    def _lock_of(self, campaign: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(campaign, threading.Lock())

    def _run(self, campaign: str, build: Callable[[], R]) -> R:
        started = self._revision(campaign)
        result = build()
        with self._guard:
            self._started[campaign] = started  # only a finished build covers earlier writes
            self._finished[campaign] = self._finished.get(campaign, 0) + 1
        return result
