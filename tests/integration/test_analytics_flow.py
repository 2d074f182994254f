"""Analytics end to end on the example campaign, real embedded FalkorDB, hash embedder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import igraph as ig
import pytest
import yaml
from typer.testing import CliRunner

from graphrag_core.analytics_models import AnalyticsSnapshot
from graphrag_core.errors import AnalyticsError
from graphrag_core.services.service import LoregraphService
from graphrag_core.services.views import load_view
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.app import app
from graphrag_core.surfaces.cli.demo import changelog_files, load_questions
from graphrag_core.wiring import open_service
from tests.fakes import HashEmbedder, RecordingProgress

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
    assert set(snapshot.gm.metrics) == {e.id for e in entities}
    assert set(snapshot.party.metrics) == {e.id for e in entities if e.visibility == "party"}
    assert {c.level for c in snapshot.gm.communities} >= {0, 1}
    top = max(snapshot.gm.metrics.values(), key=lambda m: m.importance)
    assert top.importance == pytest.approx(10.0, abs=1.5)
    for visibility, prefix in (("gm", "c"), ("party", "p")):
        analytics = snapshot.audience(visibility)  # type: ignore[arg-type]
        assert analytics.communities
        summaries = analytics.summaries_by_id()
        for c in analytics.communities:
            summary = summaries.get(c.id)
            assert summary is not None and summary.visibility == visibility
            assert c.id.startswith(f"{prefix}-{c.level}-")


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
    total = len(before.gm.communities) + len(before.party.communities)
    assert report.resummarised == 0 and report.reused_ids == total and not report.reclustered
    assert report.embedded == 0  # unchanged summaries keep their stored vectors
    assert after.model_copy(update={"built_at": ""}) == before.model_copy(update={"built_at": ""})


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


def test_party_communities_hang_together_in_the_party_graph(service: LoregraphService) -> None:
    """No party community groups entities that only GM-only relations connect."""
    party = load_view(service.store, CAMPAIGN, as_player=True)
    views = service.communities(CAMPAIGN, as_player=True)
    assert views and all(v.id.startswith("p-") for v in views)
    for view in views:
        index = {m: i for i, m in enumerate(view.members)}
        edges = {
            tuple(sorted((index[r.source], index[r.target])))
            for r in party.relations
            if r.source in index and r.target in index and r.source != r.target
        }
        graph = ig.Graph(n=len(index), edges=sorted(edges))
        assert len(graph.connected_components()) == 1, view.id
    gm_ids = {v.id for v in service.communities(CAMPAIGN)}
    with pytest.raises(AnalyticsError, match="for players"):
        service.community(sorted(gm_ids)[0], CAMPAIGN, as_player=True)


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


def _forcing_changeset(svc: LoregraphService, campaign: str, path: Path) -> tuple[str, str]:
    """A session that kills the three most important NPCs (impact far above the force
    threshold) and turns one relation inside a GM community hostile; returns that pair."""
    snapshot = svc.analytics.snapshot(campaign)
    entities = {e.id: e for e in svc.store.load_entities(campaign)}
    npcs = sorted(
        (m for m in snapshot.gm.metrics.values() if entities[m.entity_id].type == "NPC"),
        key=lambda m: -m.importance,
    )[:3]
    level0 = {m: c.id for c in snapshot.gm.communities if c.level == 0 for m in c.members}
    pair = next(
        (r.source, r.target)
        for r in svc.store.load_relations(campaign)
        if r.visibility == "party"
        and "party" not in (r.source, r.target)
        and r.source in level0
        and level0[r.source] == level0.get(r.target)
        and r.source not in {m.entity_id for m in npcs}
    )
    path.write_text(
        yaml.safe_dump(
            {
                "session_id": 9,
                "title": "A bloody night",
                "entity_updates": [
                    {"entity_id": m.entity_id, "entity_type": "npc", "status": "dead"} for m in npcs
                ],
                "relationship_updates": [{"from": pair[0], "to": pair[1], "new_status": "hostile"}],
            }
        )
    )
    return pair


def test_posting_changes_rebuilds_and_resummarises_only_touched(
    tmp_path: Path, example_dir: Path
) -> None:
    with open_service(Settings(data_dir=tmp_path / "d"), embedder=HashEmbedder(384)) as svc:
        svc.ingest(example_dir / "world", "rebuild")
        svc.build("rebuild")
        before = svc.analytics.snapshot("rebuild")
        pair = _forcing_changeset(svc, "rebuild", tmp_path / "session-09.yaml")
        progress = RecordingProgress()
        done = svc.post_and_rebuild(tmp_path / "session-09.yaml", "rebuild", progress=progress)
        result, report = done.post, done.build
        assert result.rebuild == "forced" and report is not None
        embedded = [
            n for kind, task, n in progress.events if (kind, task) == ("advance", "embed summaries")
        ]
        assert sum(n or 0 for n in embedded) == report.embedded > 0  # the bar advances
        after = svc.analytics.snapshot("rebuild")
        assert after.last_rebuild_session == result.session_id == 9
        assert not report.reclustered  # changes do not move the graph: clustering kept
        touched = {c.entity_id for c in result.changes} | {
            c.target_id for c in result.changes if c.target_id
        }
        old = {s.key: s for s in before.summaries}
        rewritten = 0
        for new in after.summaries:
            if not set(new.members) & touched:
                assert new == old[new.key]
            elif new != old[new.key]:
                rewritten += 1
        assert rewritten == report.resummarised > 0
        hostile = next(c for c in result.changes if c.target_id == pair[1])
        cited = [f for s in after.gm.summaries for f in s.findings if hostile.id in f.change_ids]
        assert cited and all("hostile" in f.text for f in cited)


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
    result = runner.invoke(app, ["ask", "--global", "who rules?", "--json", "-k", "2"], env=env)
    assert result.exit_code == 0 and len(json.loads(result.stdout)["summaries"]) == 2


def test_cli_skips_rebuilds_it_does_not_need_and_reports_the_ones_it_does(
    tmp_path: Path, example_dir: Path
) -> None:
    env = {"LOREGRAPH_DATA_DIR": str(tmp_path / "data"), "LOREGRAPH_CAMPAIGN": "cli"}
    runner = CliRunner()
    first = runner.invoke(app, ["ingest", str(example_dir / "world")], env=env)
    assert first.exit_code == 0 and "Built cli" in first.output, first.output
    again = runner.invoke(app, ["ingest", str(example_dir / "world")], env=env)
    assert again.exit_code == 0, again.output
    assert "Nothing to do" in again.output and "Analytics unchanged" in again.output
    assert "Built cli" not in again.output
    table = runner.invoke(app, ["communities", "--level", "0"], env=env)
    assert table.exit_code == 0 and "members" in table.output and "summary" in table.output
    nosuch = runner.invoke(app, ["build", "-c", "nosuch"], env=env)
    assert nosuch.exit_code == 1 and "'nosuch' holds nothing" in nosuch.output
    assert "campaigns in this store: cli" in nosuch.output
    with open_service(Settings(data_dir=tmp_path / "data"), embedder=HashEmbedder(384)) as svc:
        _forcing_changeset(svc, "cli", tmp_path / "s9.yaml")
    posted = runner.invoke(app, ["changelog", "post", str(tmp_path / "s9.yaml")], env=env)
    assert posted.exit_code == 0, posted.output
    assert "rebuild advice: forced" in posted.output and "Built cli" in posted.output


def _snapshot_reads(svc: LoregraphService, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The campaigns whose snapshot the service reads from now on (from its real store, or
    from the read snapshot's file when that holds the store's current revision)."""
    reads: list[str] = []
    load = svc.analytics._load

    def counted(campaign: str) -> AnalyticsSnapshot | None:
        reads.append(campaign)
        return load(campaign)

    monkeypatch.setattr(svc.analytics, "_load", counted)
    return reads


