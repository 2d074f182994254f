"""The dry run counts prompt tokens as they are billed: messages, chat framing, and the JSON
schema the structured-output mode sends; the encoding follows the model."""

from __future__ import annotations

import json

import pytest

from extraction.llm_schema import ChunkExtraction
from extraction.offline import extract
from extraction.pricing import load_prices
from extraction.sources import load_document
from extraction.token_estimate import encoding_for, prompt_tokens
from graphrag_core.config import IngestSettings, LlmSettings
from graphrag_core.providers.bpe_tokens import BpeTokenCounter
from graphrag_core.services.extraction import LlmSetup, estimate, prose_requests
from tests.fakes import FIXTURES_LLM, ScriptedChatModel


class Words:
    def count(self, text: str) -> int:
        return len(text.split())


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("gpt-4o-mini-2024-07-18", ("o200k_base", True)),
        ("gpt-4.1-nano", ("o200k_base", True)),
        ("o3-mini", ("o200k_base", True)),
        ("gpt-5", ("o200k_base", True)),
        ("openai/gpt-4o", ("o200k_base", True)),
        ("gpt-4-turbo", ("cl100k_base", True)),
        ("gpt-3.5-turbo", ("cl100k_base", True)),
        ("qwen2.5-coder-1.5b-instruct", ("o200k_base", False)),
    ],
)
def test_the_encoding_follows_the_model(model: str, expected: tuple[str, bool]) -> None:
    assert encoding_for(model) == expected


def test_a_request_costs_its_messages_their_framing_and_the_schema() -> None:
    messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "a b c"}]
    schema = {"type": "object"}
    # (3 + 1 role + 2) + (3 + 1 role + 3) + 3 for the reply, + 2 words of JSON schema
    assert prompt_tokens(messages, Words()) == 16
    assert prompt_tokens(messages, Words(), schema) == 16 + len(json.dumps(schema).split())


def _plan(mode: str, model: str = "gpt-4o-mini") -> tuple[int, int]:
    corpus = FIXTURES_LLM / "corpus"
    docs = [load_document(corpus / "millbrook.md", corpus)]
    settings = LlmSettings(model=model, structured_output=mode)  # type: ignore[arg-type]
    llm = LlmSetup(ScriptedChatModel([], model_id=model), settings, load_prices())
    plan = estimate(
        prose_requests(docs, IngestSettings(), llm), llm, BpeTokenCounter(), frozenset()
    )
    chunks = extract(docs, chunk_size=1200).chunks
    content = sum(
        BpeTokenCounter().count(m["content"])
        for c in chunks
        for m in llm.extractor().request(c).messages
    )
    return plan.prompt_tokens, content


def test_the_estimate_adds_framing_and_the_schema_sent_with_each_request() -> None:
    with_schema, content = _plan("json_schema")
    without, _ = _plan("json_object")
    schema = BpeTokenCounter().count(json.dumps(ChunkExtraction.model_json_schema()))
    assert without == content + 2 * (3 + 1 + 3 + 1 + 3)  # two chunks, two messages each
    assert with_schema == without + 2 * schema


@pytest.mark.parametrize(
    ("model", "dollars_per_million_in"),
    [
        ("gpt-4o-2024-08-06", 2.50),
        ("gpt-4o-mini-2024-07-18", 0.15),
        ("gpt-4.1-mini-2025-04-14", 0.40),
        ("gpt-4.1-2025-04-14", 2.00),
        ("qwen2.5-coder-1.5b-instruct", 0.0),
    ],
)
def test_dated_model_snapshots_are_priced(model: str, dollars_per_million_in: float) -> None:
    price = load_prices().price(model)
    assert price is not None and price.input == dollars_per_million_in
