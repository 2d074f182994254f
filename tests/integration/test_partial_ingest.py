"""Ingesting part of a campaign — one file, or a folder with a broken file — loses nothing and
duplicates nothing: real embedded FalkorDB, real embedding model, real files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service

pytestmark = pytest.mark.integration

FILES = {
    "world.yaml": """\
entities:
  - id: marta-hollis
    name: Marta Hollis
    type: NPC
    status: alive
    description: The widow who keeps the Red Oak Tavern.
    relations:
      - {type: parent_of, target: Pip Hollis}
      - {type: owns, target: tavern-redoak}
  - id: tavern-redoak
    name: Red Oak Tavern
    type: Location
    status: intact
    description: A tavern in Millbrook.
  - id: dawnlantern
    name: Dawnlantern
    type: Item
    description: A blessed lantern.
    relations:
      - {type: created_by, target: Sister Calla}
  - name: Pip Hollis
    type: NPC
    description: Marta's son, who works the stables of the inn.
""",
    "vault/Pip Hollis.md": """\
---
type: NPC
aliases: [Pip, young Hollis]
status: alive
---
# Pip Hollis

Pip works the stables of the [[Red Oak Tavern]].
""",
    "vault/Sister Calla.md": """\
---
type: NPC
aliases: [Calla]
status: alive
---
# Sister Calla

A priestess who lends the [[Dawnlantern]] to people she trusts.
""",
    "lore/bestiary.md": """\
# Bestiary

## Soot Wraith

A wraith of ash that haunts burned houses. Sister Calla drove one off with her lantern.
""",
}
BROKEN_NOTE = "---\ntype: [NPC\n---\n# Sister Calla\n"


def _write(folder: Path) -> Path:
    for name, text in FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder
) -> Iterator[LoregraphService]:
    data_dir = tmp_path_factory.mktemp("data")
    with open_service(Settings(data_dir=data_dir), embedder=real_embedder) as svc:
        yield svc


@pytest.fixture(scope="module")
def fresh(service: LoregraphService, tmp_path_factory: pytest.TempPathFactory) -> object:
    """The state a fresh folder ingest of the original files gives."""
    folder = _write(tmp_path_factory.mktemp("fresh") / "world")
    assert not service.ingest(folder, "fresh").failures
    return _state(service, "fresh")


@pytest.fixture()
def world(tmp_path: Path) -> Path:
    return _write(tmp_path / "world")


def _state(service: LoregraphService, campaign: str) -> object:
    store = service.store
    entities = sorted(
        (e.id, e.aliases, e.status, e.description, tuple(sorted(e.sources)))
        for e in store.load_entities(campaign)
    )
    relations = sorted((r.key, r.visibility) for r in store.load_relations(campaign))
    chunks = sorted(
        (c.source_path, c.start, c.end, c.mentions, c.subject, c.visibility)
        for c in store.load_chunks(campaign)
    )
    return entities, relations, chunks, sorted(store.load_sources(campaign))


def _relation_keys(service: LoregraphService, campaign: str) -> set[tuple[str, str, str]]:
    return {r.key for r in service.store.load_relations(campaign)}


def test_a_file_inside_an_ingested_folder_keeps_its_campaign_path(
    service: LoregraphService, world: Path, fresh: object
) -> None:
    service.ingest(world, "nested")
    bestiary = world / "lore" / "bestiary.md"
    bestiary.write_text(FILES["lore/bestiary.md"] + "\nIt fears running water.\n")
    report = service.ingest(bestiary, "nested")
    assert report.changed == ("lore/bestiary.md",) and not report.added
    assert set(service.store.load_sources("nested")) == set(FILES)
    assert {c.source_path for c in service.store.load_chunks("nested")} == set(FILES)

    # a new file in the same tree is placed by the root of the earlier folder ingest
    new = world / "lore" / "rumours.md"
    new.write_text("# Rumours\n\nPip Hollis saw a wraith behind the Red Oak Tavern.\n")
    report = service.ingest(new, "nested")
    assert report.added == ("lore/rumours.md",)
    assert service.ingest(world, "nested").wrote is False  # the folder agrees: nothing to do


def test_a_single_file_resolves_against_stored_entities_and_overwrites_none(
    service: LoregraphService, world: Path, fresh: object
) -> None:
    service.ingest(world, "single")
    before = _state(service, "single")
    assert before == fresh
    pack = world / "world.yaml"
    pack.write_text(FILES["world.yaml"].replace("A tavern in Millbrook", "A tavern in Millford"))
    report = service.ingest(pack, "single")
    assert report.changed == ("world.yaml",) and not report.extraction_records
    keys = _relation_keys(service, "single")
    assert ("marta-hollis", "parent_of", "pip-hollis") in keys
    assert ("dawnlantern", "created_by", "sister-calla") in keys
    entities = {e.id: e for e in service.store.load_entities("single")}
    pip = entities["pip-hollis"]  # defined by the vault note too: merged, never overwritten
    assert pip.aliases == ("Pip", "young Hollis") and pip.status == "alive"
    assert set(pip.sources) >= {"vault/Pip Hollis.md", "world.yaml"}
    assert entities["tavern-redoak"].description == "A tavern in Millford."

    pack.write_text(FILES["world.yaml"])  # back to the original: the same state as fresh
    service.ingest(pack, "single")
    assert _state(service, "single") == fresh
    assert service.ingest(world, "single").wrote is False


def test_a_broken_file_keeps_what_other_files_aim_at_it_and_is_reextracted_when_back(
    service: LoregraphService, world: Path, fresh: object
) -> None:
    service.ingest(world, "broken")
    note = world / "vault" / "Sister Calla.md"
    note.write_text(BROKEN_NOTE)
    bestiary = world / "lore" / "bestiary.md"
    bestiary.write_text(FILES["lore/bestiary.md"].replace("burned houses", "burnt houses"))
    report = service.ingest(world, "broken")
    assert set(report.failures) == {"vault/Sister Calla.md"}
    assert report.changed == ("lore/bestiary.md",)
    assert ("dawnlantern", "created_by", "sister-calla") in _relation_keys(service, "broken")
    lore = [c for c in service.store.load_chunks("broken") if c.source_path == "lore/bestiary.md"]
    assert any("sister-calla" in c.mentions for c in lore)  # a mention from the changed file

    bestiary.write_text(FILES["lore/bestiary.md"])
    note.write_text(FILES["vault/Sister Calla.md"])  # back, identical to what is stored
    report = service.ingest(world, "broken")
    assert report.recovered == ("vault/Sister Calla.md",) and report.wrote
    assert _state(service, "broken") == fresh
    assert service.ingest(world, "broken").wrote is False
