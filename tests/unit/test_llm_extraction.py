"""The LLM extractor on replayed real replies (Qwen2.5-Coder-1.5B, see tests/fixtures/llm) and
on scripted replies for malformed JSON, truncation, schema violations and timeouts."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from extraction.ledger import Ledger
from extraction.llm_chunks import ChunkExtractor
from extraction.llm_extractor import llm_extract
from extraction.offline import extract
from extraction.prompt_files import Prompt, load_prompt
from extraction.sources import load_document
from graphrag_core.errors import ChatModelUnavailableError, ConfigError
from graphrag_core.models import ChatReply, Chunk, SourceDocument
from tests.fakes import FIXTURES_LLM, ReplayChatModel, ScriptedChatModel, UnrecordedRequestError

CORPUS = FIXTURES_LLM / "corpus"
GOOD = json.dumps(
    {
        "entities": [
            {"name": "Torven Blackwater", "type": "NPC", "evidence": "Torven Blackwater"},
            {"name": "Salt Guild", "type": "Organisation"},
        ],
        "relations": [{"source": "Torven Blackwater", "type": "member of", "target": "Salt Guild"}],
    }
)


def _docs() -> list[SourceDocument]:
    return [load_document(CORPUS / "millbrook.md", CORPUS)]


def _chunks() -> list[Chunk]:
    return list(extract(_docs(), chunk_size=1200).chunks)


def _reply(text: str, finish: str = "stop") -> ChatReply:
    return ChatReply(text=text, prompt_tokens=100, completion_tokens=50, finish_reason=finish)


def test_replayed_real_replies_extract_one_chunk_and_record_the_truncated_one() -> None:
    chat = ReplayChatModel()
    assert chat.model_id == "qwen2.5-coder-1.5b-instruct"
    ledger = Ledger(chat.model_id)
    found, fresh = ChunkExtractor(chat, gleaning=1).run(_chunks(), {}, ledger)
    assert len(found) == 1 and len(fresh) == 1
    (result,) = found.values()
    assert [(e.name, e.type) for e in result.entities] == [("The Red Oak Company", "Organization")]
    counts = ledger.counts
    assert (counts["extract"].calls, counts["repair"].calls, counts["glean"].calls) == (2, 1, 1)
    assert counts["extract"].failures == 1
    assert any("millbrook-md#0" in r and "cut off" in r for r in ledger.records)


def test_cached_chunks_cost_no_call_and_a_new_prompt_version_re_extracts() -> None:
    chat = ReplayChatModel()
    extractor = ChunkExtractor(chat, gleaning=1)
    _, fresh = extractor.run(_chunks(), {}, Ledger(chat.model_id))
    before = chat.calls
    ledger = Ledger(chat.model_id)
    found, again = extractor.run(_chunks()[1:], fresh, ledger)
    assert chat.calls == before and again == {} and len(found) == 1
    assert ledger.counts["extract"].cache_hits == 1
    extractor.prompt = Prompt("extract", 2, extractor.prompt.system, extractor.prompt.user)
    assert extractor.request(_chunks()[1]).key not in fresh
    with pytest.raises(UnrecordedRequestError):
        ChunkExtractor(chat, max_tokens=999).run(_chunks()[1:], {}, Ledger("m"))


def _run(replies: Sequence[ChatReply], gleaning: int = 0) -> tuple[Ledger, dict[str, object]]:
    ledger = Ledger("scripted")
    found, _ = ChunkExtractor(ScriptedChatModel(replies), gleaning=gleaning).run(
        _chunks()[:1], {}, ledger
    )
    return ledger, dict(found)


def test_malformed_json_is_repaired_in_one_round() -> None:
    ledger, found = _run([_reply('{"entities": [{"name": '), _reply(GOOD)])
    assert len(found) == 1 and ledger.counts["repair"].calls == 1


@pytest.mark.parametrize(
    "bad",
    [
        _reply("not json at all"),
        _reply(GOOD[:40], finish="length"),  # truncated
        _reply('{"entities": [{"name": 3, "kind": "NPC"}]}'),  # schema violation
    ],
)
def test_output_still_bad_after_repair_is_recorded_and_the_run_goes_on(bad: ChatReply) -> None:
    ledger, found = _run([bad, bad])
    assert found == {} and ledger.counts["extract"].failures == 1
    assert "chunk millbrook-md#0" in ledger.records[0]


def test_a_timeout_is_recorded_as_a_failure() -> None:
    class TimingOut(ScriptedChatModel):
        def complete(self, *args: object, **kwargs: object) -> ChatReply:
            raise ChatModelUnavailableError("model 'x' did not answer (timed out)")

    ledger = Ledger("x")
    found, fresh = ChunkExtractor(TimingOut([])).run(_chunks(), {}, ledger)
    assert found == {} and fresh == {} and ledger.counts["extract"].failures == 2


def test_gleaning_adds_what_the_second_pass_found() -> None:
    more = json.dumps({"entities": [{"name": "Red Oak", "type": "Location"}], "relations": []})
    ledger, found = _run([_reply(GOOD), _reply(more), _reply('{"entities": []}')], gleaning=2)
    (result,) = found.values()
    assert "Red Oak" in {e.name for e in result.entities}  # type: ignore[attr-defined]
    assert ledger.counts["glean"].calls == 2


def test_llm_extract_prunes_types_and_resolves_into_canonical_entities() -> None:
    chat = ScriptedChatModel([_reply(GOOD), _reply(GOOD)])
    ledger = Ledger("scripted")
    run = llm_extract(_docs(), ChunkExtractor(chat), {}, ledger, chunk_size=1200)
    ids = {e.id: e for e in run.extraction.entities}
    assert ids["salt-guild"].type == "Faction"
    assert ("torven-blackwater", "member_of", "salt-guild") in {
        r.key for r in run.extraction.relations
    }
    assert any("'Organisation'" in r and "Faction" in r for r in ledger.records)
    assert any(r.startswith("merge: 'Torven Blackwater'") for r in ledger.records)


def test_prompts_are_versioned_files() -> None:
    for task in ("extract", "glean", "repair", "recap_draft", "resolve"):
        assert load_prompt(task).id == f"{task}.v1"
    with pytest.raises(ConfigError, match=r"extract\.v9"):
        load_prompt("extract", 9)
