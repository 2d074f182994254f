"""The offline extractor: deterministic, no model needed.

Stages, each a pure function:

1. ``structured``: entities and relations that world packs and vault notes state outright,
   merged across sources (``extraction.resolution.merge_entities``);
2. ``chunk_document`` on every document;
3. ``annotate``: each chunk's ``mentions`` (gazetteer of every name and alias) and ``subject``
   (the note's or world-pack item's entity, else the entity its nearest heading names);
4. ``stated_relations`` over the prose of every chunk, and ``listed_relations`` over its list
   lines (``**Allies** A, B`` and the like: :mod:`extraction.labelled_lists`);
5. ``finish_relations``: resolve both ends, drop what does not resolve (with a warning),
   deduplicate by (source, type, target).

Secrets never leak into party-visible data: a GM alias or a GM-only entity is not recorded as a
mention of a party chunk nor used as its subject; a relation touching a GM-only entity, stated
in a GM chunk or GM section, is GM-only.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from extraction.alias_relations import alias_relations
from extraction.chunking import chunk_document
from extraction.gazetteer import Gazetteer, Mention
from extraction.known import reconcile
from extraction.labelled_lists import listed_relations
from extraction.patterns import stated_relations
from extraction.prose_entities import prose_entities
from extraction.prose_kin import Antecedents
from extraction.prose_relations import sentence_relations, without_weaker
from extraction.resolution import EntityResolver, canonical_ids, merge_entities
from extraction.slugs import normalise_name
from extraction.taxonomy import ATTITUDE_OF_TYPE
from extraction.vault import note_entity_id, parse_note
from extraction.worldpack import parse_worldpack
from graphrag_core.config import IngestSettings
from graphrag_core.models import (
    PARTY_ID,
    Chunk,
    Entity,
    Extraction,
    Relation,
    SourceDocument,
    Visibility,
)
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy

logger = logging.getLogger(__name__)

PARTY_ENTITY = Entity(
    id=PARTY_ID,
    name="The Party",
    type="Other",
    aliases=("party", "the players", "player party"),
    description="The player characters' group.",
)
"""Added when a relation names the party and no source defines it."""


@dataclass
class _Structured:
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    subjects: dict[tuple[str, str], str] = field(default_factory=dict)  # (path, heading) -> id
    warnings: list[str] = field(default_factory=list)


class OfflineExtractor:
    """``extract`` with the chunking settings bound."""

    def __init__(self, settings: IngestSettings) -> None:
        self._settings = settings

    def extract(self, documents: Sequence[SourceDocument]) -> tuple[Extraction, list[str]]:
        """The extraction and its warnings."""
        s = self._settings
        return extract_with_warnings(
            documents, chunk_size=s.chunk_size, overlap=s.chunk_overlap, taxonomy=s.taxonomy()
        )


def extract(
    documents: Sequence[SourceDocument],
    *,
    chunk_size: int,
    overlap: int = 0,
    taxonomy: Taxonomy = DEFAULT_TAXONOMY,
    prose: bool = True,
) -> Extraction:
    """Extract entities, relations and chunks; warnings go to the log at INFO (callers that
    report them use ``extract_with_warnings``)."""
    extraction, warnings = extract_with_warnings(
        documents, chunk_size=chunk_size, overlap=overlap, taxonomy=taxonomy, prose=prose
    )
    for warning in warnings:
        logger.info("%s", warning)
    return extraction


def extract_with_warnings(
    documents: Sequence[SourceDocument],
    *,
    chunk_size: int,
    overlap: int = 0,
    taxonomy: Taxonomy = DEFAULT_TAXONOMY,
    known: Sequence[Entity] = (),
    defined_elsewhere: Collection[str] = (),
    prose: bool = True,
) -> tuple[Extraction, list[str]]:
    """Extract entities, relations and chunks, in a deterministic order; also return the
    warnings (dropped relations, unknown types). Types are mapped onto ``taxonomy``.

    ``known``: stored entities of sources outside ``documents`` (a single-file ingest, a
    broken file): relations and mentions resolve against them too, and an entity defined by a
    source in ``defined_elsewhere`` is merged with its stored definition, never replaced by
    this partial view (see ``extraction.known``). ``prose``: also find the entities and
    relations plain Markdown and text state (``extraction.prose_entities``,
    ``extraction.prose_relations``); the LLM extractor, which reads prose itself, turns it off."""
    docs = sorted(documents, key=lambda doc: doc.path)
    found = structured(docs, taxonomy)
    ids = canonical_ids(found.entities)
    reconciled = reconcile(merge_entities(found.entities), known, defined_elsewhere)
    ids = {old: reconciled.renamed.get(new, new) for old, new in ids.items()}
    entities = _with_party(reconciled.entities, found.relations, reconciled.context)
    chunked = {d.path: chunk_document(d, chunk_size=chunk_size, overlap=overlap) for d in docs}
    prose_docs = {d.path for d in docs if prose and d.kind in ("markdown", "text")}
    if prose_docs:
        context = EntityResolver([*entities, *reconciled.context])
        in_prose = [c for path in sorted(prose_docs) for c in chunked[path]]
        finds = prose_entities(in_prose, context)
        entities = [_with_aliases(e, finds.aliases.get(e.id, {})) for e in entities]
        entities += finds.entities
    resolver = EntityResolver([*entities, *reconciled.context])
    gazetteer = Gazetteer([*entities, *reconciled.context])
    chunks: list[Chunk] = []
    relations = [
        r.model_copy(update={"source": ids.get(r.source, r.source)}) for r in found.relations
    ]
    kinds = {e.id: e.type for e in [*entities, *reconciled.context]}
    for doc in docs:
        people = Antecedents(kinds)  # whom "her" and "his" stand for, in this document
        for chunk in chunked[doc.path]:
            annotated, mentions = annotate(chunk, doc, found.subjects, resolver, gazetteer)
            chunks.append(annotated)
            relations += prose_relations(annotated, mentions) + listed_relations(
                annotated, resolver
            )
            if doc.path in prose_docs:
                relations += sentence_relations(annotated, mentions, people)
    entities = _with_described_sources(entities, chunks)
    relations += alias_relations(entities, resolver)  # "Jin's blade": owned_by Jin
    final, warnings = finish_relations(relations, resolver)
    extraction = Extraction(
        entities=tuple(sorted(entities, key=lambda e: e.id)),
        relations=tuple(without_weaker(final)),
        chunks=tuple(sorted(chunks, key=lambda c: (c.source_path, c.start))),
    )
    return extraction, found.warnings + warnings


def structured(
    documents: Iterable[SourceDocument], taxonomy: Taxonomy = DEFAULT_TAXONOMY
) -> _Structured:
    """What world packs and vault notes state outright, in document order."""
    found = _Structured()
    for doc in documents:
        if doc.kind == "worldpack":
            pack = parse_worldpack(doc, taxonomy)
            found.entities += pack.entities
            found.relations += pack.relations
            found.warnings += pack.warnings
            found.subjects.update({(doc.path, e.name): e.id for e in pack.entities})
        elif doc.kind == "vault":
            note = parse_note(doc, taxonomy)
            found.entities.append(note.entity)
            found.relations += note.relations
            found.warnings += note.warnings
    return found


def _with_party(
    entities: list[Entity], relations: list[Relation], known: Sequence[Entity] = ()
) -> list[Entity]:
    if any(e.id == PARTY_ID for e in [*entities, *known]):
        return entities
    resolver = EntityResolver(entities)
    named = any(
        resolver.resolve(end) == PARTY_ID for r in relations for end in (r.source, r.target)
    )
    return [*entities, PARTY_ENTITY] if named else entities


def annotate(
    chunk: Chunk,
    doc: SourceDocument,
    subjects: dict[tuple[str, str], str],
    resolver: EntityResolver,
    gazetteer: Gazetteer,
) -> tuple[Chunk, list[Mention]]:
    """The chunk with its ``mentions`` and ``subject`` set, and the mentions it may record."""
    secret = chunk.visibility == "gm"
    mentions = [m for m in gazetteer.find_mentions(chunk.text) if secret or _public(m, resolver)]
    subject = _subject(chunk, doc, subjects, resolver)
    if subject is not None and not secret and not _public_entity(subject, resolver):
        subject = None
    ids = {m.entity_id for m in mentions} | ({subject} if subject else set())
    return chunk.model_copy(update={"mentions": tuple(sorted(ids)), "subject": subject}), mentions


def _public(mention: Mention, resolver: EntityResolver) -> bool:
    return not mention.gm_alias and _public_entity(mention.entity_id, resolver)


def _public_entity(entity_id: str, resolver: EntityResolver) -> bool:
    entity = resolver.get(entity_id)
    return entity is None or entity.visibility == "party"


def _subject(
    chunk: Chunk,
    doc: SourceDocument,
    subjects: dict[tuple[str, str], str],
    resolver: EntityResolver,
) -> str | None:
    if doc.kind == "vault":
        return resolver.resolve(note_entity_id(doc))
    if doc.kind == "worldpack":
        found = subjects.get((doc.path, chunk.heading))
        return resolver.resolve(found) if found else None
    for title in reversed(chunk.heading.split(" > ") if chunk.heading else []):
        entity_id = resolver.resolve(title, include_gm=chunk.visibility == "gm")
        if entity_id is not None:
            return entity_id
    return None


def prose_relations(chunk: Chunk, mentions: Sequence[Mention]) -> list[Relation]:
    """Relations the chunk's sentences state between the entities they mention."""
    return [
        Relation(
            source=stated.source,
            target=stated.target,
            type=stated.relation,
            attitude=stated.attitude,
            visibility=chunk.visibility,
            source_path=chunk.source_path,
            chunk_id=chunk.id,
        )
        for stated in stated_relations(chunk.text, mentions)
    ]


