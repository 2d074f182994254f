"""The extraction stage of ingest, for both extractors: the offline one, or the LLM one with
its cache (in the graph store, with the campaign's data) and its ledger; then the game
master's decisions, replayed over whatever was extracted. Also the dry-run estimate."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from extraction.arbitration import llm_arbiter
from extraction.decisions import apply_decisions
from extraction.ledger import Ledger
from extraction.llm_cache import AnswerCache
from extraction.llm_chunks import ChunkExtractor, ChunkRequest
from extraction.llm_extractor import llm_extract, prose_chunks
from extraction.offline import extract, extract_with_warnings
from extraction.pricing import PriceTable, load_prices
from extraction.slugs import normalise_name
from extraction.token_estimate import PER_MESSAGE, PER_REPLY, encoding_for, prompt_tokens
from graphrag_core.config import IngestSettings, LlmSettings
from graphrag_core.errors import ChatModelError
from graphrag_core.models import Entity, Extraction, LedgerStage, SourceDocument
from graphrag_core.ports import ChatModel, Embedder, GraphStore, ProgressListener, TokenCounter
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy


@dataclass
class LlmSetup:
    """What the LLM extractor needs, built by the composition root."""

    chat: ChatModel
    settings: LlmSettings
    prices: PriceTable = field(default_factory=load_prices)
    retry_failed: bool = False
    """Ask again for chunks whose output was unusable in an earlier run (cached as such)."""

    def extractor(self, taxonomy: Taxonomy = DEFAULT_TAXONOMY) -> ChunkExtractor:
        s = self.settings
        return ChunkExtractor(
            self.chat, max_tokens=s.max_tokens, gleaning=s.gleaning, concurrency=s.concurrency,
            taxonomy=taxonomy, prompt_version=s.prompt_version, stop_after=s.stop_after_failures,
            retry_failed=self.retry_failed,
        )  # fmt: skip


class StoreCache:
    """The campaign's LLM answers in the graph store, as an :class:`AnswerCache`."""

    def __init__(self, store: GraphStore, campaign: str) -> None:
        self._store = store
        self._campaign = campaign

    def load(self, keys: Sequence[str]) -> dict[str, str]:
        return self._store.load_extraction_cache(self._campaign, keys)

    def save(self, entries: Mapping[str, str]) -> None:
        self._store.save_extraction_cache(self._campaign, entries)


@dataclass
class ExtractionOutcome:
    extraction: Extraction
    extractor: str = "offline"
    ledger: dict[str, LedgerStage] = field(default_factory=dict)
    records: list[str] = field(default_factory=list)
    decision_warnings: list[str] = field(default_factory=list)
    """The GM decisions that did not replay as stored (also among ``records``)."""


@dataclass(frozen=True)
class RequestPlan:
    """The prose-chunk requests an LLM extraction of some documents would send, built once
    for the dry run's cache lookup and its estimate."""

    extractor: ChunkExtractor
    requests: list[ChunkRequest]

    @property
    def keys(self) -> list[str]:
        """The distinct cache keys, sorted."""
        return sorted({r.key for r in self.requests})


def prose_requests(
    documents: Sequence[SourceDocument], ingest: IngestSettings, llm: LlmSetup
) -> RequestPlan:
    """The request of every prose chunk the offline extraction of ``documents`` yields."""
    chunks = extract(
        documents, chunk_size=ingest.chunk_size, overlap=ingest.chunk_overlap, prose=False
    ).chunks
    extractor = llm.extractor(ingest.taxonomy())
    return RequestPlan(extractor, [extractor.request(c) for c in prose_chunks(documents, chunks)])


def stored_answers(plan: RequestPlan, store: GraphStore, campaign: str) -> frozenset[str]:
    """The keys of ``plan`` already cached (an answer, or a failure not to be retried)."""
    cached = store.load_extraction_cache(campaign, plan.keys)
    return frozenset(k for k, text in cached.items() if plan.extractor.reusable(text))


def cached_keys(
    documents: Sequence[SourceDocument],
    ingest: IngestSettings,
    llm: LlmSetup,
    store: GraphStore,
    campaign: str,
) -> tuple[int, frozenset[str]]:
    """The number of distinct prose-chunk requests, and the keys of those already cached."""
    plan = prose_requests(documents, ingest, llm)
    return len(plan.keys), stored_answers(plan, store, campaign)


def replayed_ledger(cached: int) -> dict[str, LedgerStage]:
    """The ledger of an LLM ingest with nothing to extract: every chunk from the cache."""
    return {"extract": LedgerStage(cache_hits=cached)}


