"""The LLM extractor: the offline extraction (structure, chunks, patterns) plus the typed
entities and relations an OpenAI-compatible model finds in every prose chunk, pruned to the
taxonomy and resolved into canonical entities through :mod:`extraction.cascade`.

Resolution starts from the offline extraction's entities and from ``known``: entities the
store holds from sources outside this run (a single-file ingest). A candidate that joins one
of those adds its names and its source to it; the stored definition (description, status,
attributes, aliases) stays as it is. New entities get ids that do not depend on chunk order,
and keep the id the store gave them before (``hints``).

Per chunk, before resolution: names the passage never writes as a name of their own are
dropped: common nouns ("the merchant", "rope") and the first words of a longer name ("Salt"
of "Salt Guild"); so is an alias that is another extracted entity's name, or the entity's own
name. After resolution, an alias this run added that is another entity's name is dropped
too. Each drop is recorded.

It receives its ports (chat model, optional embedder) and cache as arguments; nothing here
touches a store."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from extraction.cascade import Arbiter, ResolutionCascade
from extraction.ledger import Ledger
from extraction.llm_cache import AnswerCache
from extraction.llm_chunks import ChunkExtractor
from extraction.llm_schema import ChunkExtraction, ExtractedEntity
from extraction.name_match import TITLES
from extraction.offline import finish_relations
from extraction.pruning import prune
from extraction.resolution import EntityResolver, remap_ends
from extraction.slugs import normalise_name
from extraction.taxonomy import ATTITUDE_OF_TYPE
from graphrag_core.models import Chunk, Entity, Extraction, Relation, SourceDocument
from graphrag_core.ports import Embedder, ProgressListener
from graphrag_core.taxonomy import Taxonomy

PROSE_KINDS = frozenset({"markdown", "text", "vault", "pdf", "epub"})


@dataclass
class LlmRun:
    """The outcome of one LLM extraction."""

    extraction: Extraction
    warnings: list[str] = field(default_factory=list)


def prose_chunks(documents: Sequence[SourceDocument], chunks: Sequence[Chunk]) -> list[Chunk]:
    kinds = {d.path: d.kind for d in documents}
    return [c for c in chunks if kinds.get(c.source_path) in PROSE_KINDS]


def llm_extract(
    base: Extraction,
    documents: Sequence[SourceDocument],
    extractor: ChunkExtractor,
    cache: AnswerCache,
    ledger: Ledger,
    *,
    known: Sequence[Entity] = (),
    hints: Mapping[tuple[str, str], str] | None = None,
    embedder: Embedder | None = None,
    arbiter: Arbiter | None = None,
    progress: ProgressListener | None = None,
) -> LlmRun:
    """The extraction over ``extractor``'s taxonomy, built on ``base`` (the offline extraction
    of ``documents``); every new answer is saved to ``cache``."""
    prose = prose_chunks(documents, base.chunks)
    found, _ = extractor.run(prose, cache, ledger, progress)
    base_ids = {e.id for e in base.entities}
    seeds = [*base.entities, *(e for e in known if e.id not in base_ids)]
    cascade = ResolutionCascade(seeds, embedder=embedder, arbiter=arbiter)
    relations = list(base.relations)
    mentions: dict[str, set[str]] = {}
    for chunk in prose:
        if chunk.id in found:
            ids, new = _resolve_chunk(chunk, found[chunk.id], cascade, ledger, extractor.taxonomy)
            mentions[chunk.id] = set(ids.values())
            relations += new
    renamed = cascade.stable_ids(hints)
    relations = [remap_ends(r, renamed) for r in relations]
    mentions = {c: {renamed.get(i, i) for i in ids} for c, ids in mentions.items()}
    _record_merges(cascade, ledger)
    kept = base_ids | cascade.created | cascade.touched
    entities = _without_foreign_aliases(
        [e for i, e in sorted(cascade.entities.items()) if i in kept], seeds, ledger
    )
    final, dropped = finish_relations(relations, EntityResolver(entities))
    chunks = _with_mentions(base.chunks, mentions, entities)
    extraction = Extraction(entities=tuple(entities), relations=tuple(final), chunks=chunks)
    return LlmRun(extraction, dropped)


def _resolve_chunk(
    chunk: Chunk,
    found: ChunkExtraction,
    cascade: ResolutionCascade,
    ledger: Ledger,
    taxonomy: Taxonomy,
) -> tuple[dict[str, str], list[Relation]]:
    """Names of the chunk's entities → canonical ids, and its relations between them."""
    known = cascade.resolver()
    secret = chunk.visibility == "gm"
    pruned, records = prune(
        found, chunk.id, lambda n: known.resolve(n, include_gm=secret) is not None, taxonomy
    )
    entities = _cleaned(pruned.entities, chunk, records)
    for record in records:
        ledger.note(record)
    ids: dict[str, str] = {}
    for extracted in entities:
        entity_id = cascade.resolve(_candidate(extracted, chunk, taxonomy))
        for name in (extracted.name, *extracted.aliases):
            ids.setdefault(normalise_name(name), entity_id)

    def end(name: str) -> str:
        """An end the chunk extracted, else a known entity (its GM names only in GM text)."""
        found = ids.get(normalise_name(name)) or known.resolve(name, include_gm=secret)
        if found is not None and found not in cascade.created:
            cascade.touched.add(found)
        return found or name

    relations = [
        Relation(
            source=end(r.source),
            target=end(r.target),
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


def _cleaned(
    entities: Sequence[ExtractedEntity], chunk: Chunk, records: list[str]
) -> list[ExtractedEntity]:
    """Without common nouns, and without aliases that are an entity's own or another's name."""
    kept = []
    for entity in entities:
        if _common_noun(entity, chunk.text):
            records.append(f"chunk {chunk.id}: dropped entity {entity.name!r}: the passage "
                           "never writes it as a name of its own (a common noun, or part of "
                           "a longer name)")  # fmt: skip
        else:
            kept.append(entity)
    names = {normalise_name(e.name) for e in kept}
    out = []
    for entity in kept:
        own = normalise_name(entity.name)
        aliases = [a for a in entity.aliases if normalise_name(a) not in names]
        for alias in entity.aliases:
            if normalise_name(alias) in names - {own}:
                records.append(f"chunk {chunk.id}: alias {alias!r} of {entity.name!r} dropped: "
                               "it is another entity's name")  # fmt: skip
        out.append(entity.model_copy(update={"aliases": list(dict.fromkeys(aliases))}))
    return out


_WORD_BEFORE = re.compile(r"([A-Z][\w'’-]*)[ \t]+$")
_CAPITAL_AFTER = re.compile(r"^[ \t]+[A-Z]")
_NOT_NAME_WORDS = TITLES | {
    "this", "that", "these", "those", "his", "her", "their", "our", "my", "your", "its",
    "and", "but", "or", "in", "on", "at", "to", "by", "for", "from", "with", "when", "then",
}  # fmt: skip


def _common_noun(entity: ExtractedEntity, text: str) -> bool:
    """Whether the passage writes the entity's name (plurals too) but never as a name of its
    own: only in lower case ("salt", "the merchant"), or only as the first words of a longer
    name ("Salt" of "Salt Guild"); an alias written as a name saves it."""
    found = [m for name in (entity.name, *entity.aliases) for m in _occurrences(name, text)]
    return bool(found) and not any(_proper(m, text) for m in found)


def _occurrences(name: str, text: str) -> list[re.Match[str]]:
    words = r"\s+".join(re.escape(w) for w in name.split())
    return list(re.finditer(rf"\b{words}(?:e?s)?\b", text, re.IGNORECASE)) if words else []


def _proper(match: re.Match[str], text: str) -> bool:
    """Capitalised, and not part of a longer capitalised name (a title or an article before
    it does not count: "The Lantern Company", "Captain Brannoc")."""
    if not any(w[:1].isupper() for w in match[0].split()):
        return False
    before = _WORD_BEFORE.search(text[max(0, match.start() - 40) : match.start()])
    if before is not None and before[1].casefold() not in _NOT_NAME_WORDS:
        return False
    return not _CAPITAL_AFTER.match(text[match.end() : match.end() + 40])


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


def _record_merges(cascade: ResolutionCascade, ledger: Ledger) -> None:
    for record in cascade.records:
        ledger.note(record)
    if cascade.exact_merges:
        ledger.note(f"merge: {cascade.exact_merges} candidate(s) joined an entity of the same "
                    "name and type (exact name)")  # fmt: skip


def _without_foreign_aliases(
    entities: list[Entity], seeds: Iterable[Entity], ledger: Ledger
) -> list[Entity]:
    """Drop aliases this run added that are another entity's name ("Red Oak Company" on the
    inn "Red Oak" when the company is an entity of its own)."""
    before = {e.id: {normalise_name(a) for a in e.aliases} for e in seeds}
    names = {normalise_name(e.name): e.id for e in entities}
    out = []
    for entity in entities:
        old = before.get(entity.id, set())
        wrong = [
            a
            for a in entity.aliases
            if names.get(normalise_name(a), entity.id) != entity.id and normalise_name(a) not in old
        ]
        for alias in wrong:
            ledger.note(f"alias {alias!r} of {entity.id} dropped: it is the name of "
                        f"{names[normalise_name(alias)]}")  # fmt: skip
        if wrong:
            entity = entity.model_copy(
                update={"aliases": tuple(a for a in entity.aliases if a not in wrong)}
            )
        out.append(entity)
    return out


def _with_mentions(
    chunks: Sequence[Chunk], mentions: Mapping[str, set[str]], entities: Sequence[Entity]
) -> tuple[Chunk, ...]:
    """Chunks with the LLM's entities added to their mentions (party chunks: party entities)."""
    public = {e.id for e in entities if e.visibility == "party"}
    present = {e.id for e in entities}
    out = []
    for chunk in chunks:
        extra = mentions.get(chunk.id, set()) & present
        if chunk.visibility == "party":
            extra = extra & public
        out.append(chunk.model_copy(update={"mentions": tuple(sorted({*chunk.mentions, *extra}))}))
    return tuple(out)
