"""The service can live in a server (real embedded FalkorDB, real embedding model): use cases
take data (a change set as a dict or text, uploaded file bytes) through the same calls the CLI
uses; the cached campaign views are safe under concurrent requests and are invalidated by a
write from another process, not only by this one."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_core.models import SourceUpload
from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service
from tests.integration.cli_world import WORLD

pytestmark = pytest.mark.integration

DEATH = {"session_id": 4, "entity_updates": [{"entity_id": "Torven", "status": "dead"}]}


@pytest.fixture()
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@pytest.fixture()
def service(settings: Settings, real_embedder: Embedder) -> Iterator[LoregraphService]:
    with open_service(settings, embedder=real_embedder) as svc:
        report = svc.ingest_files(
            [
                SourceUpload(path="world.yaml", data=WORLD.encode()),
                SourceUpload(
                    path="lore/notes.md", data=b"# Notes\nTorven drinks at the Red Oak.\n"
                ),
            ],
            "srv",
        )
        assert report.wrote and not report.failures
        yield svc


def _status(service: LoregraphService, name: str) -> str | None:
    return service.entity(name, "srv").status


def test_uploaded_bytes_ingest_like_files(service: LoregraphService) -> None:
    assert {"world.yaml", "lore/notes.md"} <= set(service.store.load_sources("srv"))
    assert _status(service, "Torven") == "alive"
    again = service.ingest_files([SourceUpload(path="world.yaml", data=WORLD.encode())], "srv")
    assert not again.wrote and again.unchanged == ("world.yaml",)


def test_an_upload_outside_the_campaign_is_that_files_failure(service: LoregraphService) -> None:
    report = service.ingest_files(
        [
            SourceUpload(path="../escape.md", data=b"# Escape\n"),
            SourceUpload(path="more.md", data=b"# More\nThe Quiet Lantern Inn has a hearth.\n"),
        ],
        "srv",
    )
    assert set(report.failures) == {"../escape.md"}
    assert "more.md" in service.store.load_sources("srv")


def test_a_change_set_posts_as_a_dict_or_text(service: LoregraphService) -> None:
    first = service.post_changelog(DEATH, "srv", source_name="recap-job")
    assert first.action == "new" and first.changes[0].source == "recap-job"
    again = service.post_changelog(json.dumps(DEATH), "srv", source_name="recap-job")
    assert again.action == "duplicate"
    assert _status(service, "Torven") == "dead"


def test_another_process_write_invalidates_the_cached_view(
    service: LoregraphService, settings: Settings, real_embedder: Embedder
) -> None:
    assert _status(service, "Torven") == "alive"  # the view is now cached
    with open_service(settings, embedder=real_embedder) as other:  # another connection
        other.post_changelog(DEATH, "srv")
    assert _status(service, "Torven") == "dead"


def test_concurrent_requests_share_one_consistent_view(service: LoregraphService) -> None:
    errors: list[BaseException] = []
    answers: list[str] = []

    def reader() -> None:
        try:
            for _ in range(5):
                result = service.ask("Where can the party rest?", "srv", k=3)
                answers.append(result.results[0].id)
        except BaseException as exc:  # a failing thread must fail the test
            errors.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(6)]
    for thread in threads:
        thread.start()
    service.post_changelog(DEATH, "srv")
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    assert len(answers) == 30
    assert _status(service, "Torven") == "dead"
