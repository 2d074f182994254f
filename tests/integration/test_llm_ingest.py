"""LLM ingest end to end on the embedded FalkorDB: dry run, ledger in the manifest, cache in
the store (zero calls on re-ingest), GM decisions that survive re-extraction."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from extraction.pricing import load_prices
from graphrag_core.config import LlmSettings
from graphrag_core.errors import ChatModelUnavailableError
from graphrag_core.models import ChatReply, Entity
from graphrag_core.providers.bpe_tokens import BpeTokenCounter
from graphrag_core.services.extraction import LlmSetup
from graphrag_core.services.service import LoregraphService
from graphrag_core.stores.falkordb import FalkorDBStore
from tests.fakes import FIXTURES_LLM, FakeClock, HashEmbedder, PassageChatModel, ReplayChatModel

pytestmark = pytest.mark.integration

GOOD = json.dumps(
    {
        "entities": [
            {"name": "Torven Blackwater", "type": "NPC"},
            {"name": "Salt Guild", "type": "Faction"},
        ],
        "relations": [{"source": "Torven Blackwater", "type": "member_of", "target": "Salt Guild"}],
    }
)


class SameAnswer:
    """A chat model that always gives the same valid extraction; counts its calls."""

    model_id = "qwen-scripted"

    def __init__(self) -> None:
        self.calls = 0

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_schema: dict[str, object] | None = None,
        max_tokens: int = 1024,
    ) -> ChatReply:
        self.calls += 1
        return ChatReply(text=GOOD, prompt_tokens=300, completion_tokens=60, finish_reason="stop")


@pytest.fixture
def world(tmp_path: Path) -> Path:
    folder = tmp_path / "world"
    folder.mkdir()
    shutil.copy(FIXTURES_LLM / "corpus" / "millbrook.md", folder / "millbrook.md")
    return folder


def _service(tmp_path: Path, chat: object, gleaning: int = 0) -> Iterator[LoregraphService]:
    store = FalkorDBStore.embedded(tmp_path / "data", dimension=64)
    settings = LlmSettings(model="qwen2.5-coder-1.5b-instruct", gleaning=gleaning, concurrency=1)
    service = LoregraphService(
        store=store, embedder=HashEmbedder(), clock=FakeClock(), data_dir=tmp_path / "data",
        llm=LlmSetup(chat, settings, load_prices()),  # type: ignore[arg-type]
        token_counter=BpeTokenCounter(),
    )  # fmt: skip
    store.migrate()
    try:
        yield service
    finally:
        service.close()


def test_dry_run_then_replayed_real_run_with_ledger_in_the_manifest(
    tmp_path: Path, world: Path
) -> None:
    chat = ReplayChatModel()
    for service in _service(tmp_path, chat, gleaning=1):
        plan = service.estimate_llm(world, "mb")
        assert (plan.chunks, plan.cached, plan.calls, chat.calls) == (2, 0, 4, 0)
        assert plan.prompt_tokens > 500 and plan.priced and plan.cost_usd == 0.0
        report = service.ingest(world, "mb", use_llm=True)
        assert report.extractor == "llm:qwen2.5-coder-1.5b-instruct"
        assert report.ledger["extract"].calls == 2 and report.ledger["extract"].failures == 1
        assert any("millbrook-md#0" in r for r in report.extraction_records)
        manifest = json.loads((tmp_path / "data/manifests/mb/latest.json").read_text())
        assert manifest["ledger"]["repair"]["calls"] == 1
        entities = {e.name: e for e in service.store.load_entities("mb")}
        assert entities["The Red Oak Company"].type == "Faction"  # "Organization", pruned
        assert any("'Baron Aldric' is not an entity of the chunk" in r
                   for r in report.extraction_records)  # fmt: skip
        # the truncated chunk is cached as unusable: not paid for again unless asked to
        assert service.estimate_llm(world, "mb").cached == 2
        assert service.estimate_llm(world, "mb", retry_failed=True).cached == 1


def test_re_ingest_makes_zero_calls_and_gm_decisions_survive(tmp_path: Path, world: Path) -> None:
    chat = SameAnswer()
    for service in _service(tmp_path, chat, gleaning=0):
        first = service.ingest(world, "mb", use_llm=True)
        assert first.ledger["extract"].calls == 2 and chat.calls == 2
        again = service.ingest(world, "mb", use_llm=True)
        assert chat.calls == 2 and not again.wrote
        assert again.extractor == "llm:qwen-scripted"  # the manifest says: zero calls, 2 hits
        assert (again.ledger["extract"].calls, again.ledger["extract"].cache_hits) == (0, 2)
        manifest = json.loads((tmp_path / "data/manifests/mb/latest.json").read_text())
        assert manifest["extractor"] == "llm:qwen-scripted"
        service.decide("mb", "merge", "Salt Guild", "Torven Blackwater", reason="GM says so")
        service.decide("mb", "alias_add", "Torven Blackwater", names=["Old Salt"])
        ids = {e.id for e in service.store.load_entities("mb")}
        assert "salt-guild" not in ids
        (world / "millbrook.md").write_text(
            (world / "millbrook.md").read_text() + "\nTorven sings at night.\n"
        )
        third = service.ingest(world, "mb", use_llm=True)
        assert third.ledger["extract"].cache_hits == 1 and chat.calls == 3
        entities = {e.id: e for e in service.store.load_entities("mb")}
        assert "salt-guild" not in entities
        assert {"Salt Guild", "Old Salt"} <= set(entities["torven-blackwater"].aliases)
        assert any("GM says so" in r for r in third.extraction_records)


PACK = """\
entities:
  - name: Torven Blackwater
    type: NPC
    aliases: [Old Salt]
    status: alive
    description: A salt merchant of Millbrook.
    attributes: {occupation: merchant}
  - name: Dace Rook
    type: NPC
    description: A fence.
