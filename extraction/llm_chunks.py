"""Per-chunk LLM extraction: cache lookup, the extraction call (with its repair round),
gleaning passes, and each new answer saved to the cache as soon as it validates.

Output that stays unusable after the repair round is recorded, cached as unusable (so an
unchanged chunk is not paid for again; ``retry_failed``, or a higher ``max_tokens`` than the
one that cut it off, asks again) and the run goes on. A model
that cannot be reached, refuses the key or stays rate limited after the SDK's retries
(``ChatModelError``) fails the run: the chunks still in flight finish and are cached, no new
chunk is started once ``stop_after`` calls in a row have failed, and the run raises.

The cache key is a hash of the model, the prompts' versions and text, the gleaning passes, the
taxonomy and the chunk's heading and text: unchanged chunks cost nothing; a new prompt
version, or an edited prompt file, re-extracts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from extraction.ledger import Ledger
from extraction.llm_cache import AnswerCache, Unusable, cache_key, prompt_fingerprint, read_unusable
from extraction.llm_calls import UnusableOutputError, structured_call
from extraction.llm_schema import ChunkExtraction, extraction_schema, model_schema
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


@dataclass
class _Tally:
    """What came of the chunks sent: the new answers (and their cache entries, as saved) and
    the model failures seen while the chunks complete."""

    answers: dict[str, ChunkExtraction] = field(default_factory=dict)
    entries: dict[str, str] = field(default_factory=dict)
    errors: list[ChatModelError] = field(default_factory=list)
    in_a_row: int = 0
    not_started: int = 0


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
        stop_after: int = 3,
        retry_failed: bool = False,
    ) -> None:
        self.chat = chat
        self.retry_failed = retry_failed
        self.taxonomy = taxonomy
        # the built-in taxonomy keeps the schema its recorded replies were made with
        self.schema = None if taxonomy.is_default else extraction_schema(taxonomy)
        self.max_tokens = max_tokens
        self.gleaning = gleaning
        self.concurrency = concurrency
        self.stop_after = stop_after
        self._types = {
            "entity_types": ", ".join(taxonomy.entity_types),
            "relation_types": ", ".join(taxonomy.relation_types),
        }
        self.glean_prompt: Prompt = load_prompt("glean")
        self.prompt = load_prompt("extract", prompt_version)

    @property
    def prompt(self) -> Prompt:
        """The extraction prompt; replacing it changes every request's key."""
        return self._prompt

    @prompt.setter
    def prompt(self, prompt: Prompt) -> None:
        self._prompt = prompt
        self._version = self._request_version()

    @property
    def request_schema(self) -> dict[str, Any]:
        """The JSON schema each extraction request sends (when the mode sends one)."""
        return self.schema or model_schema(ChunkExtraction)

    def request(self, chunk: Chunk) -> ChunkRequest:
        messages = self.prompt.messages(
            **self._types, heading=chunk.heading or "(none)", text=chunk.text
        )
        key = cache_key(self.chat.model_id, self._version, chunk.heading, chunk.text)
        return ChunkRequest(chunk, key, messages)

    def _request_version(self) -> str:
        """What every request's cache key holds besides the model and the chunk: the prompts,
        the gleaning passes and, beyond the built-in taxonomy, the types."""
        prompts = [self.prompt, self.glean_prompt] if self.gleaning else [self.prompt]
        version = prompt_fingerprint(*prompts) + (f"x{self.gleaning}" if self.gleaning else "")
        if not self.taxonomy.is_default:  # extra types: another prompt, another answer
            version += "+types:" + ",".join(
                [*self.taxonomy.entity_types, *self.taxonomy.relation_types]
            )
        return version

    def reusable(self, cached: str) -> bool:
        """Whether a cached entry stands: an answer, or a failure not to be retried."""
        return self._stands(read_unusable(cached))

    def _stands(self, failed: Unusable | None) -> bool:
        return failed is None or not (self.retry_failed or self.max_tokens > failed.max_tokens)

    def _standing(self, loaded: Mapping[str, str]) -> dict[str, ChunkExtraction | Unusable]:
        """The cached entries that stand, each parsed once: answers, and failures not to be
        retried."""
        standing: dict[str, ChunkExtraction | Unusable] = {}
        for key, text in loaded.items():
            failed = read_unusable(text)
            if failed is None:
                standing[key] = ChunkExtraction.model_validate_json(text)
            elif self._stands(failed):
                standing[key] = failed
        return standing

    def run(
        self,
        chunks: Sequence[Chunk],
        cache: AnswerCache,
        ledger: Ledger,
        progress: ProgressListener | None = None,
    ) -> tuple[dict[str, ChunkExtraction], dict[str, str]]:
        """Extraction per chunk id (chunks with unusable output are absent) and the new cache
        entries (already saved to ``cache``); ``ChatModelError`` if the model failed."""
        progress = progress or NullProgress()
        requests = [self.request(chunk) for chunk in chunks]
        standing = self._standing(cache.load(sorted({r.key for r in requests})))
        results: dict[str, ChunkExtraction] = {}
        todo: dict[str, ChunkRequest] = {}
        for req in requests:
            cached = standing.get(req.key)
            if cached is None:
                todo.setdefault(req.key, req)
                continue
            ledger.cache_hit("extract")
            if isinstance(cached, Unusable):
                ledger.note(
                    f"chunk {req.chunk.id}: unusable output in an earlier run ({cached.reason}); "
                    "not asked again: pass --retry-failed, or raise llm.max_tokens"
                )
            else:
                results[req.chunk.id] = cached
        progress.start("llm-extract", len(todo))
        tally = self._extract_all(list(todo.values()), cache, ledger, progress)
        progress.finish("llm-extract")
        for req in requests:
            if req.chunk.id not in results and req.key in tally.answers:
                results[req.chunk.id] = tally.answers[req.key]
        if tally.errors:
            raise _stopped(tally, len(todo), len(tally.answers))
        return results, tally.entries

    def _extract_all(
        self,
        todo: list[ChunkRequest],
        cache: AnswerCache,
        ledger: Ledger,
        progress: ProgressListener,
    ) -> _Tally:
        tally = _Tally()
        waiting = iter(todo)
        running: dict[Future[ChunkExtraction | Unusable], ChunkRequest] = {}
        pool = ThreadPoolExecutor(max_workers=self.concurrency)
        interrupted = True
        try:
            while True:
                while len(running) < self.concurrency and tally.in_a_row < self.stop_after:
                    req = next(waiting, None)
                    if req is None:
                        break
                    running[pool.submit(self._one, req, ledger)] = req
                if not running:
                    break
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    self._collect(future, running.pop(future), cache, ledger, tally)
                    progress.advance("llm-extract")
            interrupted = False
        finally:
            pool.shutdown(wait=not interrupted, cancel_futures=True)
        tally.not_started = sum(1 for _ in waiting)
        return tally

    def _collect(
        self,
        future: Future[ChunkExtraction | Unusable],
        req: ChunkRequest,
        cache: AnswerCache,
        ledger: Ledger,
        tally: _Tally,
    ) -> None:
        try:
            outcome = future.result()
        except ChatModelError as exc:
            ledger.failure("extract", f"chunk {req.chunk.id}: model error: {exc}")
            tally.errors.append(exc)
            tally.in_a_row += 1
            return
        tally.in_a_row = 0
        if isinstance(outcome, Unusable):  # paid for too: not asked again unchanged
            cache.save({req.key: outcome.dump()})
            return
        entry = {req.key: outcome.model_dump_json()}
        cache.save(entry)  # paid for: kept even if the run stops later
        tally.entries.update(entry)
        tally.answers[req.key] = outcome

    def _one(self, req: ChunkRequest, ledger: Ledger) -> ChunkExtraction | Unusable:
        try:
            return self._extract(req, ledger)
        except UnusableOutputError as exc:
            ledger.failure("extract", f"chunk {req.chunk.id}: unusable output: {exc}")
            return Unusable(str(exc), self.max_tokens)

    def _extract(self, req: ChunkRequest, ledger: Ledger) -> ChunkExtraction:
        found, conversation = structured_call(
            self.chat, req.messages, ChunkExtraction,
            stage="extract", ledger=ledger, max_tokens=self.max_tokens, schema=self.request_schema,
        )  # fmt: skip
        for _ in range(self.gleaning):
            ask = self.glean_prompt.messages()[1]
            try:
                more, conversation = structured_call(
                    self.chat, [*conversation, ask], ChunkExtraction,
                    stage="glean", ledger=ledger, max_tokens=self.max_tokens,
                    schema=self.request_schema,
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


def _stopped(tally: _Tally, todo: int, done: int) -> ChatModelError:
    """The error that ends a run the model failed: the last error's kind, saying what
    happened and that the answers paid for are kept."""
    last = tally.errors[-1]
    skipped = (
        f" ({tally.not_started} not started after {tally.in_a_row} failures in a row)"
        if tally.not_started
        else ""
    )
    message = (
        f"LLM extraction stopped: {len(tally.errors)} of {todo} chunk(s) failed to reach "
        f"the model{skipped}; last error: {last}. {done} chunk extraction(s) finished and "
        "are kept in the cache (a re-run pays only for the rest)."
    )
    return type(last)(message, attempts=last.attempts)
