"""Reading a ``visibility`` value written by a person, failing closed.

``party`` (and ``public``, ``players``, ``visible``, …) means players may see it; ``gm`` (and
``secret``, ``gm-only``, ``dm``, ``hidden``, ``private``, ``spoiler``, …) means only the game
master may. A missing value means ``party``; any other value means ``gm``, with a warning: a typo
must never publish a secret.
"""

from __future__ import annotations

from typing import Any

from graphrag_core.models import Visibility

PARTY_VALUES: frozenset[str] = frozenset(
    {"party", "public", "player", "players", "visible", "everyone", "all", "open", "shared"}
)
GM_VALUES: frozenset[str] = frozenset(
    {
        "gm", "gm only", "gms only", "gm notes", "secret", "secrets", "dm", "dm only", "dms only",
        "hidden", "private", "spoiler", "spoilers", "restricted", "game master",
        "dungeon master", "keeper", "referee", "confidential", "internal",
    }
)  # fmt: skip
"""Accepted spellings, compared after ``casefold`` with ``-``/``_`` read as spaces."""


def _key(value: Any) -> str:
    return " ".join(str(value).casefold().replace("-", " ").replace("_", " ").split())


def known_visibility(value: Any) -> Visibility | None:
    """``party`` or ``gm`` for an accepted spelling, ``None`` for anything else."""
    key = _key(value)
    if key in PARTY_VALUES:
        return "party"
    if key in GM_VALUES:
        return "gm"
    return None


def read_visibility(value: Any) -> tuple[Visibility, str | None]:
    """The visibility ``value`` means and a warning when it had to guess: a missing value is
    ``party``; an unknown one is ``gm`` (fail closed)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return "party", None
    if isinstance(value, bool):  # ``visibility: false`` / ``true`` is not a decision to publish
        return "gm", f"visibility {value!r} is not a visibility: treated as gm; write party or gm"
    found = known_visibility(value)
    if found is not None:
        return found, None
    return "gm", f"unknown visibility {value!r}: treated as gm (secret); write party or gm"


def normalise_visibility(value: Any) -> Any:
    """A pydantic ``BeforeValidator``: accepted spellings become ``party``/``gm``; anything
    else passes through unchanged, for the model to reject."""
    if value is None:
        return value
    return known_visibility(value) or value
