"""Prose without a model, end to end on the real embedded FalkorDB and embedding model.

Plain Markdown lore and recaps (no world pack, no front matter) become a world whose
changelog can name its people by name and by alias, and whose answers respect it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
KETTLEBRIDGE = ROOT / "examples" / "kettlebridge"
CAMPAIGN_DATA = ROOT / "tests" / "data" / "prose_campaign" / "world"


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder
) -> Iterator[LoregraphService]:
    data_dir = tmp_path_factory.mktemp("data")
    with open_service(Settings(data_dir=data_dir), embedder=real_embedder) as svc:
        yield svc


@pytest.fixture(scope="module")
def kettlebridge(service: LoregraphService, tmp_path_factory: pytest.TempPathFactory) -> str:
    world = tmp_path_factory.mktemp("kb") / "kettlebridge"
    shutil.copytree(KETTLEBRIDGE, world)
    report = service.ingest(world / "world", "kettlebridge")
    assert report.wrote and not report.failures
    assert report.entities >= 8 and report.relations >= 4
    service.post_changelog(world / "changelog" / "session-08.json", "kettlebridge")
    service.build("kettlebridge")
    return "kettlebridge"


def test_the_changelog_names_a_prose_entity_by_its_alias(
    service: LoregraphService, kettlebridge: str
) -> None:
    view = service.entity("Old Wenna", kettlebridge)
    assert view.name == "Wenna Marsh"
    assert view.type == "NPC"
    assert view.status == "dead"


def test_the_party_may_rest_at_the_inn_and_not_with_the_dead(
    service: LoregraphService, kettlebridge: str
) -> None:
    result = service.ask("Where can the party rest?", kettlebridge, k=5)
    entities = [r for r in result.results if r.kind == "entity"]
    assert entities, "the prose gave no entity to answer with"
    inn = next(r for r in entities if r.name == "The Copper Kettle")
    assert inn.type == "Location" and inn.available
    assert inn is entities[0]
    wenna = service.ask("Where is Old Wenna?", kettlebridge, k=5)
    found = next(r for r in wenna.results if r.name == "Wenna Marsh")
    assert not found.available


def test_gm_only_prose_stays_out_of_player_answers(
    service: LoregraphService, kettlebridge: str
) -> None:
    answer = service.ask("Who are the smugglers on the Slow River?", kettlebridge, as_player=True)
    dumped = json.dumps(answer.model_dump())
    assert "Night Ferrymen" not in dumped


def test_the_prose_campaign_becomes_a_world_named_by_name_and_alias(
    service: LoregraphService, tmp_path: Path
) -> None:
    report = service.ingest(CAMPAIGN_DATA, "vale")
    assert report.wrote and report.entities >= 40
    change = {
        "session_id": 8,
        "entity_updates": [
            {"entity_id": "Brother Tomas", "status": "dead"},
            {"entity_id": "Sera Quill", "status": "dead"},
            {"entity_id": "the Boatman", "status": "missing"},
        ],
    }
    path = tmp_path / "session-08.json"
    path.write_text(json.dumps(change), encoding="utf-8")
    service.post_changelog(path, "vale")
    assert service.entity("Tomas Reed", "vale").status == "dead"
    assert service.entity("Hesk Morrow", "vale").status == "missing"
    result = service.ask("Where can the party rest?", "vale", k=5)
    top = next(r for r in result.results if r.kind == "entity")
    assert (top.name, top.type, top.available) == ("The Lantern Rest", "Location", True)
