"""Parameterised Cypher statements, one per file, loaded by name.

``cypher/<name>.cypher`` holds statements shared by every dialect;
``cypher/<dialect>/<name>.cypher`` overrides one for a dialect (index DDL, vector and
full-text search, ...). Statements take ``$parameters`` only: no value, label or property
name is ever formatted into a query text, so there is nothing to allow-list.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

from graphrag_core.errors import UnknownStatementError

__all__ = [
    "DIALECTS",
    "DIALECT_ONLY",
    "Dialect",
    "UnknownStatementError",
    "load",
    "statement_names",
]

Dialect = Literal["falkordb", "neo4j"]
DIALECTS: tuple[Dialect, ...] = ("falkordb", "neo4j")

DIALECT_ONLY: dict[str, Dialect] = {
    "server_components": "neo4j",
    **{
        f"vector_{what}_{plural}": "falkordb"
        for what in ("index_drop", "dimension")
        for plural in ("entities", "chunks", "summaries")
    },
}
"""Statements only one dialect has (FalkorDB reports its version through Redis commands, and
searches vectors exactly: it drops the vector indexes of older stores and checks the
dimension of the stored vectors)."""


@cache
def load(name: str, dialect: Dialect) -> str:
    """The text of statement ``name`` for ``dialect``: the dialect file if any, else shared."""
    root = resources.files(__package__)
    for candidate in (root / dialect / f"{name}.cypher", root / f"{name}.cypher"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8").strip()
    raise UnknownStatementError(
        f"no Cypher statement {name!r} for dialect {dialect!r}: the cypher/ folder of this "
        "installation is incomplete; reinstall loregraph."
    )


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