def test_the_snapshot_is_read_once_until_a_build(
    service: LoregraphService, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.analytics.forget(CAMPAIGN)
    reads = _snapshot_reads(service, monkeypatch)
    gm = service.communities(CAMPAIGN)
    service.communities(CAMPAIGN, as_player=True, level=0)
    service.community(gm[0].id, CAMPAIGN)
    service.ask_global("who rules the north?", CAMPAIGN)
    assert reads == [CAMPAIGN]
    service.build(CAMPAIGN)  # from the kept snapshot; the new one is read when next needed
    assert reads == [CAMPAIGN]
    assert service.communities(CAMPAIGN) == gm
    assert reads == [CAMPAIGN, CAMPAIGN]


def test_ingest_and_post_read_the_snapshot_once(
    tmp_path: Path, example_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_service(Settings(data_dir=tmp_path / "d"), embedder=HashEmbedder(384)) as svc:
        first = svc.ingest(example_dir / "world", "once")
        assert first.wrote and svc.build_after_ingest(first) is not None
        reads = _snapshot_reads(svc, monkeypatch)
        again = svc.ingest(example_dir / "world", "once")
        assert not again.wrote and svc.build_after_ingest(again) is None
        _forcing_changeset(svc, "once", tmp_path / "session-09.yaml")
        done = svc.post_and_rebuild(tmp_path / "session-09.yaml", "once")
        assert done.build is not None and done.build.resummarised > 0
        assert reads == ["once"]
