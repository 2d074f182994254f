"""The extraction stage of ingest, for both extractors: the offline one, or the LLM one with
its cache (in the graph store, with the campaign's data) and its ledger; then the game
master's decisions, replayed over whatever was extracted. Also the dry-run estimate."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from extraction.decisions import apply_decisions
from extraction.ledger import Ledger
from extraction.llm_chunks import ChunkExtractor
from extraction.llm_extractor import llm_arbiter, llm_extract, prose_chunks
from extraction.offline import extract, extract_with_warnings
from extraction.pricing import PriceTable, load_prices
from graphrag_core.models import Entity, Extraction, LedgerStage, SourceDocument
from graphrag_core.ports import ChatModel, Embedder, GraphStore, ProgressListener, TokenCounter
from graphrag_core.settings import IngestSettings, LlmSettings
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy


@dataclass
class LlmSetup:
    """What the LLM extractor needs, built by the composition root."""

    chat: ChatModel
    settings: LlmSettings
    prices: PriceTable = field(default_factory=load_prices)

    def extractor(self, taxonomy: Taxonomy = DEFAULT_TAXONOMY) -> ChunkExtractor:
        s = self.settings
        return ChunkExtractor(
            self.chat, max_tokens=s.max_tokens, gleaning=s.gleaning, concurrency=s.concurrency,
            taxonomy=taxonomy,
        )  # fmt: skip


@dataclass
class ExtractionOutcome:
    extraction: Extraction
    extractor: str = "offline"
    ledger: dict[str, LedgerStage] = field(default_factory=dict)
    records: list[str] = field(default_factory=list)


def cached_keys(
    documents: Sequence[SourceDocument],
    ingest: IngestSettings,
    llm: LlmSetup,
    store: GraphStore,
    campaign: str,
) -> tuple[int, frozenset[str]]:
    """The number of distinct prose-chunk requests, and the keys of those already cached."""
    chunks = extract(documents, chunk_size=ingest.chunk_size, overlap=ingest.chunk_overlap).chunks
    extractor = llm.extractor(ingest.taxonomy())
    keys = sorted({extractor.request(c).key for c in prose_chunks(documents, chunks)})
    return len(keys), frozenset(store.load_extraction_cache(campaign, keys))


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
) -> ExtractionOutcome:
    """Extract, then replay the GM decisions. LLM results are cached in the store at once:
    a paid extraction is never paid twice, even when a later stage fails. ``known`` and
    ``defined_elsewhere``: the stored entities of sources outside ``documents`` (see
    ``extraction.known``; offline extractor)."""
    if llm is None:
        extraction, records = extract_with_warnings(
            documents, chunk_size=ingest.chunk_size, overlap=ingest.chunk_overlap,
            taxonomy=ingest.taxonomy(), known=known, defined_elsewhere=defined_elsewhere,
        )  # fmt: skip
        outcome = ExtractionOutcome(extraction, records=records)
    else:
        outcome = _llm(documents, ingest, store, campaign, llm, embedder, progress)
    decided, notes = apply_decisions(outcome.extraction, store.load_gm_decisions(campaign))
    outcome.extraction = decided
    outcome.records += notes
    return outcome


def _llm(
    documents: Sequence[SourceDocument],
    ingest: IngestSettings,
    store: GraphStore,
    campaign: str,
    llm: LlmSetup,
    embedder: Embedder | None,
    progress: ProgressListener | None,
) -> ExtractionOutcome:
    extractor = llm.extractor(ingest.taxonomy())
    base = extract(documents, chunk_size=ingest.chunk_size, overlap=ingest.chunk_overlap)
    keys = [extractor.request(c).key for c in prose_chunks(documents, base.chunks)]
    cache = store.load_extraction_cache(campaign, keys)
    ledger = Ledger(llm.chat.model_id)
    run = llm_extract(
        documents, extractor, cache, ledger,
        chunk_size=ingest.chunk_size, overlap=ingest.chunk_overlap, embedder=embedder,
        arbiter=llm_arbiter(llm.chat, ledger), progress=progress,
    )  # fmt: skip
    store.save_extraction_cache(campaign, run.fresh_cache)
    return ExtractionOutcome(
        run.extraction,
        extractor=f"llm:{llm.chat.model_id}",
        ledger=ledger.stages(llm.prices),
        records=ledger.records + run.warnings,
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


def estimate(
    documents: Sequence[SourceDocument],
    ingest: IngestSettings,
    llm: LlmSetup,
    counter: TokenCounter,
    cached_keys: frozenset[str],
) -> DryRun:
    """Exact prompt tokens of every uncached extraction request; completion tokens expected
    as ``completion_ratio`` × chunk tokens, capped at ``max_tokens``; one call per chunk and
    gleaning pass (gleaning prompts re-send the conversation, counted as such)."""
    chunks = extract(documents, chunk_size=ingest.chunk_size, overlap=ingest.chunk_overlap).chunks
    extractor = llm.extractor(ingest.taxonomy())
    requests = [extractor.request(c) for c in prose_chunks(documents, chunks)]
    todo = [r for r in requests if r.key not in cached_keys]
    s = llm.settings
    prompt = completion = 0
    for req in todo:
        sent = sum(counter.count(m["content"]) for m in req.messages)
        expected = min(s.max_tokens, int(counter.count(req.chunk.text) * s.completion_ratio) + 40)
        prompt += sent + s.gleaning * (sent + expected)
        completion += expected * (1 + s.gleaning)
    model = llm.chat.model_id
    return DryRun(
        model=model,
        chunks=len(requests),
        cached=len(requests) - len(todo),
        calls=len(todo) * (1 + s.gleaning),
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=llm.prices.cost(model, prompt, completion),
        priced=llm.prices.price(model) is not None,
    )
