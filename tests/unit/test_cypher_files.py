"""Every Cypher statement is used, exists in every dialect, and takes values only as parameters.

Statement names are found in the package sources as string literals that name a statement:
``cypher.load("name", …)``, ``_q("name")``, and the name lists the adapters keep (``MIGRATIONS``,
``("name", "rows", …)`` plans). Names built at run time (``f"vector_search_{_PLURAL[kind]}"``) are
expanded over the plurals of ``SearchKind``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cypher

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "graphrag_core").rglob("*.py"))
CYPHER_FILES = sorted((ROOT / "cypher").rglob("*.cypher"))
_PLURALS = ("entities", "chunks")
_DYNAMIC = re.compile(r"""f["']([a-z_]*)\{_PLURAL\[kind\]\}([a-z_]*)["']""")
_LITERAL = re.compile(r"""["']([a-z][a-z0-9_]*)["']""")
_FORMAT_LEFTOVER = re.compile(r"\{\d*\}|\{[a-z_]+\}|%s|%\(|\{\{")


def _source_text() -> str:
    return "\n".join(path.read_text("utf-8") for path in SOURCES)


def _dynamic_names() -> set[str]:
    templates = _DYNAMIC.findall(_source_text())
    return {f"{head}{plural}{tail}" for head, tail in templates for plural in _PLURALS}


def _names_in_sources() -> set[str]:
    literals = set(_LITERAL.findall(_source_text()))
    return (literals & set(cypher.statement_names())) | _dynamic_names()


def test_there_are_statements() -> None:
    assert len(CYPHER_FILES) > 20


@pytest.mark.parametrize("name", sorted(cypher.statement_names()))
def test_every_statement_is_used_by_the_package(name: str) -> None:
    assert name in _names_in_sources(), f"{name}.cypher is never loaded by graphrag_core"


@pytest.mark.parametrize("name", sorted(_names_in_sources()))
@pytest.mark.parametrize("dialect", cypher.DIALECTS)
def test_every_used_name_exists_in_every_dialect(name: str, dialect: cypher.Dialect) -> None:
    if cypher.DIALECT_ONLY.get(name, dialect) != dialect:
        with pytest.raises(cypher.UnknownStatementError):
            cypher.load(name, dialect)
        return
    assert cypher.load(name, dialect)


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
    the index listing, which hold no campaign data, and ``campaigns_list``, which lists them,
    are exempt)."""
    exempt = path.stem.startswith(
        ("migration", "campaigns_list", "indexes_list", "server_components")
    )
    text = path.read_text("utf-8")
    if not exempt and re.search(r"\b(MATCH|MERGE|CALL)\b", text):
        assert "$campaign" in text


def test_shared_statements_avoid_falkordb_only_syntax() -> None:
    for path in (ROOT / "cypher").glob("*.cypher"):
        text = path.read_text("utf-8")
        assert "vecf32" not in text and "db.idx." not in text, path.name
