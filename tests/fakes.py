"""Fakes for the ports: deterministic, in-process, implementing the same Protocols."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from graphrag_core.models import ChatReply
from graphrag_core.ports import ChatModel

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


# ---------------------------------------------------------------- chat models

FIXTURES_LLM = Path(__file__).resolve().parent / "fixtures" / "llm"


def request_key(
    messages: Sequence[dict[str, str]], json_schema: dict[str, object] | None, max_tokens: int
) -> str:
    """A stable hash of one chat request: what a recorded reply is filed under."""
    payload = {"messages": list(messages), "json_schema": json_schema, "max_tokens": max_tokens}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:24]


class UnrecordedRequestError(AssertionError):
    """A test sent a request no fixture holds: record it (see tests/fixtures/llm/README.md)."""


class ReplayChatModel:
    """Replays replies recorded from a real model, keyed by a hash of the request; fails
    loudly on any request that was never recorded. ``calls`` counts the requests."""

    def __init__(self, folder: Path = FIXTURES_LLM, model_id: str | None = None) -> None:
        self._replies: dict[str, ChatReply] = {}
        models = set()
        for path in sorted(folder.glob("*.json")):
            data = json.loads(path.read_text("utf-8"))
            self._replies[data["key"]] = ChatReply.model_validate(data["reply"])
            models.add(data["model"])
        self._model_id = model_id or (sorted(models)[0] if models else "replay")
        self.calls = 0

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
        self.calls += 1
        key = request_key(messages, json_schema, max_tokens)
        if key not in self._replies:
            preview = messages[-1]["content"][:120] if messages else ""
            raise UnrecordedRequestError(f"no recorded reply for request {key}: {preview!r}")
        return self._replies[key]


class RecordingChatModel:
    """Wraps a real chat model and files every request and reply as a fixture."""

    def __init__(self, inner: ChatModel, folder: Path = FIXTURES_LLM, note: str = "") -> None:
        self._inner = inner
        self._folder = folder
        self._note = note

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_schema: dict[str, object] | None = None,
        max_tokens: int = 1024,
    ) -> ChatReply:
        reply = self._inner.complete(messages, json_schema=json_schema, max_tokens=max_tokens)
        key = request_key(messages, json_schema, max_tokens)
        record = {
            "key": key,
            "model": self._inner.model_id,
            "recorded_with": self._note,
            "request": {"messages": list(messages), "json_schema": json_schema,
                        "max_tokens": max_tokens},
            "reply": reply.model_dump(),
        }  # fmt: skip
        self._folder.mkdir(parents=True, exist_ok=True)
        (self._folder / f"{key}.json").write_text(json.dumps(record, indent=2) + "\n", "utf-8")
        return reply


class ScriptedChatModel:
    """Answers with the given texts in order (for malformed/truncated output tests)."""

    def __init__(self, replies: Sequence[ChatReply], model_id: str = "scripted") -> None:
        self._replies = list(replies)
        self._model_id = model_id
        self.requests: list[list[dict[str, str]]] = []

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
        self.requests.append(list(messages))
        if not self._replies:
            raise AssertionError("ScriptedChatModel ran out of replies")
        return self._replies.pop(0)


class PassageChatModel:
    """Answers each extraction request with the entities of ``table`` (name → type, or
    name → entity JSON object) whose name the passage contains, so one fake serves every
    chunk in any order. ``down_after``: calls after that many raise ``unavailable`` (a dead
    server). ``calls`` counts the requests."""

    def __init__(
        self,
        table: dict[str, str | dict[str, object]],
        model_id: str = "passage-model",
        down_after: int | None = None,
    ) -> None:
        self.table = table
        self._model_id = model_id
        self.down_after = down_after
        self.calls = 0

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
        from graphrag_core.errors import ChatModelUnavailableError

        self.calls += 1
        if self.down_after is not None and self.calls > self.down_after:
            raise ChatModelUnavailableError("model 'passage-model' did not answer (down)")
        passage = messages[-1]["content"].split("Passage:", 1)[-1]
        entities = [
            value if isinstance(value, dict) else {"name": name, "type": value}
            for name, value in self.table.items()
            if re.search(rf"\b{re.escape(name)}\b", passage)
        ]
        text = json.dumps({"entities": entities, "relations": []})
        return ChatReply(text=text, prompt_tokens=100, completion_tokens=20, finish_reason="stop")
