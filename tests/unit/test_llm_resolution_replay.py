"""The flagship resolution case on real model output: the replies Qwen2.5-Coder-1.5B gave for
tests/fixtures/llm/corpus/millbrook.md (recorded, see tests/fixtures/llm/README.md). The first
chunk's reply ran into the token limit; its complete part (the ten whole entity objects before
the cut) is what a model would return with a larger limit, and is what is replayed here.

Torven Blackwater is known from another source (a world pack stored earlier): "Torven" (which
the model typed PC, with the alias "Torven Blackwater"), "the merchant Torven" and "Torven
Blackwater" must be that one NPC, with the stored definition intact; the inn "Red Oak" and
"The Red Oak Company" must stay two; the common nouns the model listed must not be entities."""

from __future__ import annotations

import json

from extraction.cascade import ResolutionCascade
from extraction.ledger import Ledger
from extraction.llm_cache import MemoryCache
from extraction.llm_chunks import ChunkExtractor
from extraction.llm_extractor import llm_extract
from extraction.offline import extract
from extraction.sources import load_document
from graphrag_core.models import ChatReply, Entity
from tests.fakes import FIXTURES_LLM, ScriptedChatModel

CORPUS = FIXTURES_LLM / "corpus"
TORVEN = Entity(
    id="torven-blackwater", name="Torven Blackwater", type="NPC", aliases=("Old Salt",),
    status="alive", description="Salt merchant of Millbrook, member of the Salt Guild.",
    attributes={"occupation": "merchant"}, sources=("world.yaml",),
)  # fmt: skip


def _recorded(key: str) -> str:
    return str(json.loads((FIXTURES_LLM / f"{key}.json").read_text("utf-8"))["reply"]["text"])


def complete_part(truncated: str) -> str:
    """The whole entity objects of a reply cut off inside its JSON, as a complete reply."""
    decoder, entities = json.JSONDecoder(), []
    rest = truncated[truncated.index("[") + 1 :]
    while True:
        rest = rest.lstrip(", \n")
        try:
            entity, end = decoder.raw_decode(rest)
        except json.JSONDecodeError:
            break
        entities.append(entity)
        rest = rest[end:]
    return json.dumps({"entities": entities, "relations": []})


def test_real_replies_resolve_torven_into_one_npc_and_keep_two_red_oaks() -> None:
    first = complete_part(_recorded("76502af4a52ccd1fec2362cb"))
    assert len(json.loads(first)["entities"]) == 10
    replies = [first, _recorded("6449f69e387b8a1ae3da3225")]
    chat = ScriptedChatModel([ChatReply(text=t, finish_reason="stop") for t in replies])
    docs = [load_document(CORPUS / "millbrook.md", CORPUS)]
    ledger = Ledger(chat.model_id)
    run = llm_extract(
        extract(docs, chunk_size=1200, prose=False), docs, ChunkExtractor(chat), MemoryCache(),
        ledger, known=[TORVEN],
    )  # fmt: skip
    entities = {e.id: e for e in run.extraction.entities}
    torven = entities["torven-blackwater"]
    assert [e.id for e in entities.values() if "torven" in e.id] == ["torven-blackwater"]
    assert torven.type == "NPC" and torven.aliases == ("Old Salt", "Torven")
    assert (torven.status, torven.attributes) == ("alive", {"occupation": "merchant"})
    assert torven.description == TORVEN.description
    assert torven.sources == ("world.yaml", "millbrook.md")
    cascade = ResolutionCascade(entities.values())
    assert cascade.resolve(Entity(id="?", name="the merchant Torven", type="NPC")) == torven.id

    oaks = {e.id: (e.name, e.type, e.aliases) for e in entities.values() if "oak" in e.id}
    assert oaks == {
        "red-oak": ("Red Oak", "Location", ()),
        "the-red-oak-company": ("The Red Oak Company", "Faction", ()),
    }
    names = {e.name for e in entities.values()}
    assert names == {"Torven Blackwater", "Red Oak", "Salt Guild", "The Red Oak Company"}
    assert entities["salt-guild"].aliases == ()  # its own name is no alias
    assert any("'Merchant'" in r and "common noun" in r for r in ledger.records)
    assert any("'Red Oak Company' of red-oak dropped" in r for r in ledger.records)
