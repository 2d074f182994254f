"""Every Cypher statement is used, exists in every dialect, and takes values only as parameters.

Statement names are found in the package's *code*: string constants that name a statement
(``cypher.load("name", …)``, ``_q("name")``, the ``MIGRATIONS`` list, ``("name", "rows", …)``
plans), read with ``ast`` so that a name mentioned only in a comment or a docstring does not
count. Names built at run time (``f"vector_search_{_PLURAL[kind]}"``) are expanded over the
plurals of ``SearchKind``.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

import cypher

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "graphrag_core").rglob("*.py"))
CYPHER_FILES = sorted((ROOT / "cypher").rglob("*.cypher"))
_PLURALS = ("entities", "chunks")
_FORMAT_LEFTOVER = re.compile(r"\{\d*\}|\{[a-z_]+\}|%s|%\(|\{\{")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that stand alone as statements (docstrings)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def _constants(source: str) -> tuple[set[str], set[tuple[str, str]]]:
    """The string constants of ``source`` outside docstrings, and the (head, tail) of every
    f-string built around ``_PLURAL[kind]``."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    literals: set[str] = set()
    templates: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            templates |= _template(node)
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            literals.add(node.value)
    return literals, templates


def _template(node: ast.JoinedStr) -> set[tuple[str, str]]:
    parts = node.values
    for i, part in enumerate(parts):
        if isinstance(part, ast.FormattedValue) and ast.unparse(part.value) == "_PLURAL[kind]":
            head, tail = parts[:i], parts[i + 1 :]
            if all(isinstance(p, ast.Constant) for p in (*head, *tail)):
                return {(_joined(head), _joined(tail))}
    return set()


def _joined(parts: list[ast.expr]) -> str:
    return "".join(str(p.value) for p in parts if isinstance(p, ast.Constant))


@cache
def _scan() -> tuple[set[str], set[tuple[str, str]]]:
    literals: set[str] = set()
    templates: set[tuple[str, str]] = set()
    for path in SOURCES:
        found, built = _constants(path.read_text("utf-8"))
        literals |= found
        templates |= built
    return literals, templates


def _dynamic_names() -> set[str]:
    return {f"{head}{plural}{tail}" for head, tail in _scan()[1] for plural in _PLURALS}


def _names_in_sources() -> set[str]:
    return (_scan()[0] & set(cypher.statement_names())) | _dynamic_names()


def test_there_are_statements() -> None:
    assert len(CYPHER_FILES) > 20


@pytest.mark.parametrize("name", sorted(cypher.statement_names()))
def test_every_statement_is_used_by_the_package(name: str) -> None:
    assert name in _names_in_sources(), f"{name}.cypher is never loaded by graphrag_core"


def test_a_name_only_in_a_comment_or_docstring_is_not_used() -> None:
    source = (
        '"""Runs entities_load."""\n'
        "def f():\n"
        '    """And chunks_load."""\n'
        "    # sources_load\n"
        '    return load("relations_load")\n'
    )
    assert _constants(source)[0] == {"relations_load"}


@pytest.mark.parametrize("name", sorted(_names_in_sources()))
@pytest.mark.parametrize("dialect", cypher.DIALECTS)
def test_every_used_name_exists_in_every_dialect(name: str, dialect: cypher.Dialect) -> None:
    if cypher.DIALECT_ONLY.get(name, dialect) != dialect:
        with pytest.raises(cypher.UnknownStatementError):
            cypher.load(name, dialect)
        return
    assert cypher.load(name, dialect)


def test_an_unknown_statement_is_a_loregraph_error() -> None:
    from graphrag_core.errors import LoregraphError

    with pytest.raises(LoregraphError, match="reinstall"):
        cypher.load("no_such_statement", "neo4j")


def test_names_built_at_run_time_are_found() -> None:
    assert "vector_search_entities" in _dynamic_names()


@pytest.mark.parametrize("path", CYPHER_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_statements_carry_no_formatting_leftovers(path: Path) -> None:
    text = path.read_text("utf-8")
    assert not _FORMAT_LEFTOVER.search(text), f"{path.name} looks like a format template"
    assert text.strip().count(";") == 0, f"{path.name}: one statement per file, no ';'"


@pytest.mark.parametrize("path", CYPHER_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_match_and_merge_is_scoped(path: Path) -> None:
    """Every statement touching campaign data names ``$campaign`` (Migration and index DDL and
    the index listing, which hold no campaign data, ``campaigns_list``, which lists them, and
    FalkorDB's store-wide check of the stored vectors' dimension are exempt)."""
    exempt = path.stem.startswith(
        (
            "migration",
            "campaigns_list",
            "indexes_list",
            "server_components",
            "vector_index_drop",
            "vector_dimension",
        )
    )
    text = path.read_text("utf-8")
    if not exempt and re.search(r"\b(MATCH|MERGE|CALL)\b", text):
        assert "$campaign" in text


def test_shared_statements_avoid_falkordb_only_syntax() -> None:
    for path in (ROOT / "cypher").glob("*.cypher"):
        text = path.read_text("utf-8")
        assert "vecf32" not in text and "db.idx." not in text, path.name
