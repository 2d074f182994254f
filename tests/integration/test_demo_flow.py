"""End to end on the real embedded FalkorDB and the real embedding model: the demo flow."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from graphrag_core.errors import ChangelogConflictError, ChangelogError, UnknownEntityError
from graphrag_core.models import AskResult
from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files, load_questions
from graphrag_core.wiring import open_service

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CAMPAIGN = "emberfall"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, example_dir: Path) -> Path:
    """A private copy of the example campaign, so tests may edit it."""
    target = tmp_path_factory.mktemp("example") / "emberfall"
    shutil.copytree(example_dir, target)
    return target


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder, world: Path
) -> Iterator[LoregraphService]:
    data_dir = tmp_path_factory.mktemp("data")
    with open_service(Settings(data_dir=data_dir), embedder=real_embedder) as svc:
        first = svc.ingest(world / "world", CAMPAIGN)
        assert first.wrote and not first.failures
        for file in changelog_files(world):
            svc.post_changelog(file, CAMPAIGN)
        yield svc


def _questions(example_dir: Path) -> list[dict[str, object]]:
    return load_questions(example_dir)


def test_reingest_of_unchanged_sources_writes_nothing(
    service: LoregraphService, world: Path
) -> None:
    report = service.ingest(world / "world", CAMPAIGN)
    assert not report.wrote
    assert report.embedded == 0
    assert not report.added and not report.changed and not report.removed
    assert report.entities >= 45
    manifest = service.data_dir / "manifests" / CAMPAIGN / "latest.json"
    written = json.loads(manifest.read_text())
    assert written["files"] == report.files


def test_an_upgraded_extractor_reads_every_unchanged_source_again(
    service: LoregraphService, world: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = service.ingest(world / "world", CAMPAIGN)
    assert not before.wrote and not before.outdated
    upgraded = "graphrag_core.services.service.extractor_tag"
    monkeypatch.setattr(upgraded, lambda *, llm: "offline:a-later-release")
    report = service.ingest(world / "world", CAMPAIGN)
    assert report.wrote and sorted(report.outdated) == sorted(report.files)
    assert not report.unchanged and not report.changed and not report.removed
    assert report.embedded == 0  # the same code read the same files: no new text
    assert (report.entities, report.relations) == (before.entities, before.relations)
    assert not service.ingest(world / "world", CAMPAIGN).wrote  # recorded: read once
    monkeypatch.undo()
    back = service.ingest(world / "world", CAMPAIGN)  # this release again: read again
    assert back.wrote and sorted(back.outdated) == sorted(back.files)
    assert not service.ingest(world / "world", CAMPAIGN).wrote


def test_posting_a_session_twice_changes_nothing(service: LoregraphService, world: Path) -> None:
    before = service.store.load_changes(CAMPAIGN)
    result = service.post_changelog(changelog_files(world)[0], CAMPAIGN)
    assert result.action == "duplicate"
    assert service.store.load_changes(CAMPAIGN) == before


def test_a_different_change_set_for_a_posted_session_needs_amend(
    service: LoregraphService, tmp_path: Path
) -> None:
    first_session = min(r.session_id for r in service.store.load_changesets(CAMPAIGN))
    other = tmp_path / "other.yaml"
    other.write_text(
        yaml.safe_dump(
            {
                "session_id": first_session,
                "entity_updates": [{"entity_id": "tavern-redoak", "status": "damaged"}],
            }
        )
    )
    with pytest.raises(ChangelogConflictError, match="--amend"):
        service.post_changelog(other, CAMPAIGN)


def test_unknown_entity_in_a_changelog_is_named_with_suggestions(
    service: LoregraphService, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "session_id": 99,
                "entity_updates": [{"entity_id": "Torvenn Blackwatter", "status": "dead"}],
            }
        )
    )
    before = service.store.load_changes(CAMPAIGN)
    with pytest.raises((UnknownEntityError, ChangelogError)) as info:
        service.post_changelog(bad, CAMPAIGN)
    assert "Torvenn Blackwatter" in str(info.value)
    assert "torven-blackwater" in str(info.value).lower()
    assert service.store.load_changes(CAMPAIGN) == before


def _check(item: dict[str, object], result: AskResult, role: str) -> None:
    """Check one answer against the expectations written in questions.yaml."""
    question = item["question"]
    top = list(result.results[:5])
    ids = [r.id for r in top]
    for key in ("expect_in_top", f"as_{role}_expect_in_top"):
        wanted = item.get(key) or []
        missing = [w for w in wanted if w not in ids]  # type: ignore[attr-defined]
        assert not missing, f"{question} [{role}]: {missing} not in the top 5 {ids}"
    wanted = item.get("expect_available_in_top") or []
    offered = [r.id for r in top if r.id in wanted and r.available]  # type: ignore[operator]
    least = int(item.get("min_available", 1)) if wanted else 0  # type: ignore[call-overload]
    assert len(offered) >= least, f"{question} [{role}]: {offered} of {wanted} in {ids}"
    banned = item.get("must_not_be_offered") or []
    for r in result.results:
        assert r.id not in banned or not r.available, f"{r.id} offered as available"  # type: ignore[operator]
    if banned and not result.historical:
        assert result.results[0].id not in banned  # type: ignore[operator]


def _expected_statuses(item: dict[str, object], role: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for key in ("expect_status", f"as_{role}_expect_status"):
        expected = item.get(key) or {}
        assert isinstance(expected, dict)
        found.update(expected)
    return found


@pytest.mark.parametrize("role", ["gm", "player"])
def test_every_demo_question_meets_its_expectations(
    service: LoregraphService, example_dir: Path, role: str
) -> None:
    as_player = role == "player"
    for item in _questions(example_dir):
        result = service.ask(str(item["question"]), CAMPAIGN, k=10, as_player=as_player)
        _check(item, result, role)
        shown = {r.id: r.status for r in result.results}
        for entity_id, status in _expected_statuses(item, role).items():
            assert service.entity(entity_id, CAMPAIGN, as_player=as_player).status == status
            assert shown.get(entity_id, status) == status, f"{item['question']}: {entity_id}"


def test_destroyed_tavern_is_marked_and_demoted_for_rest_questions(
    service: LoregraphService,
) -> None:
    rest = service.ask("Where can the party rest tonight?", CAMPAIGN, k=10)
    assert all(r.available for r in rest.results[:5])
    assert "tavern-redoak" not in [r.id for r in rest.results[:5]]
    # asked about by name, the tavern is found -- and marked destroyed, citing the change
    named = service.ask("Can we rest at the Red Oak Tavern tonight?", CAMPAIGN, k=10)
    tavern = next(r for r in named.results if r.id == "tavern-redoak")
    assert tavern.status == "destroyed" and not tavern.available
    assert tavern.signals["named"] == 1.0
    assert any(c.kind == "change" and c.session_id == 3 for c in tavern.citations)
    # the inn that is still standing is offered beside it
    assert any(r.id == "the-weary-wagon" and r.available for r in named.results[:5])


def test_dead_npc_has_effective_status_with_the_change_that_set_it(
    service: LoregraphService,
) -> None:
    view = service.entity("Torven", CAMPAIGN)
    assert view.id == "torven-blackwater"
    assert view.base_status == "alive"
    assert view.status == "dead"
    assert view.status_change is not None
    assert view.status_change.new_value == "dead"


def test_historical_question_does_not_demote(service: LoregraphService) -> None:
    result = service.ask("What happened at the Red Oak Tavern?", CAMPAIGN, k=5)
    assert result.historical
    assert "tavern-redoak" in [r.id for r in result.results[:3]]
    tavern = next(r for r in result.results if r.id == "tavern-redoak")
    assert tavern.signals["status_factor"] == 1.0


def test_player_view_never_contains_gm_secrets(
    service: LoregraphService, example_dir: Path
) -> None:
    secrets = [
        str(s)
        for item in _questions(example_dir)
        for s in (item.get("as_player_must_not_contain") or [])  # type: ignore[attr-defined]
    ]
    assert secrets, "the example campaign must carry GM secrets to test"
    for item in _questions(example_dir):
        for k in (5, 20):
            answer = service.ask(str(item["question"]), CAMPAIGN, as_player=True, k=k)
            # the question itself may name a secret; the answer must not
            text = answer.model_dump_json(exclude={"question"}).lower()
            for secret in secrets:
                assert secret.lower() not in text, f"{secret!r} leaked for {item['question']!r}"


def test_gm_view_does_find_the_secret(service: LoregraphService, example_dir: Path) -> None:
    secret_questions = [q for q in _questions(example_dir) if q.get("as_player_must_not_contain")]
    found = False
    for item in secret_questions:
        answer = service.ask(str(item["question"]), CAMPAIGN, k=10)
        gm = answer.model_dump_json(exclude={"question"}).lower()
        found = found or any(
            str(s).lower() in gm
            for s in item["as_player_must_not_contain"]  # type: ignore[attr-defined]
        )
    assert found


def test_gm_only_entity_is_unknown_to_players(service: LoregraphService) -> None:
    gm_only = [e for e in service.store.load_entities(CAMPAIGN) if e.visibility == "gm"]
    assert gm_only
    with pytest.raises(UnknownEntityError):
        service.entity(gm_only[0].name, CAMPAIGN, as_player=True)
    assert service.entity(gm_only[0].name, CAMPAIGN).id == gm_only[0].id


def test_as_of_session_sees_the_world_before_later_changes(service: LoregraphService) -> None:
    now = service.entity("Torven", CAMPAIGN)
    assert now.status_change is not None
    before = service.entity("Torven", CAMPAIGN, as_of_session=now.status_change.session_id - 1)
    assert before.status == "alive"


def test_changed_removed_and_broken_files(
    tmp_path: Path, real_embedder: Embedder, example_dir: Path
) -> None:
    world = tmp_path / "world"
    shutil.copytree(example_dir / "world", world)
    with open_service(Settings(data_dir=tmp_path / "data"), embedder=real_embedder) as svc:
        svc.ingest(world, "edits")
        lore = sorted((world / "lore").glob("*.md"))
        lore[0].write_text(lore[0].read_text() + "\n\n## Addendum\nA new shrine stands here.\n")
        removed = lore[1].relative_to(world).as_posix()
        lore[1].unlink()
        (world / "broken.yaml").write_text("entities:\n  - name: [unclosed\n")
        before_chunks = {c.id for c in svc.store.load_chunks("edits")}
        report = svc.ingest(world, "edits")
        assert "broken.yaml" in report.failures
        assert report.changed == (lore[0].relative_to(world).as_posix(),)
        assert report.removed == (removed,)
        after = svc.store.load_chunks("edits")
        assert not any(c.source_path == removed for c in after)
        assert any("new shrine" in c.text for c in after)
        assert 0 < report.embedded < len(before_chunks)


def test_a_file_that_breaks_keeps_its_last_good_content(
    tmp_path: Path, real_embedder: Embedder, example_dir: Path
) -> None:
    world = tmp_path / "world"
    shutil.copytree(example_dir / "world", world)
    note = world / "vault" / "Sister Calla.md"
    with open_service(Settings(data_dir=tmp_path / "data"), embedder=real_embedder) as svc:
        svc.ingest(world, "broken")
        before_chunks = [
            c for c in svc.store.load_chunks("broken") if c.source_path.endswith("Sister Calla.md")
        ]
        assert before_chunks
        note.write_text("---\ntype: [unclosed\n---\n# Sister Calla\n")
        report = svc.ingest(world, "broken")
        assert set(report.failures) == {"vault/Sister Calla.md"}
        assert "vault/Sister Calla.md" not in report.removed
        assert svc.entity("Sister Calla", "broken").id == "sister-calla"
        after_chunks = [
            c for c in svc.store.load_chunks("broken") if c.source_path.endswith("Sister Calla.md")
        ]
        assert after_chunks == before_chunks
        assert svc.store.load_sources("broken")["vault/Sister Calla.md"].sha256 != ""
