"""The community views a preview reads (findings patched from the overlay) are kept per
campaign revision: a write by another service on the same store (another process: the
revision lives in the store) is seen at once, and one campaign's views never stand in for
another's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from graphrag_core.analytics_models import CommunityView
from graphrag_core.services.context import current_communities
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files
from graphrag_core.wiring import open_service
from tests.fakes import HashEmbedder

pytestmark = pytest.mark.integration


def _views(service: LoregraphService, campaign: str) -> list[CommunityView]:
    return current_communities(service, campaign, as_player=False, as_of_session=None)


def test_a_write_by_another_service_is_seen_and_campaigns_stay_apart(
    tmp_path: Path, example_dir: Path
) -> None:
    world = tmp_path / "emberfall"
    shutil.copytree(example_dir, world)
    files = changelog_files(world)
    settings = Settings(data_dir=tmp_path / "data")
    with open_service(settings, embedder=HashEmbedder(384)) as reader:
        reader.ingest(world / "world", "one")
        for file in files[:3]:
            reader.post_changelog(file, "one")
        reader.build("one")
        before = _views(reader, "one")
        assert before and _views(reader, "one") == before  # kept: the same views again
        assert _views(reader, "two") == []  # no campaign "two": nothing of "one" leaks
        with open_service(settings, embedder=HashEmbedder(384)) as writer:
            for file in files[3:]:
                writer.post_changelog(file, "one")
        after = _views(reader, "one")
        with open_service(settings, embedder=HashEmbedder(384)) as fresh:
            assert after == _views(fresh, "one")  # what a service with no cache sees
        assert after != before
