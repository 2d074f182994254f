"""Every statement Neo4j runs (shared files and ``cypher/neo4j/``) passes Neo4j's own Cypher
linter, ``lintCypherQuery`` from ``@neo4j-cypher/language-support``, with its parameters
declared and Neo4j's procedure signatures known. Any error-severity diagnostic fails.

The linter is an npm package installed by ``make check`` (``npm ci --prefix tests/cypher_lint``);
``tests/cypher_lint/lint.mjs`` runs it over JSON on stdin.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import cypher

LINT_DIR = Path(__file__).resolve().parents[1] / "cypher_lint"
PACKAGE = LINT_DIR / "node_modules" / "@neo4j-cypher" / "language-support"
ERROR = 1  # LSP DiagnosticSeverity.Error
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")

EXAMPLE_PARAMS: dict[str, Any] = {
    "campaign": "emberfall",
    "rows": [],
    "ids": ["torven"],
    "paths": ["lore.md"],
    "visibilities": ["party"],
    "vector": [0.1, 0.2],
    "k": 5,
    "fetch": 20,
    "query": "torven OR anchor",
    "dimension": 384,
    "name": "migration_entity_index",
    "applied_at": "2026-01-01T00:00:00+00:00",
    "session_id": 1,
    "revision": 1,
    "props": {"title": "Session 1"},
    "snapshot_json": "{}",
    "keys": ["model|v1|abc"],
    "seq": 1,
    "built_at": "2026-01-01T00:00:00+00:00",
    "batch": 5000,
}
"""An example value for every parameter a statement takes (its type is what the linter sees)."""

NEO4J_STATEMENTS = {
    name: cypher.load(name, "neo4j")
    for name in sorted(cypher.statement_names())
    if cypher.DIALECT_ONLY.get(name, "neo4j") == "neo4j"
}


def _params(name: str, query: str) -> dict[str, Any]:
    used = set(_PARAM.findall(query))
    unknown = used - EXAMPLE_PARAMS.keys()
    assert not unknown, f"{name}: add example values for {sorted(unknown)} to EXAMPLE_PARAMS"
    return {key: EXAMPLE_PARAMS[key] for key in sorted(used)}


@pytest.fixture(scope="module")
def diagnostics() -> dict[str, list[dict[str, Any]]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20+ to lint the Neo4j statements")
    if not PACKAGE.is_dir():
        pytest.fail(f"{PACKAGE} is missing: run `make check` (it runs npm ci for the linter)")
    payload = [
        {"name": name, "query": query, "params": _params(name, query)}
        for name, query in NEO4J_STATEMENTS.items()
    ]
    done = subprocess.run(
        [node, str(LINT_DIR / "lint.mjs")],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return {item["name"]: item["diagnostics"] for item in json.loads(done.stdout)}


def test_every_statement_is_linted(diagnostics: dict[str, list[dict[str, Any]]]) -> None:
    assert set(diagnostics) == set(NEO4J_STATEMENTS)


@pytest.mark.parametrize("name", sorted(NEO4J_STATEMENTS))
def test_statement_lints_clean_on_neo4j(
    name: str, diagnostics: dict[str, list[dict[str, Any]]]
) -> None:
    errors = [d for d in diagnostics[name] if d["severity"] == ERROR]
    assert not errors, f"{name}: " + "; ".join(
        f"{d['line']}:{d['character']} {d['message']}" for d in errors
    )


def test_the_linter_catches_errors() -> None:
    """The linter is really running: a broken statement and an undeclared parameter fail."""
    if not PACKAGE.is_dir():
        pytest.fail(f"{PACKAGE} is missing: run `make check`")
    payload = [
        {"name": "broken", "query": "MATCH (n RETURN n", "params": {}},
        {"name": "undeclared", "query": "MATCH (n {campaign: $campaign}) RETURN n", "params": {}},
    ]
    done = subprocess.run(
        ["node", str(LINT_DIR / "lint.mjs")],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    results = json.loads(done.stdout)
    assert all(any(d["severity"] == ERROR for d in r["diagnostics"]) for r in results)
