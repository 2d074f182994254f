"""``loregraph migrate`` beyond the happy path: a target that diverged (moved there, played,
moved back), a copy interrupted part-way, a campaign that does not exist, target options
missing, what the report counts — and the round trip through Neo4j when one is configured.
A small campaign written through the port (hashed 384-d embeddings) keeps these fast."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphrag_core.models import GmDecision, GraphDelta
from graphrag_core.ports import GraphStore
from graphrag_core.services.store_copy import PARTS, copy_campaign, fingerprint, vector_dimension
from graphrag_core.stores.falkordb import FalkorDBStore
from graphrag_core.surfaces.cli.app import app
from tests.integration import store_backends as sb
from tests.integration import store_data as d

pytestmark = pytest.mark.integration
CAMPAIGN = "harbour"


def _fill(store: GraphStore, campaign: str = CAMPAIGN) -> None:
    store.apply_delta(campaign, d.delta())
    store.append_changeset(campaign, d.record(1, 1, 2), [d.change(1, 1, 1), d.change(1, 1, 2)])
    store.save_analytics(campaign, d.HARBOUR, d.summary_vectors(d.HARBOUR))
    store.save_extraction_cache(campaign, {"m|v1|a": '{"entities": []}'})
    store.append_gm_decision(
        campaign, GmDecision(seq=1, kind="alias_add", subject="torven", names=("Old Torv",))
    )


def _env(data_dir: Path) -> dict[str, str]:
    return {"LOREGRAPH_STORE": "falkordb-embedded", "LOREGRAPH_DATA_DIR": str(data_dir)}


def _migrate(env: dict[str, str], *args: str) -> tuple[int, str]:
    """The exit code and stdout (with stderr too when the command failed outright)."""
    code, out, err = _migrate_full(env, *args)
    return code, out if code != 1 else out + err


def _migrate_full(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["migrate", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def _rows(output: str) -> dict[str, dict[str, object]]:
    return {row["part"]: row for row in json.loads(output)}


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    with FalkorDBStore.embedded(tmp_path / "source") as store:
        store.migrate()
        _fill(store)
    return tmp_path / "source"


def test_the_report_counts_what_moved(source: Path, tmp_path: Path) -> None:
    target = str(tmp_path / "target")
    code, output = _migrate(_env(source), "--to", "falkordb-embedded", "--to-data-dir", target,
                            "-c", CAMPAIGN, "--json")  # fmt: skip
    rows = _rows(output)
    assert code == 0 and all(row["ok"] for row in rows.values()), output
    assert rows["changelog"]["source_units"] == {"change sets": 1, "changes": 2}
    assert rows["chunks"]["source_units"] == {"chunks": 3, "vectors": 3, "mentions": 4}
    assert rows["entities"]["source_units"] == {"entities": 4, "vectors": 4}
    assert rows["analytics"]["source_units"] == {"communities": 2, "summaries": 2, "vectors": 2}
    wide = {**_env(source), "COLUMNS": "200"}
    code, text = _migrate(
        wide, "--to", "falkordb-embedded", "--to-data-dir", target, "-c", CAMPAIGN
    )
    assert code == 0 and "1 change sets, 2 changes" in text and "2 summaries" in text, text


def test_a_diverged_target_is_replaced_with_replace(source: Path, tmp_path: Path) -> None:
    """Moved there, played there (an NPC gone, a session posted), moved back."""
    there = tmp_path / "there"
    to_there = ("--to", "falkordb-embedded", "--to-data-dir", str(there), "-c", CAMPAIGN)
    assert _migrate(_env(source), *to_there)[0] == 0
    with FalkorDBStore.embedded(there) as played:
        played.apply_delta(CAMPAIGN, GraphDelta(entities_removed=("mira",)))
        played.append_changeset(CAMPAIGN, d.record(2, 1, 1), [d.change(2, 1, 1)])
    back = ("--to", "falkordb-embedded", "--to-data-dir", str(source), "-c", CAMPAIGN, "--json")
    code, output, complaint = _migrate_full(_env(there), *back)
    assert code == 2 and "--replace" in complaint
    assert {part for part, row in _rows(output).items() if not row["ok"]} == {
        "entities",
        "relations",
    }
    code, output = _migrate(_env(there), *back, "--replace")
    assert code == 0 and all(row["ok"] for row in _rows(output).values()), output
    with FalkorDBStore.embedded(there) as a, FalkorDBStore.embedded(source) as b:
        assert fingerprint(a, CAMPAIGN) == fingerprint(b, CAMPAIGN)
        assert "mira" not in {e.id for e in b.load_entities(CAMPAIGN)}


def test_an_interrupted_copy_completes_when_run_again(source: Path, tmp_path: Path) -> None:
    with FalkorDBStore.embedded(source) as src, FalkorDBStore.embedded(tmp_path / "t") as dst:
        dst.migrate()
        copy_campaign(src, dst, CAMPAIGN, PARTS[:2])  # stopped after sources and entities
        chunks = PARTS[2]
        chunks.write(dst, CAMPAIGN, chunks.load(src, CAMPAIGN)[:1])  # and one chunk of three
        assert fingerprint(dst, CAMPAIGN) != fingerprint(src, CAMPAIGN)
        reports = copy_campaign(src, dst, CAMPAIGN)
        assert all(report.ok for report in reports), reports
        assert fingerprint(dst, CAMPAIGN) == fingerprint(src, CAMPAIGN)


def test_an_unknown_campaign_is_an_error_listing_the_campaigns(
    source: Path, tmp_path: Path
) -> None:
    code, output = _migrate(_env(source), "--to", "falkordb-embedded", "--to-data-dir",
                            str(tmp_path / "t"), "-c", "harbor")  # fmt: skip
    assert code == 1 and "no campaign 'harbor'" in output and "harbour" in output, output
    assert not (tmp_path / "t").exists()  # nothing was opened, let alone written


@pytest.mark.parametrize(
    ("target", "named"),
    [
        (("--to", "falkordb"), "--to-url"),
        (("--to", "neo4j"), "--to-neo4j-uri"),
        (("--to", "neo4j", "--to-neo4j-uri", "http://localhost:7474"), "--to-neo4j-uri"),
    ],
)
def test_a_target_without_its_address_names_the_option(
    source: Path, target: tuple[str, ...], named: str
) -> None:
    code, output = _migrate(_env(source), *target, "-c", CAMPAIGN)
    assert code == 1 and named in output and "LOREGRAPH_" not in output.split("(")[0], output


def test_round_trip_through_neo4j(source: Path, tmp_path: Path) -> None:
    """embedded → the Neo4j at LOREGRAPH_NEO4J_URI → a fresh embedded store, equal checksums;
    the campaign gets a unique name there and is deleted afterwards."""
    uri, (user, password), database = sb.neo4j_settings()
    from graphrag_core.stores.neo4j import Neo4jStore

    neo = Neo4jStore.connect(uri, user, password, database, dimension=sb.DIM)
    sb.refuse_other_dimensions(neo, database)
    campaign = f"roundtrip-{uuid.uuid4().hex[:12]}"
    with FalkorDBStore.embedded(source) as store:
        _fill(store, campaign)
    neo4j_env = {"LOREGRAPH_STORE": "neo4j", "LOREGRAPH_NEO4J_URI": uri,
                 "LOREGRAPH_NEO4J_USER": user, "LOREGRAPH_NEO4J_PASSWORD": password,
                 "LOREGRAPH_NEO4J_DATABASE": database}  # fmt: skip
    try:
        code, there = _migrate(
            _env(source), "--to", "neo4j", "--to-neo4j-uri", uri, "--to-neo4j-user", user,
            "--to-neo4j-password", password, "--to-neo4j-database", database,
            "-c", campaign, "--json",
        )  # fmt: skip
        assert code == 0, there
        back = tmp_path / "back"
        code, output = _migrate(neo4j_env, "--to", "falkordb-embedded", "--to-data-dir",
                                str(back), "-c", campaign, "--json")  # fmt: skip
        assert code == 0, output
        sums = lambda text: {p: r["source_checksum"] for p, r in _rows(text).items()}  # noqa: E731
        assert sums(there) == sums(output)
        assert neo.health().healthy
    finally:
        neo.delete_campaign(campaign)
        neo.close()


def test_the_target_dimension_comes_from_summary_vectors_too(tmp_path: Path) -> None:
    """A campaign whose only embeddings are community summaries still sizes the target."""
    snapshot = d.analytics("only", d.summary("c-0-1", "party", "Sailors rest here."))
    with FalkorDBStore.embedded(tmp_path, dimension=16) as store:
        store.migrate()
        store.save_analytics("only", snapshot, {"c-0-1@party": (1.0, *([0.0] * 15))})
        assert vector_dimension(store, ["only"], 384) == 16
        assert vector_dimension(store, ["nobody"], 384) == 384
