"""The service's token counter loads its BPE tables once, even when a server's first requests
count at the same time (each load costs about a second of CPU)."""

from __future__ import annotations

import threading
import time

import pytest

from graphrag_core.providers import bpe_tokens
from graphrag_core.wiring import LazyTokenCounter


class _SlowCounter:
    built = 0

    def __init__(self, encoding: str) -> None:
        time.sleep(0.05)  # long enough for every thread to arrive while it loads
        type(self).built += 1

    def count(self, text: str) -> int:
        return len(text.split())


def test_concurrent_first_counts_load_the_tables_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bpe_tokens, "BpeTokenCounter", _SlowCounter)
    counter = LazyTokenCounter()
    counts: list[int] = []
    threads = [
        threading.Thread(target=lambda: counts.append(counter.count("three small words")))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counts == [3] * 8
    assert _SlowCounter.built == 1


def test_the_real_tables_count_exactly() -> None:
    assert LazyTokenCounter().count("Where can the party rest?") == 6