def _with_aliases(entity: Entity, found: dict[str, bool]) -> Entity:
    """``entity`` with the prose's names for it (alias → stated in a party chunk): public
    aliases when a party chunk states them or the entity is GM-only, GM aliases otherwise."""
    have = {normalise_name(n) for n in (entity.name, *entity.aliases, *entity.gm_aliases)}
    new = {a: party for a, party in found.items() if normalise_name(a) not in have}
    if not new:
        return entity
    public = [a for a, party in new.items() if party or entity.visibility == "gm"]
    secret = [a for a in new if a not in public]
    return entity.model_copy(
        update={"aliases": (*entity.aliases, *public), "gm_aliases": (*entity.gm_aliases, *secret)}
    )


def _with_described_sources(entities: list[Entity], chunks: list[Chunk]) -> list[Entity]:
    described: dict[str, list[str]] = {}
    for chunk in chunks:
        if chunk.subject is not None:
            described.setdefault(chunk.subject, []).append(chunk.source_path)
    return [
        e.model_copy(update={"sources": tuple(dict.fromkeys([*e.sources, *described[e.id]]))})
        if e.id in described
        else e
        for e in entities
    ]


def finish_relations(
    relations: Iterable[Relation], resolver: EntityResolver
) -> tuple[list[Relation], list[str]]:
    """Resolve both ends, drop self-loops and unresolvable ends (one warning each), merge
    duplicates (party visibility wins), sorted by (source, type, target)."""
    kept: dict[tuple[str, str, str], Relation] = {}
    warnings: list[str] = []
    for relation in relations:
        resolved = _resolve_ends(relation, resolver, warnings)
        if resolved is None or resolved.source == resolved.target:
            continue
        previous = kept.get(resolved.key)
        if previous is None:
            kept[resolved.key] = resolved
        elif previous.visibility == "gm" and resolved.visibility == "party":
            kept[resolved.key] = resolved.model_copy(
                update={"description": resolved.description or previous.description}
            )
    return [kept[key] for key in sorted(kept)], warnings


def _resolve_ends(
    relation: Relation, resolver: EntityResolver, warnings: list[str]
) -> Relation | None:
    ends: list[str] = []
    for end in (relation.source, relation.target):
        entity_id = resolver.resolve(end)
        if entity_id is None:
            hint = ", ".join(resolver.suggest(end))
            warnings.append(
                f"{relation.source_path}: dropped {relation.source} -{relation.type}-> "
                f"{relation.target}: unknown entity {end!r}"
                + (f" (did you mean: {hint}?)" if hint else "")
            )
            return None
        ends.append(entity_id)
    secret = relation.visibility == "gm" or not all(_public_entity(e, resolver) for e in ends)
    visibility: Visibility = "gm" if secret else "party"
    return relation.model_copy(
        update={
            "source": ends[0],
            "target": ends[1],
            "visibility": visibility,
            "attitude": relation.attitude or ATTITUDE_OF_TYPE.get(relation.type),
        }
    )
