"""Limits and checks on untrusted input: change sets, source files, questions.

Every limit is here, in one place, and documented in the README ("Limits"). The checks return
a one-line reason (or raise a ``yaml.YAMLError`` from :func:`load_yaml`, which every YAML
reader already turns into its own one-line error), so that no input leads to a traceback, a
hang or a half-write:

- characters a graph store cannot hold — NUL (FalkorDB ends a query at it) and lone surrogates
  (not Unicode: they come from a file name or text that is not UTF-8, or a ``\\ud800`` escape);
- nesting deeper than :data:`MAX_DEPTH` (Python's recursion would fail far later);
- strings longer than :data:`MAX_STRING_CHARS`;
- YAML aliases that expand to more than :data:`MAX_ALIAS_NODES` nodes (an "alias bomb": 534
  bytes that expand to billions), recursive aliases, and dates that do not exist
  (``2024-13-45``);
- files that are not regular files (a FIFO would block the reader for ever) or larger than the
  limit for their kind.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

MAX_SOURCE_BYTES = 20 * 1024 * 1024
"""Largest source file (Markdown, text, world pack) ingest reads."""
MAX_CHANGESET_BYTES = 1024 * 1024
"""Largest change set file."""
MAX_UPDATES = 2000
"""Most entity plus relationship updates in one change set (the campaign's posting lock is held
while they are resolved and written)."""
MAX_STRING_CHARS = 100_000
"""Longest single string value of a change set, world pack or front matter (a title, a note, a
description); Markdown body text is limited by the file size only."""
MAX_DEPTH = 32
"""Deepest nesting of lists and mappings in a change set, world pack or front matter."""
MAX_ALIAS_NODES = 100_000
"""Most YAML nodes all aliases of one document may expand to together."""

MAX_QUESTION_CHARS = 4000
"""Longest question ``ask`` takes."""

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def bad_character(text: str) -> str | None:
    """Why ``text`` cannot be stored (a NUL or a lone surrogate, and where), or None."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    char = found.group()
    if char == "\x00":
        return f"a NUL character (at offset {found.start()}), which no graph store can hold"
    return (
        f"an invalid character U+{ord(char):04X} at offset {found.start()} (a lone surrogate: "
        "text or a file name that is not UTF-8)"
    )


def question_problem(question: str) -> str | None:
    """Why ``question`` cannot be asked (too long, a NUL, text that is not UTF-8), or None."""
    if len(question) > MAX_QUESTION_CHARS:
        return f"the question has {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}"
    if (bad := bad_character(question)) is not None:
        return f"the question holds {bad}; ask in plain UTF-8 text"
    return None


def value_problem(
    value: Any, *, max_depth: int = MAX_DEPTH, max_string: int = MAX_STRING_CHARS
) -> str | None:
    """The first problem of parsed data ``value`` (nesting, string length, characters), with
    where it is (``entity_updates[3].note``), or None."""
    for where, problem in _problems(value, "", 0, max_depth, max_string):
        return f"{where or 'the top level'}: {problem}" if where else problem
    return None


def _problems(
    value: Any, where: str, depth: int, max_depth: int, max_string: int
) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        if len(value) > max_string:
            yield where, f"text of {len(value):,} characters; the limit is {max_string:,}"
        elif (bad := bad_character(value)) is not None:
            yield where, f"holds {bad}"
        return
    if not isinstance(value, dict | list | tuple):
        return
    if depth >= max_depth:
        yield where, f"nested more than {max_depth} levels deep"
        return
    if isinstance(value, dict):
        for key, item in value.items():
            name = _clip(str(key))
            if isinstance(key, str) and (bad := bad_character(key)) is not None:
                yield where, f"the key {name!a} holds {bad}"
                return
            if len(str(key)) > max_string:
                yield where, f"a key of {len(str(key)):,} characters; the limit is {max_string:,}"
                return
            yield from _problems(item, f"{where}.{name}" if where else name, depth + 1,
                                 max_depth, max_string)  # fmt: skip
    else:
        for index, item in enumerate(value):
            yield from _problems(item, f"{where}[{index}]", depth + 1, max_depth, max_string)


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def regular_file_problem(path: Path, max_bytes: int) -> str | None:
    """Why ``path`` is not something to read (missing, not a regular file, too large), checked
    without opening it (opening a FIFO blocks), or None."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read it: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a FIFO, device or folder); give a plain file"
    if info.st_size > max_bytes:
        return f"{info.st_size:,} bytes; the limit is {max_bytes:,} bytes"
    return None


class UnsafeYamlError(yaml.YAMLError):
    """YAML refused by :func:`load_yaml`'s limits (its text is the one-line reason)."""


class _LimitedLoader(yaml.SafeLoader):
    """``SafeLoader`` with bounded nesting, bounded alias expansion, no recursive aliases and
    a YAML error (not a ``ValueError``) for a date that does not exist."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._alias_nodes = 0
        self._sizes: dict[int, int] = {}
        self._open: list[str | None] = []  # anchors of the nodes being composed

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        event: Any = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            mark: Any = event.start_mark
            if event.anchor in self._open:
                raise ComposerError(None, None, "a recursive alias; refused", mark)
            node = super().compose_node(parent, index)
            self._alias_nodes += self._size(node, mark) if node is not None else 0
            if self._alias_nodes > MAX_ALIAS_NODES:
                raise ComposerError(
                    None, None,
                    f"aliases expand to more than {MAX_ALIAS_NODES:,} nodes; refused (an "
                    "alias bomb?)", mark,
                )  # fmt: skip
            return node
        self._depth += 1
        self._open.append(getattr(event, "anchor", None))
        try:
            if self._depth > MAX_DEPTH:
                raise ComposerError(
                    None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark,
                )  # fmt: skip
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1
            self._open.pop()

    def _size(self, node: Node, mark: Any) -> int:
        """Nodes ``node`` expands to (memoised)."""
        key = id(node)
        if key in self._sizes:
            return self._sizes[key]
        size = 1
        if isinstance(node, SequenceNode):
            size += sum(self._size(child, mark) for child in node.value)
        elif isinstance(node, MappingNode):
            size += sum(self._size(k, mark) + self._size(v, mark) for k, v in node.value)
        self._sizes[key] = size
        return size

    def construct_yaml_timestamp(self, node: ScalarNode) -> Any:
        try:
            return super().construct_yaml_timestamp(node)
        except (ValueError, OverflowError) as exc:
            raise ConstructorError(
                None, None, f"{node.value!r} is not a valid date ({exc})", node.start_mark
            ) from None


_LimitedLoader.add_constructor(
    "tag:yaml.org,2002:timestamp", _LimitedLoader.construct_yaml_timestamp
)


def load_yaml(text: str) -> Any:
    """``yaml.safe_load`` within the limits; every refusal is a ``yaml.YAMLError``."""
    loader = _LimitedLoader(text)
    try:
        return loader.get_single_data()
    except RecursionError:
        raise UnsafeYamlError(f"nested more than {MAX_DEPTH} levels deep") from None
    finally:
        loader.dispose()
