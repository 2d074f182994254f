"""Prompts as versioned files, one per task: ``extraction/prompts/<task>.v<N>.md``.

A file holds the system message, a line ``=== user ===``, then the user message; ``$name``
placeholders are filled with :class:`string.Template`. Prompt text never lives in code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template

from graphrag_core.errors import ConfigError

_SPLIT = "=== user ==="
_FILE = re.compile(r"^(?P<task>[a-z_]+)\.v(?P<version>\d+)\.md$")


@dataclass(frozen=True)
class Prompt:
    task: str
    version: int
    system: str
    user: str

    @property
    def id(self) -> str:
        """``extract.v1``: part of every cache key, so a new version re-extracts."""
        return f"{self.task}.v{self.version}"

    def messages(self, **values: object) -> list[dict[str, str]]:
        fill = {key: str(value) for key, value in values.items()}
        return [
            {"role": "system", "content": Template(self.system).substitute(fill)},
            {"role": "user", "content": Template(self.user).substitute(fill)},
        ]


def versions(task: str) -> list[int]:
    folder = resources.files(__package__) / "prompts"
    found = (_FILE.match(item.name) for item in folder.iterdir())
    return sorted(int(m["version"]) for m in found if m and m["task"] == task)


@cache
def load_prompt(task: str, version: int | None = None) -> Prompt:
    """The prompt of ``task`` at ``version`` (default: the newest file)."""
    available = versions(task)
    if not available or (version is not None and version not in available):
        raise ConfigError(
            f"no prompt file {task}.v{version or '<N>'}.md in extraction/prompts "
            f"(versions there: {available or 'none'})"
        )
    chosen = version if version is not None else available[-1]
    text = (resources.files(__package__) / "prompts" / f"{task}.v{chosen}.md").read_text("utf-8")
    system, _, user = text.partition(_SPLIT)
    return Prompt(task, chosen, system.strip(), user.strip())
