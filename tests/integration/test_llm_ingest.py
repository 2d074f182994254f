"""LLM ingest end to end on the embedded FalkorDB: dry run, ledger in the manifest, cache in
the store (zero calls on re-ingest), GM decisions that survive re-extraction."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from extraction.pricing import load_prices
from graphrag_core.extracting import LlmSetup
from graphrag_core.models import ChatReply
from graphrag_core.providers.bpe_tokens import BpeTokenCounter
from graphrag_core.service import LoregraphService
from graphrag_core.settings import LlmSettings
from graphrag_core.stores.falkordb import FalkorDBStore
from tests.fakes import FIXTURES_LLM, FakeClock, HashEmbedder, ReplayChatModel

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


def _service(tmp_path: Path, chat: object, gleaning: int) -> Iterator[LoregraphService]:
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
        assert service.estimate_llm(world, "mb").cached == 1


def test_re_ingest_makes_zero_calls_and_gm_decisions_survive(tmp_path: Path, world: Path) -> None:
    chat = SameAnswer()
    for service in _service(tmp_path, chat, gleaning=0):
        first = service.ingest(world, "mb", use_llm=True)
        assert first.ledger["extract"].calls == 2 and chat.calls == 2
        again = service.ingest(world, "mb", use_llm=True)
        assert chat.calls == 2 and not again.wrote
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
