"""Schema pruning of what the LLM returned for one chunk: unknown entity and relation types
map to the nearest allowed type or are dropped, relations whose ends are not entities of the
chunk's extraction (nor known entities) are dropped; each decision is recorded."""

from __future__ import annotations

from collections.abc import Callable

from rapidfuzz import fuzz, process

from extraction.llm_schema import ChunkExtraction, ExtractedEntity, ExtractedRelation
from extraction.slugs import normalise_name
from extraction.taxonomy import entity_type
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy

NEAREST_CUTOFF = 80.0


def nearest(name: str, allowed: tuple[str, ...]) -> str | None:
    """The allowed type ``name`` is (or is closest to), or ``None`` when none is close."""
    key = "_".join(name.strip().casefold().replace("-", " ").split())
    folded = {a.casefold(): a for a in allowed}
    if key in folded:
        return folded[key]
    found = process.extractOne(key, list(folded), scorer=fuzz.WRatio, score_cutoff=NEAREST_CUTOFF)
    return folded[found[0]] if found else None


def _entity_type(name: str, taxonomy: Taxonomy) -> str | None:
    mapped, warning = entity_type(name, taxonomy)
    return mapped if warning is None else nearest(name, taxonomy.entity_types)


def prune(
    found: ChunkExtraction,
    chunk_id: str,
    known: Callable[[str], bool],
    taxonomy: Taxonomy = DEFAULT_TAXONOMY,
) -> tuple[ChunkExtraction, list[str]]:
    """The pruned extraction and one record per mapped or dropped item, against ``taxonomy``."""
    records: list[str] = []
    entities: list[ExtractedEntity] = []
    for entity in found.entities:
        mapped = _entity_type(entity.type, taxonomy)
        if mapped is None:
            records.append(f"chunk {chunk_id}: dropped entity {entity.name!r}: "
                           f"unknown type {entity.type!r}")  # fmt: skip
            continue
        if mapped != entity.type:
            records.append(f"chunk {chunk_id}: type {entity.type!r} of {entity.name!r} → {mapped}")
        entities.append(entity.model_copy(update={"type": mapped}))
    names = {normalise_name(n) for e in entities for n in (e.name, *e.aliases)}
    relations = [r for r in (_relation(r, chunk_id, names, known, records, taxonomy)
                             for r in found.relations) if r is not None]  # fmt: skip
    return ChunkExtraction(entities=entities, relations=relations), records


def _relation(
    relation: ExtractedRelation,
    chunk_id: str,
    names: set[str],
    known: Callable[[str], bool],
    records: list[str],
    taxonomy: Taxonomy,
) -> ExtractedRelation | None:
    what = f"chunk {chunk_id}: relation {relation.source} -{relation.type}-> {relation.target}"
    mapped = nearest(relation.type, taxonomy.relation_types)
    if mapped is None:
        records.append(f"{what}: dropped, unknown type {relation.type!r}")
        return None
    for end in (relation.source, relation.target):
        if normalise_name(end) not in names and not known(end):
            records.append(f"{what}: dropped, {end!r} is not an entity of the chunk")
            return None
    if mapped != relation.type:
        records.append(f"{what}: type → {mapped}")
    return relation.model_copy(update={"type": mapped})
