"""The LLM extractor on replayed real replies (Qwen2.5-Coder-1.5B, see tests/fixtures/llm) and
on scripted replies for malformed JSON, truncation, schema violations and timeouts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from extraction.arbitration import llm_arbiter
from extraction.ledger import Ledger
from extraction.llm_cache import MemoryCache, read_unusable
from extraction.llm_chunks import ChunkExtractor
from extraction.llm_extractor import llm_extract
from extraction.offline import extract
from extraction.prompt_files import Prompt, load_prompt
from extraction.sources import load_document
from graphrag_core.errors import ChatModelUnavailableError, ConfigError
from graphrag_core.models import ChatReply, Chunk, SourceDocument
from graphrag_core.services.extraction import LlmSetup
from graphrag_core.settings import load_settings
from tests.fakes import (
    FIXTURES_LLM,
    HashEmbedder,
    ReplayChatModel,
    ScriptedChatModel,
    UnrecordedRequestError,
)

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
    return list(extract(_docs(), chunk_size=1200, prose=False).chunks)


def _reply(text: str, finish: str = "stop") -> ChatReply:
    return ChatReply(text=text, prompt_tokens=100, completion_tokens=50, finish_reason=finish)


def test_replayed_real_replies_extract_one_chunk_and_record_the_truncated_one() -> None:
    chat = ReplayChatModel()
    assert chat.model_id == "qwen2.5-coder-1.5b-instruct"
    ledger = Ledger(chat.model_id)
    found, fresh = ChunkExtractor(chat, gleaning=1).run(_chunks(), MemoryCache(), ledger)
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
    _, fresh = extractor.run(_chunks(), MemoryCache(), Ledger(chat.model_id))
    before = chat.calls
    ledger = Ledger(chat.model_id)
    found, again = extractor.run(_chunks()[1:], MemoryCache(fresh), ledger)
    assert chat.calls == before and again == {} and len(found) == 1
    assert ledger.counts["extract"].cache_hits == 1
    extractor.prompt = Prompt("extract", 2, extractor.prompt.system, extractor.prompt.user)
    assert extractor.request(_chunks()[1]).key not in fresh
    with pytest.raises(UnrecordedRequestError):
        ChunkExtractor(chat, max_tokens=999).run(_chunks()[1:], MemoryCache(), Ledger("m"))


def _run(replies: Sequence[ChatReply], gleaning: int = 0) -> tuple[Ledger, dict[str, object]]:
    ledger = Ledger("scripted")
    found, _ = ChunkExtractor(ScriptedChatModel(replies), gleaning=gleaning).run(
        _chunks()[:1], MemoryCache(), ledger
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


def test_unusable_output_is_not_paid_for_twice_unless_asked_or_allowed_longer() -> None:
    truncated = _reply(GOOD[:40], finish="length")
    cache = MemoryCache()
    first = ScriptedChatModel([truncated, truncated])  # extraction + repair round
    found, fresh = ChunkExtractor(first, max_tokens=512).run(_chunks()[:1], cache, Ledger("s"))
    assert found == {} and fresh == {} and len(cache.entries) == 1  # the failure is cached
    # unchanged: no call (the scripted model has no reply left to give), a note says why
    ledger = Ledger("s")
    again = ChunkExtractor(ScriptedChatModel([]), max_tokens=512)
    assert again.run(_chunks()[:1], cache, ledger)[0] == {}
    assert ledger.counts["extract"].cache_hits == 1 and "--retry-failed" in ledger.records[0]
    # a longer answer allowed, or --retry-failed: asked again, and a good answer replaces it
    for extractor in (
        ChunkExtractor(ScriptedChatModel([_reply(GOOD)]), max_tokens=1024),
        ChunkExtractor(ScriptedChatModel([_reply(GOOD)]), max_tokens=512, retry_failed=True),
    ):
        retried = MemoryCache(cache.entries)
        found, _ = extractor.run(_chunks()[:1], retried, Ledger("s"))
        assert list(found) == [_chunks()[0].id]
        assert all(read_unusable(text) is None for text in retried.entries.values())


def test_a_model_that_times_out_stops_the_run_and_keeps_what_was_paid() -> None:
    """Two chunks: the first is answered, the second times out (after the SDK's retries).
    The run raises, the first answer is in the cache, the ledger counts the failed call."""

    class TimingOutSecond(ScriptedChatModel):
        def complete(self, *args: object, **kwargs: object) -> ChatReply:
            if self._replies:
                return super().complete(*args, **kwargs)  # type: ignore[arg-type]
            raise ChatModelUnavailableError("model 'x' did not answer (timed out)", attempts=3)

    ledger, cache = Ledger("x"), MemoryCache()
    with pytest.raises(ChatModelUnavailableError, match=r"stopped: 1 of 2 chunk.*1 chunk extr"):
        ChunkExtractor(TimingOutSecond([_reply(GOOD)])).run(_chunks(), cache, ledger)
    assert len(cache.entries) == 1
    extract = ledger.counts["extract"]
    assert (extract.calls, extract.retries, extract.failures) == (2, 2, 1)


def test_consecutive_model_failures_stop_new_chunks_from_starting() -> None:
    class Down(ScriptedChatModel):
        def complete(self, *args: object, **kwargs: object) -> ChatReply:
            self.requests.append([])
            raise ChatModelUnavailableError("model 'x' did not answer (connection refused)")

    chat = Down([])
    many = [c.model_copy(update={"id": f"c{i}", "text": f"{c.text} {i}"})
            for i, c in enumerate(_chunks() * 10)]  # fmt: skip
    with pytest.raises(ChatModelUnavailableError, match="stopped: 3 of 20"):
        ChunkExtractor(chat, stop_after=3).run(many, MemoryCache(), Ledger("x"))
    assert len(chat.requests) == 3


def test_gleaning_adds_what_the_second_pass_found() -> None:
    more = json.dumps({"entities": [{"name": "Red Oak", "type": "Location"}], "relations": []})
    ledger, found = _run([_reply(GOOD), _reply(more), _reply('{"entities": []}')], gleaning=2)
    (result,) = found.values()
    assert "Red Oak" in {e.name for e in result.entities}  # type: ignore[attr-defined]
    assert ledger.counts["glean"].calls == 2


def test_llm_extract_prunes_types_and_resolves_into_canonical_entities() -> None:
    chat = ScriptedChatModel([_reply(GOOD), _reply(GOOD)])
    ledger = Ledger("scripted")
    base = extract(_docs(), chunk_size=1200, prose=False)
    run = llm_extract(base, _docs(), ChunkExtractor(chat), MemoryCache(), ledger)
    ids = {e.id: e for e in run.extraction.entities}
    assert ids["salt-guild"].type == "Faction"
    assert ("torven-blackwater", "member_of", "salt-guild") in {
        r.key for r in run.extraction.relations
    }
    assert any("'Organisation'" in r and "Faction" in r for r in ledger.records)
    assert "merge: 2 candidate(s) joined an entity of the same name and type (exact name)" in (
        ledger.records
    )


def test_prompts_are_versioned_files() -> None:
    for task in ("extract", "glean", "repair", "recap_draft", "resolve"):
        assert load_prompt(task).id == f"{task}.v1"
    with pytest.raises(ConfigError, match=r"extract\.v9"):
        load_prompt("extract", 9)


WENNA = "# Notes\n\nOld Wenna keeps the salt ledger in Millbrook village.\n\n## Later\n\n" + (
    "Old Wenn, keeper of the salt ledger, Millbrook.\n"
)


class _Wennas(ScriptedChatModel):
    """Extracts "Old Wenna" and "Old Wenn" and says they are one; counts each kind of call."""

    def __init__(self) -> None:
        super().__init__([])
        self.asked = {"extract": 0, "resolve": 0}

    def complete(self, messages: Sequence[dict[str, str]], **kwargs: object) -> ChatReply:
        if "same entity" in messages[0]["content"]:
            self.asked["resolve"] += 1
            return _reply('{"same": true, "reason": "one keeper"}')
        self.asked["extract"] += 1
        if "Old Wenn," in messages[-1]["content"]:
            entity = {"name": "Old Wenn", "type": "NPC",
                      "description": "keeper of the salt ledger, Millbrook"}  # fmt: skip
        else:
            entity = {"name": "Old Wenna", "type": "NPC",
                      "description": "keeper of the salt ledger in millbrook village"}  # fmt: skip
        return _reply(json.dumps({"entities": [entity], "relations": []}))


def test_arbitration_verdicts_are_cached_with_the_extractions() -> None:
    """S2: a second run over unchanged chunks pays for no extraction and no arbitration."""
    doc = SourceDocument(path="n.md", kind="markdown", sha256="x", text=WENNA)
    chat, cache = _Wennas(), MemoryCache()
    for _ in range(2):
        ledger = Ledger(chat.model_id)
        run = llm_extract(
            extract([doc], chunk_size=200, prose=False), [doc], ChunkExtractor(chat), cache, ledger,
            embedder=HashEmbedder(), arbiter=llm_arbiter(chat, ledger, cache),
        )  # fmt: skip
        assert [e.name for e in run.extraction.entities] == ["Old Wenna"]
    assert chat.asked == {"extract": 2, "resolve": 1}
    assert ledger.counts["resolve"].cache_hits == 1 and "resolve" in ledger.counts
    assert len(cache.entries) == 3  # two chunk extractions and one verdict


def test_the_prompt_version_is_a_setting_and_an_edited_prompt_re_extracts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LOREGRAPH_LLM__PROMPT_VERSION", "9")
    monkeypatch.chdir(tmp_path)  # no loregraph.toml here
    settings = load_settings().llm_section()
    assert settings.prompt_version == 9
    with pytest.raises(ConfigError, match=r"extract\.v9"):
        LlmSetup(ScriptedChatModel([]), settings).extractor()
    extractor = LlmSetup(ScriptedChatModel([]), settings.model_copy(
        update={"prompt_version": 1})).extractor()  # fmt: skip
    chunk = _chunks()[0]
    before = extractor.request(chunk)
    prompt = extractor.prompt
    extractor.prompt = Prompt(
        prompt.task, prompt.version, prompt.system + " Be brief.", prompt.user
    )
    after = extractor.request(chunk)
    assert after.key != before.key  # same id, other text: not the cached answer


def test_common_nouns_are_dropped_but_names_after_articles_and_titles_are_not() -> None:
    text = (
        "# Harbour\n\nThe Lantern Company guards the docks. Captain Brannoc sells salt to "
        "the Salt Guild. Old Wenna keeps the rope.\n"
    )
    doc = SourceDocument(path="h.md", kind="markdown", sha256="h", text=text)
    names = ["Lantern Company", "Brannoc", "Salt Guild", "Salt", "Rope", "Wenna"]
    found = {"entities": [{"name": n, "type": "Other"} for n in names], "relations": []}
    found["entities"][-1]["aliases"] = ["Old Wenna"]
    chat = ScriptedChatModel([_reply(json.dumps(found))])
    ledger = Ledger("s")
    base = extract([doc], chunk_size=1200, prose=False)
    run = llm_extract(base, [doc], ChunkExtractor(chat), MemoryCache(), ledger)
    kept = {e.name for e in run.extraction.entities}
    assert kept == {"Lantern Company", "Brannoc", "Salt Guild", "Wenna"}
    assert sum("never writes it as a name of its own" in r for r in ledger.records) == 2


def test_a_name_found_in_a_gm_section_stays_secret_on_a_party_entity() -> None:
    """B4: the chunk is GM-only (its heading says so); the model did not mark the entity
    secret. Its new alias and description go to gm_aliases and gm_notes of the party NPC."""
    text = (
        "# Harrowgate\n\nCaptain Brannoc keeps the watch.\n\n"
        "## GM Notes\n\nCaptain Brannoc, the Baron's Dog, ignores the Knives on orders.\n"
    )
    doc = SourceDocument(path="h.md", kind="markdown", sha256="h", text=text)
    public = {"name": "Captain Brannoc", "type": "NPC", "description": "Keeps the watch."}
    secret = {**public, "aliases": ["the Baron's Dog"], "description": "Ignores the Knives."}
    replies = [json.dumps({"entities": [e], "relations": []}) for e in (public, secret)]
    chat = ScriptedChatModel([_reply(r) for r in replies])
    base = extract([doc], chunk_size=200, prose=False)
    assert [c.visibility for c in base.chunks] == ["party", "gm"]
    run = llm_extract(base, [doc], ChunkExtractor(chat), MemoryCache(), Ledger("s"))
    (brannoc,) = run.extraction.entities
    assert (brannoc.visibility, brannoc.aliases, brannoc.description) == (
        "party", (), "Keeps the watch."
    )  # fmt: skip
    assert brannoc.gm_aliases == ("the Baron's Dog",) and brannoc.gm_notes == "Ignores the Knives."
