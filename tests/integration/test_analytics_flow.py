"""Analytics end to end on the example campaign, real embedded FalkorDB, hash embedder."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from graphrag_core.analytics_models import AnalyticsSnapshot
from graphrag_core.cli import app
from graphrag_core.demo import changelog_files, load_questions
from graphrag_core.errors import AnalyticsError
from graphrag_core.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service
from tests.fakes import HashEmbedder

pytestmark = [pytest.mark.integration]

CAMPAIGN = "emberfall"


def _stable(snapshot: AnalyticsSnapshot) -> str:
    return snapshot.model_copy(update={"built_at": ""}).model_dump_json()


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, example_dir: Path
) -> Iterator[LoregraphService]:
    data_dir = tmp_path_factory.mktemp("analytics")
    with open_service(Settings(data_dir=data_dir), embedder=HashEmbedder(384)) as svc:
        svc.ingest(example_dir / "world", CAMPAIGN)
        svc.build(CAMPAIGN)
        yield svc


def test_build_computes_metrics_and_several_levels(service: LoregraphService) -> None:
    snapshot = service.analytics.snapshot(CAMPAIGN)
    entities = service.store.load_entities(CAMPAIGN)
    assert set(snapshot.metrics) == {e.id for e in entities}
    assert {c.level for c in snapshot.communities} >= {0, 1}
    top = max(snapshot.metrics.values(), key=lambda m: m.importance)
    assert top.importance == pytest.approx(10.0, abs=1.5)
    for c in snapshot.communities:
        assert snapshot.summary(c.id, "gm") is not None
        assert c.id.startswith(f"c-{c.level}-")


def test_build_is_deterministic_across_stores(
    service: LoregraphService, tmp_path: Path, example_dir: Path
) -> None:
    with open_service(Settings(data_dir=tmp_path), embedder=HashEmbedder(384)) as other:
        other.ingest(example_dir / "world", CAMPAIGN)
        other.build(CAMPAIGN)
        assert _stable(other.analytics.snapshot(CAMPAIGN)) == _stable(
            service.analytics.snapshot(CAMPAIGN)
        )


def test_rebuild_keeps_ids_and_summaries(service: LoregraphService) -> None:
    before = service.analytics.snapshot(CAMPAIGN)
    report = service.build(CAMPAIGN)
    after = service.analytics.snapshot(CAMPAIGN)
    assert report.resummarised == 0 and report.reused_ids == len(before.communities)
    assert report.embedded == 0  # unchanged summaries keep their stored vectors
    assert [(c.id, c.version, c.members) for c in after.communities] == [
        (c.id, c.version, c.members) for c in before.communities
    ]


def _secrets(example_dir: Path, service: LoregraphService) -> list[str]:
    secrets = [
        str(s)
        for item in load_questions(example_dir)
        for s in (item.get("as_player_must_not_contain") or [])  # type: ignore[attr-defined]
    ]
    entities = service.store.load_entities(CAMPAIGN)
    secrets += [e.name for e in entities if e.visibility == "gm"]
    secrets += [a for e in entities for a in e.gm_aliases]
    secrets += [e.gm_notes.split(".")[0] for e in entities if e.gm_notes]
    return [s for s in secrets if s]


def test_party_summaries_never_hold_gm_only_text(
    service: LoregraphService, example_dir: Path
) -> None:
    secrets = _secrets(example_dir, service)
    assert secrets
    gm_only = {e.id for e in service.store.load_entities(CAMPAIGN) if e.visibility == "gm"}
    views = service.communities(CAMPAIGN, as_player=True)
    assert views
    for view in views:
        text = view.model_dump_json().lower()
        assert not set(view.members) & gm_only
        for secret in secrets:
            assert secret.lower() not in text, f"{secret!r} leaked in {view.id}"
    answer = service.ask_global("what are the main powers?", CAMPAIGN, as_player=True, k=20)
    text = answer.model_dump_json(exclude={"question"}).lower()
    for secret in secrets:
        assert secret.lower() not in text


def test_gm_summaries_do_hold_secrets(service: LoregraphService, example_dir: Path) -> None:
    text = " ".join(v.model_dump_json() for v in service.communities(CAMPAIGN)).lower()
    assert any(s.lower() in text for s in _secrets(example_dir, service))


def test_broad_question_gets_cited_summaries(service: LoregraphService) -> None:
    question = "What are the main powers in the north and how do they stand with each other?"
    answer = service.ask_global(question, CAMPAIGN)
    assert answer.method == "summaries" and answer.summaries
    assert answer.claims and all(c.community_ids and c.entity_ids for c in answer.claims)
    scores = [h.score for h in answer.summaries]
    assert scores == sorted(scores, reverse=True)


def test_community_shows_its_sub_communities(service: LoregraphService) -> None:
    parents = [v for v in service.communities(CAMPAIGN, level=0) if v.children]
    assert parents
    view = service.community(parents[0].id, CAMPAIGN)
    assert view.children and all(
        service.community(child, CAMPAIGN).parent == view.id for child in view.children
    )
    with pytest.raises(AnalyticsError):
        service.community("c-9-999", CAMPAIGN)


def test_posting_changes_rebuilds_and_resummarises_only_touched(
    tmp_path: Path, example_dir: Path
) -> None:
    world = tmp_path / "world"
    shutil.copytree(example_dir, world)
    with open_service(Settings(data_dir=tmp_path / "d"), embedder=HashEmbedder(384)) as svc:
        svc.ingest(world / "world", "rebuild")
        svc.build("rebuild")
        before = svc.analytics.snapshot("rebuild")
        first = changelog_files(world)[0]
        result = svc.post_changelog(first, "rebuild")
        after = svc.analytics.snapshot("rebuild")
        changed = {c.entity_id for c in result.changes} | {
            c.target_id for c in result.changes if c.target_id
        }
        if result.rebuild == "none":
            assert after == before
            return
        assert after.last_rebuild_session == result.session_id
        kept = {s.key for s in after.summaries} & {s.key for s in before.summaries}
        for key in kept:
            old = next(s for s in before.summaries if s.key == key)
            new = next(s for s in after.summaries if s.key == key)
            if not set(new.members) & changed:
                assert new == old


def test_impact_uses_stored_importance_and_counts_since_the_last_rebuild(
    tmp_path: Path, example_dir: Path
) -> None:
    with open_service(Settings(data_dir=tmp_path), embedder=HashEmbedder(384)) as svc:
        svc.ingest(example_dir / "world", "impact")
        files = changelog_files(example_dir)
        svc.post_changelog(files[0], "impact")
        svc.build("impact")
        snapshot = svc.analytics.snapshot("impact")
        second = svc.post_changelog(files[1], "impact")
        assert second.cumulative_impact == pytest.approx(second.impact)
        session = yaml.safe_load(files[1].read_text())["session_id"]
        assert snapshot.last_rebuild_session < session


def test_cli_build_communities_and_community(tmp_path: Path, example_dir: Path) -> None:
    env = {"LOREGRAPH_DATA_DIR": str(tmp_path / "data"), "LOREGRAPH_CAMPAIGN": "cli"}
    runner = CliRunner()
    result = runner.invoke(app, ["ingest", str(example_dir / "world"), "--no-build"], env=env)
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["communities"], env=env)
    assert result.exit_code == 1 and "loregraph build" in result.output
    result = runner.invoke(app, ["build"], env=env)
    assert result.exit_code == 0 and "communities" in result.output, result.output
    result = runner.invoke(app, ["communities", "--json", "--level", "0"], env=env)
    assert result.exit_code == 0, result.output
    assert '"id": "c-0-1"' in result.output
    result = runner.invoke(app, ["community", "c-0-1"], env=env)
    assert result.exit_code == 0 and "c-0-1" in result.output
    result = runner.invoke(app, ["ask", "--global", "who rules the north?", "--json"], env=env)
    assert result.exit_code == 0 and '"method": "summaries"' in result.output