def run_extraction(
    documents: Sequence[SourceDocument],
    ingest: IngestSettings,
    store: GraphStore,
    campaign: str,
    *,
    llm: LlmSetup | None = None,
    embedder: Embedder | None = None,
    progress: ProgressListener | None = None,
    known: Sequence[Entity] = (),
    defined_elsewhere: Collection[str] = (),
    stored: Iterable[Entity] = (),
) -> ExtractionOutcome:
    """Extract, then replay the GM decisions. LLM results are cached in the store at once:
    a paid extraction is never paid twice, even when a later stage fails. ``known`` and
    ``defined_elsewhere``: the stored entities of the sources this run leaves as they are (a
    single-file ingest: every other file; a broken file's last good content) and which of
    those sources define entities (see ``extraction.known``). Both extractors resolve against
    them; the LLM extractor adds names to them, never replaces their definitions. ``stored``:
    every entity the store holds for the campaign; a new LLM entity keeps the id the store
    gave its name and type."""
    taxonomy = ingest.taxonomy()
    base, warnings = extract_with_warnings(
        documents, chunk_size=ingest.chunk_size, overlap=ingest.chunk_overlap,
        taxonomy=taxonomy, known=known, defined_elsewhere=defined_elsewhere, prose=llm is None,
    )  # fmt: skip
    if llm is None:
        outcome = ExtractionOutcome(base, records=warnings)
    else:
        outcome = _llm(
            documents, base, warnings, llm, llm.extractor(taxonomy), StoreCache(store, campaign),
            embedder=embedder, progress=progress, known=known,
            hints={(normalise_name(e.name), e.type): e.id for e in stored},
        )  # fmt: skip
    decided, notes, warnings = apply_decisions(
        outcome.extraction, store.load_gm_decisions(campaign)
    )
    outcome.extraction = decided
    outcome.records += notes
    outcome.decision_warnings = warnings
    return outcome


def _llm(
    documents: Sequence[SourceDocument],
    base: Extraction,
    warnings: list[str],
    llm: LlmSetup,
    extractor: ChunkExtractor,
    cache: AnswerCache,
    *,
    embedder: Embedder | None,
    progress: ProgressListener | None,
    known: Sequence[Entity],
    hints: Mapping[tuple[str, str], str],
) -> ExtractionOutcome:
    """The LLM extraction over ``base`` (the offline one, with its ``warnings``); every answer
    is cached as soon as it is paid for. A model failure raises (nothing is written to the
    graph), with the ledger so far in the message."""
    ledger = Ledger(llm.chat.model_id)
    try:
        run = llm_extract(
            base, documents, extractor, cache, ledger, known=known, hints=hints,
            embedder=embedder, arbiter=llm_arbiter(llm.chat, ledger, cache), progress=progress,
        )  # fmt: skip
    except ChatModelError as exc:
        raise type(exc)(
            f"{exc} Nothing was written to the graph. Ledger: {_summary(ledger, llm.prices)}",
            attempts=exc.attempts,
        ) from exc
    return ExtractionOutcome(
        run.extraction,
        extractor=f"llm:{llm.chat.model_id}",
        ledger=ledger.stages(llm.prices),
        records=ledger.records + warnings + run.warnings,
    )


def _summary(ledger: Ledger, prices: PriceTable) -> str:
    return "; ".join(
        f"{name} {s.calls} call(s), {s.retries} retries, {s.failures} failure(s), "
        f"{s.cache_hits} cache hit(s)"
        for name, s in ledger.stages(prices).items()
    )


@dataclass(frozen=True)
class DryRun:
    """What an LLM extraction would cost, computed before any call."""

    model: str
    chunks: int
    cached: int
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    priced: bool
    encoding: str = "o200k_base"
    exact: bool = True


def estimate(
    plan: RequestPlan, llm: LlmSetup, counter: TokenCounter, cached_keys: frozenset[str]
) -> DryRun:
    """Prompt tokens of every uncached extraction request as billed (messages, chat framing,
    and the JSON schema when the structured-output mode sends one; exact for OpenAI models,
    with ``counter`` in the model's encoding); completion tokens expected as
    ``completion_ratio`` × chunk tokens, capped at ``max_tokens``; one call per chunk and
    gleaning pass (gleaning prompts re-send the conversation, counted as such). Repair rounds
    and arbitration calls happen only when needed (and are cached): not counted."""
    extractor, requests = plan.extractor, plan.requests
    todo = list({r.key: r for r in requests if r.key not in cached_keys}.values())
    s = llm.settings
    schema = extractor.request_schema if s.structured_output != "json_object" else None
    ask = prompt_tokens(extractor.glean_prompt.messages()[1:], counter) - PER_REPLY
    prompt = completion = 0
    for req in todo:
        sent = prompt_tokens(req.messages, counter, schema)
        expected = min(s.max_tokens, int(counter.count(req.chunk.text) * s.completion_ratio) + 40)
        for n in range(1, s.gleaning + 1):  # each pass re-sends the conversation so far
            prompt += sent + n * (expected + PER_MESSAGE + 1 + ask)
        prompt += sent
        completion += expected * (1 + s.gleaning)
    model = llm.chat.model_id
    encoding, exact = encoding_for(model)
    return DryRun(
        model=model,
        chunks=len(requests),
        cached=sum(1 for r in requests if r.key in cached_keys),
        calls=len(todo) * (1 + s.gleaning),
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=llm.prices.cost(model, prompt, completion),
        priced=llm.prices.price(model) is not None,
        encoding=encoding,
        exact=exact,
    )
