"""The LLM extractor: the offline extraction (structure, chunks, patterns) plus the typed
entities and relations an OpenAI-compatible model finds in every prose chunk, pruned to the
taxonomy and resolved into canonical entities through :mod:`extraction.cascade`.

It receives its ports (chat model, optional embedder) and the cache entries as arguments,
and returns the new cache entries; the caller stores them. Nothing here touches a store."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from extraction.cascade import Arbiter, ResolutionCascade
from extraction.ledger import Ledger
from extraction.llm_calls import UnusableOutputError, structured_call
from extraction.llm_chunks import ChunkExtractor
from extraction.llm_schema import ChunkExtraction, ExtractedEntity, SameEntityVerdict
from extraction.offline import extract_with_warnings, finish_relations
from extraction.prompt_files import load_prompt
from extraction.pruning import prune
from extraction.resolution import EntityResolver
from extraction.slugs import normalise_name
from extraction.taxonomy import ATTITUDE_OF_TYPE
from graphrag_core.errors import ChatModelError
from graphrag_core.models import Chunk, Entity, Extraction, Relation, SourceDocument
from graphrag_core.ports import ChatModel, Embedder, ProgressListener
from graphrag_core.taxonomy import Taxonomy

PROSE_KINDS = frozenset({"markdown", "text", "vault"})


@dataclass
class LlmRun:
    """The outcome of one LLM extraction."""

    extraction: Extraction
    fresh_cache: dict[str, str]
    warnings: list[str] = field(default_factory=list)


def llm_arbiter(chat: ChatModel, ledger: Ledger) -> Arbiter:
    """An arbiter asking the model whether two entities are one (stage ``resolve``)."""
    prompt = load_prompt("resolve")

    def same(a: Entity, b: Entity) -> bool:
        messages = prompt.messages(
            a=f"{a.name} ({a.type}): {a.description}", b=f"{b.name} ({b.type}): {b.description}"
        )
        try:
            verdict, _ = structured_call(
                chat, messages, SameEntityVerdict, stage="resolve", ledger=ledger, max_tokens=128
            )
        except (UnusableOutputError, ChatModelError) as exc:
            ledger.failure("resolve", f"arbitration {a.name!r} / {b.name!r} failed: {exc}")
            return False
        return verdict.same

    return same


def llm_extract(
    documents: Sequence[SourceDocument],
    extractor: ChunkExtractor,
    cache: Mapping[str, str],
    ledger: Ledger,
    *,
    chunk_size: int,
    overlap: int = 0,
    embedder: Embedder | None = None,
    arbiter: Arbiter | None = None,
    progress: ProgressListener | None = None,
) -> LlmRun:
    """The extraction over ``extractor``'s taxonomy, and the new cache entries."""
    taxonomy = extractor.taxonomy
    base, warnings = extract_with_warnings(
        documents, chunk_size=chunk_size, overlap=overlap, taxonomy=taxonomy
    )
    prose = prose_chunks(documents, base.chunks)
    found, fresh = extractor.run(prose, cache, ledger, progress)
    cascade = ResolutionCascade(base.entities, embedder=embedder, arbiter=arbiter)
    relations = list(base.relations)
    mentions: dict[str, set[str]] = {}
    for chunk in prose:
        if chunk.id in found:
            ids, new = _resolve_chunk(chunk, found[chunk.id], cascade, ledger, taxonomy)
            mentions[chunk.id] = set(ids.values())
            relations += new
    for record in cascade.records:
        ledger.note(record)
    entities = sorted(cascade.entities.values(), key=lambda e: e.id)
    final, dropped = finish_relations(relations, EntityResolver(entities))
    chunks = _with_mentions(base.chunks, mentions, entities)
    extraction = Extraction(entities=tuple(entities), relations=tuple(final), chunks=chunks)
    return LlmRun(extraction, fresh, warnings + dropped)


def prose_chunks(documents: Sequence[SourceDocument], chunks: Sequence[Chunk]) -> list[Chunk]:
    kinds = {d.path: d.kind for d in documents}
    return [c for c in chunks if kinds.get(c.source_path) in PROSE_KINDS]


def _resolve_chunk(
    chunk: Chunk,
    found: ChunkExtraction,
    cascade: ResolutionCascade,
    ledger: Ledger,
    taxonomy: Taxonomy,
) -> tuple[dict[str, str], list[Relation]]:
    """Names of the chunk's entities → canonical ids, and its relations between them."""
    known = EntityResolver(cascade.entities.values())
    pruned, records = prune(found, chunk.id, lambda n: known.resolve(n) is not None, taxonomy)
    for record in records:
        ledger.note(record)
    ids: dict[str, str] = {}
    for extracted in pruned.entities:
        entity_id = cascade.resolve(_candidate(extracted, chunk, taxonomy))
        for name in (extracted.name, *extracted.aliases):
            ids.setdefault(normalise_name(name), entity_id)
    relations = [
        Relation(
            source=ids.get(normalise_name(r.source), r.source),
            target=ids.get(normalise_name(r.target), r.target),
            type=r.type,
            attitude=r.attitude or ATTITUDE_OF_TYPE.get(r.type),
            visibility=chunk.visibility,
            description=r.description,
            source_path=chunk.source_path,
            chunk_id=chunk.id,
        )
        for r in pruned.relations
    ]
    return ids, relations


def _candidate(extracted: ExtractedEntity, chunk: Chunk, taxonomy: Taxonomy) -> Entity:
    statuses = taxonomy.statuses_of(extracted.type)
    status = (extracted.status or "").strip().lower()
    secret = extracted.visibility == "gm" or chunk.visibility == "gm"
    return Entity(
        id="pending",
        name=extracted.name.strip(),
        type=extracted.type,
        aliases=tuple(a.strip() for a in extracted.aliases if a.strip()),
        status=status if status in statuses else None,
        visibility="gm" if secret else "party",
        description=extracted.description.strip(),
        sources=(chunk.source_path,),
    )


def _with_mentions(
    chunks: Sequence[Chunk], mentions: Mapping[str, set[str]], entities: Sequence[Entity]
) -> tuple[Chunk, ...]:
    """Chunks with the LLM's entities added to their mentions (party chunks: party entities)."""
    public = {e.id for e in entities if e.visibility == "party"}
    out = []
    for chunk in chunks:
        extra = mentions.get(chunk.id, set())
        if chunk.visibility == "party":
            extra = extra & public
        out.append(chunk.model_copy(update={"mentions": tuple(sorted({*chunk.mentions, *extra}))}))
    return tuple(out)
