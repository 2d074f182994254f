"""YAML front matter of Markdown notes.

``split_front_matter`` returns the parsed mapping and the offset where the body starts, so that
chunks can stay substrings of the original text.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from graphrag_core.errors import SourceError
from graphrag_core.input_safety import load_yaml, value_problem

_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", re.DOTALL | re.MULTILINE)


def has_front_matter(text: str) -> bool:
    """Whether the text opens with a ``---`` fenced block."""
    return _FRONT_MATTER.match(text) is not None


def split_front_matter(text: str, path: str = "<text>") -> tuple[dict[str, Any], int]:
    """Parse the front matter of ``text``; return ``({}, 0)`` when there is none.

    Raises ``SourceError`` naming ``path`` and the line when the YAML is invalid or not a
    mapping."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, 0
    try:
        data = load_yaml(match.group(1))
    except yaml.YAMLError as exc:
        raise SourceError(path, f"invalid YAML front matter{_yaml_where(exc, 1)}") from exc
    if (problem := value_problem(data)) is not None:
        raise SourceError(path, f"front matter: {problem}")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SourceError(path, "front matter must be a YAML mapping of keys to values")
    return {str(key): value for key, value in data.items()}, match.end()


def _yaml_where(exc: yaml.YAMLError, line_offset: int = 0) -> str:
    """``" at line N: problem"`` from a PyYAML error, 1-based, shifted by ``line_offset``."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is None:
        return f": {problem}"
    return f" at line {mark.line + 1 + line_offset}: {problem}"


def yaml_error_reason(exc: yaml.YAMLError, what: str = "invalid YAML") -> str:
    """A one-line reason for a YAML error, with its 1-based line when PyYAML gives one."""
    return f"{what}{_yaml_where(exc)}"
