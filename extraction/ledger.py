"""The LLM ledger of one run: calls, tokens, cost, cache hits, retries and failures per stage,
plus the records (failed chunks, pruned types and relations, merges) the manifest keeps."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from extraction.pricing import PriceTable
from graphrag_core.models import ChatReply, LedgerStage


@dataclass
class _Counts:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0


@dataclass
class Ledger:
    """Thread-safe counters; ``stages`` turns them into priced :class:`LedgerStage` values."""

    model: str
    counts: dict[str, _Counts] = field(default_factory=dict)
    records: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def _stage(self, stage: str) -> _Counts:
        return self.counts.setdefault(stage, _Counts())

    def call(self, stage: str, reply: ChatReply) -> None:
        with self._lock:
            counts = self._stage(stage)
            counts.calls += 1
            counts.prompt_tokens += reply.prompt_tokens
            counts.completion_tokens += reply.completion_tokens
            counts.retries += reply.retries

    def failed_call(self, stage: str, attempts: int) -> None:
        """A call that failed after ``attempts`` HTTP requests (1 + its retries)."""
        with self._lock:
            counts = self._stage(stage)
            counts.calls += 1
            counts.retries += max(0, attempts - 1)

    def cache_hit(self, stage: str) -> None:
        with self._lock:
            self._stage(stage).cache_hits += 1

    def failure(self, stage: str, record: str) -> None:
        with self._lock:
            self._stage(stage).failures += 1
            self.records.append(record)

    def note(self, record: str) -> None:
        with self._lock:
            self.records.append(record)

    def stages(self, prices: PriceTable) -> dict[str, LedgerStage]:
        return {
            name: LedgerStage(
                calls=c.calls,
                prompt_tokens=c.prompt_tokens,
                completion_tokens=c.completion_tokens,
                cost_usd=prices.cost(self.model, c.prompt_tokens, c.completion_tokens),
                cache_hits=c.cache_hits,
                retries=c.retries,
                failures=c.failures,
            )
            for name, c in sorted(self.counts.items())
        }