"""


def _stored(service: LoregraphService) -> dict[str, Entity]:
    return {e.id: e for e in service.store.load_entities("mb")}


def test_a_single_file_llm_ingest_keeps_what_other_sources_define(tmp_path: Path) -> None:
    """B3: the LLM's "Torven" joins the stored Torven Blackwater of the world pack, whose
    attributes, aliases, description and status survive; nothing is duplicated."""
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "world.yaml").write_text(PACK)
    (folder / "session-01.md").write_text("# Session 1\nThe merchant Torven sold us rope.\n")
    chat = PassageChatModel({"Torven": {"name": "Torven", "type": "PC",
                                        "aliases": ["the merchant Torven"],
                                        "description": "Torven from the text."}})  # fmt: skip
    for service in _service(tmp_path, chat):
        service.ingest(folder, "mb")
        before, dace = _stored(service)["torven-blackwater"], _stored(service)["dace-rook"]
        report = service.ingest(folder / "session-01.md", "mb", use_llm=True)
        assert report.wrote and chat.calls == 1
        entities = _stored(service)
        assert [i for i in entities if "torven" in i] == ["torven-blackwater"]
        after = entities["torven-blackwater"]
        derived = {"aliases", "sources", "profile"}  # the profile is read from the new recap
        assert after.model_dump(exclude=derived) == before.model_dump(exclude=derived)
        assert [s.source_path for s in after.profile] == ["session-01.md"]
        assert after.aliases == ("Old Salt", "Torven", "the merchant Torven")
        assert set(after.sources) == {"world.yaml", "session-01.md"}
        assert entities["dace-rook"] == dace


def test_a_gm_merge_follows_its_entity_when_a_new_source_takes_its_id(tmp_path: Path) -> None:
    """B2: the smith "Blackthorn" is merged into Dace Rook; a new note about the village of
    Blackthorn (a Location, earlier in document order) then takes the id ``blackthorn``. The
    merge still takes the smith, and the village stays itself."""
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "world.yaml").write_text(PACK)
    (folder / "smith.md").write_text("# Forge\nBlackthorn the smith works the forge.\n")
    smith = {"name": "Blackthorn", "type": "NPC", "description": "A smith."}
    chat = PassageChatModel({"Blackthorn the smith": smith})
    for service in _service(tmp_path, chat):
        service.ingest(folder, "mb", use_llm=True)
        assert _stored(service)["blackthorn"].type == "NPC"
        service.decide("mb", "merge", "Blackthorn", "Dace Rook", reason="Rook in disguise")
        (folder / "aaa-hamlets.md").write_text("# Hamlets\nThe village of Blackthorn.\n")
        chat.table["village of Blackthorn"] = {"name": "Blackthorn", "type": "Location"}
        report = service.ingest(folder, "mb", use_llm=True)
        entities = _stored(service)
        assert entities["blackthorn"].type == "Location"
        assert "Blackthorn" not in entities["blackthorn"].aliases
        assert [e.id for e in entities.values() if e.type == "NPC" and "blackthorn" in e.id] == []
        assert "Blackthorn" in entities["dace-rook"].aliases
        assert any("found by name as blackthorn-npc" in r for r in report.extraction_records)


def test_a_dead_model_server_fails_the_run_and_writes_nothing(tmp_path: Path) -> None:
    """B1: a server that dies after one answer: the ingest raises, the graph is as before,
    the one answer paid for is cached and the re-run pays only for the rest."""
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "world.yaml").write_text(PACK)
    for name in ("a", "b", "c"):
        (folder / f"{name}.md").write_text(f"# {name}\nTorven was seen at {name}.\n")
    chat = PassageChatModel({"Torven": "NPC"}, down_after=1)
    for service in _service(tmp_path, chat):
        service.ingest(folder, "mb")
        before = (_stored(service), service.store.load_chunks("mb"))
        with pytest.raises(ChatModelUnavailableError, match="Nothing was written") as caught:
            service.ingest(folder, "mb", use_llm=True)
        assert "extract 3 call(s)" in str(caught.value) and "2 failure(s)" in str(caught.value)
        assert (_stored(service), service.store.load_chunks("mb")) == before
        assert service.estimate_llm(folder, "mb").cached == 1
        chat.down_after = None
        report = service.ingest(folder, "mb", use_llm=True)
        assert report.ledger["extract"].cache_hits == 1 and report.ledger["extract"].calls == 2
