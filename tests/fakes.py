"""Fakes for the ports: deterministic, in-process, implementing the same Protocols."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from graphrag_core.models import ChatReply

_WORD = re.compile(r"[a-z0-9]+")


class HashEmbedder:
    """Bag-of-words hashed into a fixed number of dimensions, L2-normalised.

    Texts sharing words are close, so tests can reason about similarity without a model."""

    def __init__(self, dimension: int = 64) -> None:
        self._dimension = dimension

    @property
    def model_id(self) -> str:
        return f"hash-{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> tuple[float, ...]:
        vec = [0.0] * self._dimension
        for word in _WORD.findall(text.lower()):
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            vec[int.from_bytes(digest[:4], "little") % self._dimension] += 1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return tuple(v / norm for v in vec)


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)


class RecordingProgress:
    """A progress listener that remembers what it was told."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, int | None]] = []

    def start(self, task: str, total: int | None) -> None:
        self.events.append(("start", task, total))

    def advance(self, task: str, n: int = 1) -> None:
        self.events.append(("advance", task, n))

    def finish(self, task: str) -> None:
        self.events.append(("finish", task, None))


class ReplayChatModel:
    """A chat model that replays recorded replies in order, remembering what it was asked."""

    def __init__(self, replies: Sequence[str], model_id: str = "replay") -> None:
        self._replies = [ChatReply(text=r, model=model_id, finish_reason="stop") for r in replies]
        self._model_id = model_id
        self.calls: list[list[dict[str, str]]] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_schema: dict[str, object] | None = None,
        max_tokens: int = 1024,
    ) -> ChatReply:
        self.calls.append(list(messages))
        return self._replies[(len(self.calls) - 1) % len(self._replies)]
