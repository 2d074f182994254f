"""The service's use cases on the in-memory store (``tests/memory_store.py``, held to the store
contract beside FalkorDB): ingest a small world, post a change set given as a dict (an HTTP
body), ask and show an entity's status — no database, no model, well under a second."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_core.services.service import LoregraphService
from tests.fakes import FakeClock, HashEmbedder
from tests.integration.cli_world import make_world
from tests.memory_store import MemoryStore

CAMPAIGN = "vale"
BURNED = {
    "session_id": 1,
    "title": "The Night of Cinders",
    "entity_updates": [
        {"entity_id": "Red Oak", "entity_type": "location", "status": "destroyed",
         "note": "Burned down in the brawl."},
    ],
}  # fmt: skip
REST = "Where can the party rest tonight?"


@pytest.fixture()
def world(tmp_path: Path) -> Path:
    return make_world(tmp_path)


def _service(store: MemoryStore, data_dir: Path) -> LoregraphService:
    return LoregraphService(
        store=store, embedder=HashEmbedder(), clock=FakeClock(), data_dir=data_dir
    )


def test_ingest_post_ask_and_status(tmp_path: Path, world: Path) -> None:
    store = MemoryStore(dimension=64)
    service = _service(store, tmp_path / "data")

    report = service.ingest(world, CAMPAIGN)
    assert (report.wrote, report.entities, report.chunks) == (True, 3, 5)
    assert report.embedded == 8  # three entities, five chunks
    assert service.campaigns() == [CAMPAIGN]
    assert service.ingest(world, CAMPAIGN).wrote is False  # nothing changed: nothing written

    before = service.ask(REST, CAMPAIGN).results
    assert [r.id for r in before[:2]] == ["tavern-redoak", "quiet-lantern-inn"]
    assert before[0].status == "intact" and before[0].available

    post = service.post_changelog(BURNED, CAMPAIGN)
    assert (post.action, post.session_id, post.revision) == ("new", 1, 1)
    assert [(c.entity_id, c.new_value) for c in post.changes] == [("tavern-redoak", "destroyed")]
    assert service.post_changelog(BURNED, CAMPAIGN).action == "duplicate"
    assert [(r.session_id, r.title) for r in service.changesets(CAMPAIGN)] == [
        (1, "The Night of Cinders")
    ]

    after = {r.id: r for r in service.ask(REST, CAMPAIGN).results}
    assert next(iter(after)) == "quiet-lantern-inn"  # the burned tavern drops below the inn
    tavern = after["tavern-redoak"]
    assert (tavern.status, tavern.available) == ("destroyed", False)
    assert "destroyed in session 1" in tavern.status_note

    shown = service.entity("the Red Oak", CAMPAIGN)
    assert (shown.base_status, shown.status) == ("intact", "destroyed")
    assert shown.status_change is not None and shown.status_change.source == "changeset"


def test_players_never_see_gm_notes(tmp_path: Path, world: Path) -> None:
    service = _service(MemoryStore(dimension=64), tmp_path / "data")
    service.ingest(world, CAMPAIGN)
    assert "smuggler" in service.entity("Torven", CAMPAIGN).gm_notes
    assert service.entity("Torven", CAMPAIGN, as_player=True).gm_notes == ""
    question = "Who is the smuggler of the Drowned Court?"
    assert any("smuggler" in r.text for r in service.ask(question, CAMPAIGN).results)
    answers = service.ask(question, CAMPAIGN, as_player=True).results
    assert answers and all("smuggler" not in r.text for r in answers)


def test_a_write_by_another_service_invalidates_cached_views(tmp_path: Path, world: Path) -> None:
    """Two services on one store stand for two processes: the store's campaign revision, not
    the writer's own cache, tells the reader its view is stale."""
    store = MemoryStore(dimension=64)
    reader, writer = _service(store, tmp_path / "data"), _service(store, tmp_path / "data")
    reader.ingest(world, CAMPAIGN)
    assert reader.entity("Red Oak Tavern", CAMPAIGN).status == "intact"  # cached now
    revision = store.campaign_revision(CAMPAIGN)
    writer.post_changelog(BURNED, CAMPAIGN)
    assert store.campaign_revision(CAMPAIGN) > revision
    assert reader.entity("Red Oak Tavern", CAMPAIGN).status == "destroyed"
