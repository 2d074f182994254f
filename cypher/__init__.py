"""Parameterised Cypher statements, one per file, loaded by name.

``cypher/<name>.cypher`` holds statements shared by every dialect;
``cypher/<dialect>/<name>.cypher`` overrides one for a dialect (index DDL, vector and
full-text search, ...). Statements take
``$parameters`` only: values never touch the query text. The few identifiers that must
(labels in index DDL) are checked against :data:`ALLOWED_LABELS` first.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

Dialect = Literal["falkordb", "neo4j"]
DIALECTS: tuple[Dialect, ...] = ("falkordb", "neo4j")
ALLOWED_LABELS: frozenset[str] = frozenset(
    {"Entity", "Chunk", "Source", "Change", "ChangeSet", "Campaign", "Migration"}
)

DIALECT_ONLY: dict[str, Dialect] = {"server_components": "neo4j"}
"""Statements only one dialect has (FalkorDB reports its version through Redis commands)."""


class UnknownStatementError(KeyError):
    """No statement of that name exists for that dialect."""


@cache
def load(name: str, dialect: Dialect) -> str:
    """The text of statement ``name`` for ``dialect``: the dialect file if any, else shared."""
    root = resources.files(__package__)
    for candidate in (root / dialect / f"{name}.cypher", root / f"{name}.cypher"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8").strip()
    raise UnknownStatementError(f"no Cypher statement {name!r} for dialect {dialect!r}")


def statement_names() -> dict[str, set[Dialect]]:
    """Every statement name with the dialects that have their own file (empty: shared)."""
    root = resources.files(__package__)
    names: dict[str, set[Dialect]] = {}
    for item in root.iterdir():
        if item.name.endswith(".cypher"):
            names.setdefault(item.name.removesuffix(".cypher"), set())
    for dialect in DIALECTS:
        folder = root / dialect
        if folder.is_dir():
            for item in folder.iterdir():
                if item.name.endswith(".cypher"):
                    names.setdefault(item.name.removesuffix(".cypher"), set()).add(dialect)
    return names


def label(name: str) -> str:
    """Return ``name`` if it is an allowed label, else raise ValueError."""
    if name not in ALLOWED_LABELS:
        raise ValueError(f"label {name!r} is not in the allow-list")
    return name
