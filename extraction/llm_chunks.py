"""Per-chunk LLM extraction: cache lookup, the extraction call (with its repair round),
gleaning passes, and the new cache entries. Failures are recorded and the run goes on.

The cache key is a hash of the model, the prompt versions, the gleaning passes and the chunk's
heading and text: unchanged chunks cost nothing, a new prompt version re-extracts."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from extraction.ledger import Ledger
from extraction.llm_calls import UnusableOutputError, structured_call
from extraction.llm_schema import ChunkExtraction, extraction_schema
from extraction.prompt_files import Prompt, load_prompt
from graphrag_core.errors import ChatModelError
from graphrag_core.models import Chunk
from graphrag_core.ports import ChatModel, NullProgress, ProgressListener
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy


@dataclass(frozen=True)
class ChunkRequest:
    """What the extractor sends for one chunk, known before any call (the dry run uses it)."""

    chunk: Chunk
    key: str
    messages: list[dict[str, str]]


class ChunkExtractor:
    def __init__(
        self,
        chat: ChatModel,
        *,
        max_tokens: int = 1024,
        gleaning: int = 0,
        prompt_version: int | None = None,
        concurrency: int = 1,
        taxonomy: Taxonomy = DEFAULT_TAXONOMY,
    ) -> None:
        self.chat = chat
        self.taxonomy = taxonomy
        # the built-in taxonomy keeps the schema its recorded replies were made with
        self.schema = None if taxonomy.is_default else extraction_schema(taxonomy)
        self.max_tokens = max_tokens
        self.gleaning = gleaning
        self.concurrency = concurrency
        self.prompt: Prompt = load_prompt("extract", prompt_version)
        self.glean_prompt: Prompt = load_prompt("glean")

    def request(self, chunk: Chunk) -> ChunkRequest:
        messages = self.prompt.messages(
            entity_types=", ".join(self.taxonomy.entity_types),
            relation_types=", ".join(self.taxonomy.relation_types),
            heading=chunk.heading or "(none)",
            text=chunk.text,
        )
        return ChunkRequest(chunk, self._key(chunk), messages)

    def _key(self, chunk: Chunk) -> str:
        prompts = self.prompt.id + (
            f"+{self.glean_prompt.id}x{self.gleaning}" if self.gleaning else ""
        )
        if not self.taxonomy.is_default:  # extra types: another prompt, another answer
            prompts += "+types:" + ",".join(
                [*self.taxonomy.entity_types, *self.taxonomy.relation_types]
            )
        material = "\n".join([self.chat.model_id, prompts, chunk.heading, chunk.text])
        return hashlib.sha256(material.encode("utf-8")).hexdigest()

    def run(
        self,
        chunks: Sequence[Chunk],
        cache: Mapping[str, str],
        ledger: Ledger,
        progress: ProgressListener | None = None,
    ) -> tuple[dict[str, ChunkExtraction], dict[str, str]]:
        """Extraction per chunk id (failed chunks are absent) and the new cache entries."""
        progress = progress or NullProgress()
        requests = [self.request(chunk) for chunk in chunks]
        results: dict[str, ChunkExtraction] = {}
        todo: list[ChunkRequest] = []
        for req in requests:
            if req.key in cache:
                results[req.chunk.id] = ChunkExtraction.model_validate_json(cache[req.key])
                ledger.cache_hit("extract")
            else:
                todo.append(req)
        progress.start("llm-extract", len(todo))
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            outcomes = list(pool.map(lambda r: self._one(r, ledger, progress), todo))
        progress.finish("llm-extract")
        fresh: dict[str, str] = {}
        for req, outcome in zip(todo, outcomes, strict=True):
            if outcome is not None:
                results[req.chunk.id] = outcome
                fresh[req.key] = outcome.model_dump_json()
        return results, fresh

    def _one(
        self, req: ChunkRequest, ledger: Ledger, progress: ProgressListener
    ) -> ChunkExtraction | None:
        try:
            return self._extract(req, ledger)
        except UnusableOutputError as exc:
            ledger.failure("extract", f"chunk {req.chunk.id}: unusable output: {exc}")
        except ChatModelError as exc:
            ledger.failure("extract", f"chunk {req.chunk.id}: model error: {exc}")
        finally:
            progress.advance("llm-extract")
        return None

    def _extract(self, req: ChunkRequest, ledger: Ledger) -> ChunkExtraction:
        found, conversation = structured_call(
            self.chat, req.messages, ChunkExtraction,
            stage="extract", ledger=ledger, max_tokens=self.max_tokens, schema=self.schema,
        )  # fmt: skip
        for _ in range(self.gleaning):
            ask = self.glean_prompt.messages()[1]
            try:
                more, conversation = structured_call(
                    self.chat, [*conversation, ask], ChunkExtraction,
                    stage="glean", ledger=ledger, max_tokens=self.max_tokens, schema=self.schema,
                )  # fmt: skip
            except UnusableOutputError as exc:
                ledger.failure("glean", f"chunk {req.chunk.id}: gleaning skipped: {exc}")
                break
            if not more.entities and not more.relations:
                break
            found = ChunkExtraction(
                entities=[*found.entities, *more.entities],
                relations=[*found.relations, *more.relations],
            )
        return found
