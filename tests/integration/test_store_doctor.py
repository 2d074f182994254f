"""``loregraph doctor`` as a user meets it when something is wrong: never a password, never a
crash, and a store whose vector indexes do not fit the embedder is named with what to do."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphrag_core.models import Entity, GraphDelta
from graphrag_core.stores.falkordb import FalkorDBStore
from graphrag_core.surfaces.cli.app import app
from tests.integration.falkordb_process import free_port

pytestmark = pytest.mark.integration
SECRET = "s3cret-pw"


def _doctor(env: dict[str, str], *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["doctor", *args], env=env)
    return result.exit_code, result.output


@pytest.mark.parametrize(
    "env",
    [
        {"LOREGRAPH_STORE": "falkordb",
         "LOREGRAPH_FALKORDB_URL": f"redis://:{SECRET}@127.0.0.1:{free_port()}"},
        {"LOREGRAPH_STORE": "neo4j", "LOREGRAPH_NEO4J_URI": f"bolt://127.0.0.1:{free_port()}",
         "LOREGRAPH_NEO4J_PASSWORD": SECRET},
        {"LOREGRAPH_STORE": "neo4j", "LOREGRAPH_NEO4J_URI": "http://127.0.0.1:7474",
         "LOREGRAPH_NEO4J_PASSWORD": SECRET},
    ],
    ids=["falkordb-url", "neo4j-down", "neo4j-http"],
)  # fmt: skip
def test_doctor_never_prints_a_password(env: dict[str, str]) -> None:
    code, text = _doctor(env)
    assert code == 1 and "not healthy" in text and SECRET not in text, text
    code, output = _doctor(env, "--json")
    report = json.loads(output)
    assert code == 1 and not report["reachable"] and SECRET not in output
    assert report["problems"]


def test_an_http_neo4j_uri_is_a_clear_problem_not_a_crash() -> None:
    env = {"LOREGRAPH_STORE": "neo4j", "LOREGRAPH_NEO4J_URI": "http://127.0.0.1:7474"}
    code, text = _doctor(env)
    assert code == 1 and "not a Neo4j Bolt URI" in text and "7687" in text, text


@pytest.mark.parametrize(
    ("store", "setting"),
    [("falkordb", "LOREGRAPH_FALKORDB_URL"), ("neo4j", "LOREGRAPH_NEO4J_URI")],
)
def test_a_server_store_without_an_address_is_not_configured(store: str, setting: str) -> None:
    code, text = _doctor({"LOREGRAPH_STORE": store})
    assert code == 1 and f"{store} at not configured (set {setting})" in text, text


def test_doctor_names_vectors_of_another_dimension(tmp_path: Path) -> None:
    """A store holding 32-d vectors, opened with the 384-d embedder."""
    entity = Entity(id="e", name="E", type="NPC", description="d")
    with FalkorDBStore.embedded(tmp_path / "data", dimension=32) as old:
        old.migrate()
        old.apply_delta("c", GraphDelta(entities_upsert=(entity,), vectors={"e": (1.0,) * 32}))
    env = {"LOREGRAPH_STORE": "falkordb-embedded", "LOREGRAPH_DATA_DIR": str(tmp_path / "data")}
    code, output = _doctor(env, "--json")
    report = json.loads(output)
    assert code == 1 and report["reachable"], output
    [problem] = report["problems"]
    assert ":Entity (32 dimensions)" in problem and "384" in problem
    assert "LOREGRAPH_DATA_DIR" in problem
    opened = CliRunner().invoke(app, ["campaigns"], env=env)
    assert opened.exit_code == 1 and "cannot be used" in opened.output  # refused for work too


def test_the_neo4j_driver_log_stays_off_the_terminal(tmp_path: Path) -> None:
    """The CLI's own error says it once; no ``ERROR:neo4j.pool`` lines around it."""
    env = {
        "LOREGRAPH_STORE": "neo4j",
        "LOREGRAPH_NEO4J_URI": f"neo4j://127.0.0.1:{free_port()}",
        "LOREGRAPH_NEO4J_PASSWORD": SECRET,
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(
        [sys.executable, "-m", "graphrag_core.surfaces.cli", "campaigns"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Neo4j is not reachable" in done.stderr and "LOREGRAPH_NEO4J_URI" in done.stderr
    assert "neo4j.pool" not in done.stderr and SECRET not in done.stderr + done.stdout
