"""Where paid LLM answers are kept: a key → JSON text cache (the graph store, with the
campaign's data, in practice). Extractions and arbitration verdicts are saved as soon as
they are paid for, so a run that stops half-way loses nothing it paid."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from extraction.prompt_files import Prompt


class AnswerCache(Protocol):
    """Cached LLM answers by key."""

    def load(self, keys: Sequence[str]) -> dict[str, str]:
        """The cached answers of those ``keys`` that have one."""

    def save(self, entries: Mapping[str, str]) -> None:
        """Store answers (key → JSON text); an existing key is replaced."""


class MemoryCache:
    """An ``AnswerCache`` in a dict (tests, benchmarks)."""

    def __init__(self, entries: Mapping[str, str] | None = None) -> None:
        self.entries: dict[str, str] = dict(entries or {})

    def load(self, keys: Sequence[str]) -> dict[str, str]:
        return {key: self.entries[key] for key in keys if key in self.entries}

    def save(self, entries: Mapping[str, str]) -> None:
        self.entries.update(entries)


def prompt_fingerprint(*prompts: Prompt) -> str:
    """The prompts' ids and a hash of their text: editing a prompt file in place re-asks."""
    text = "\n".join(f"{p.system}\n{p.user}" for p in prompts)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return "+".join(p.id for p in prompts) + f"#{digest}"


def cache_key(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Unusable:
    """A cached record that a chunk's output was unusable even after the repair round: a
    re-ingest does not pay for it again, unless asked to (``--retry-failed``) or allowed a
    longer answer than the one that was cut off."""

    reason: str
    max_tokens: int

    def dump(self) -> str:
        return json.dumps({"unusable": self.reason, "max_tokens": self.max_tokens})


def read_unusable(text: str) -> Unusable | None:
    """The failure record cached as ``text``, or None when it is an answer."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, dict) and set(data) == {"unusable", "max_tokens"}:
        return Unusable(str(data["unusable"]), int(data["max_tokens"]))
    return None
