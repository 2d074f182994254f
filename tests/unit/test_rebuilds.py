"""Builds of a campaign run one at a time, and a post's build is skipped only when a build
that started after the post's write has finished."""

from __future__ import annotations

import threading
import time

import pytest

from graphrag_core.services.rebuilds import Rebuilds


class _Store:
    def __init__(self) -> None:
        self.revision = 0

    def revision_of(self, campaign: str) -> int:
        return self.revision


def test_a_build_that_started_after_the_write_covers_it() -> None:
    store = _Store()
    builds = Rebuilds(store.revision_of)
    store.revision = 5  # a post wrote: revision 5
    assert builds.after_write("c", 5, lambda: "built") == "built"  # started at 5
    assert builds.after_write("c", 5, lambda: "again") is None  # covered by that build
    assert builds.after_write("other", 5, lambda: "other") == "other"  # per campaign
    store.revision = 7
    assert builds.after_write("c", 7, lambda: "newer") == "newer"  # started before 7


def test_a_failed_build_covers_nothing() -> None:
    store = _Store()
    builds = Rebuilds(store.revision_of)
    store.revision = 3

    def fail() -> str:
        raise RuntimeError("the runner died")

    with pytest.raises(RuntimeError):
        builds.after_write("c", 3, fail)
    assert builds.finished("c") == 0
    assert builds.after_write("c", 3, lambda: "built") == "built"
    assert builds.finished("c") == 1


def test_builds_of_one_campaign_never_overlap() -> None:
    builds = Rebuilds(_Store().revision_of)
    running: list[int] = []
    most = 0
    lock = threading.Lock()

    def build() -> None:
        nonlocal most
        with lock:
            running.append(1)
            most = max(most, len(running))
        time.sleep(0.02)
        with lock:
            running.pop()

    threads = [threading.Thread(target=builds.run, args=("c", build)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 1
