"""The parts of a campaign, as ``loregraph migrate`` copies them: each loads itself from a
store as canonical JSON-ready items, writes itself to a store through the port's idempotent
upserts, and counts what it holds in the units a user counts (changes, communities, vectors).
:data:`PARTS` lists them in dependency order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphrag_core.analytics_models import AnalyticsSnapshot
from graphrag_core.models import Change, ChangeSetRecord, GmDecision, GraphDelta
from graphrag_core.ports import GraphStore, SearchKind

__all__ = ["PARTS", "VECTOR_DECIMALS", "WRITE_BATCH", "Items", "Part"]

WRITE_BATCH = 1000
VECTOR_DECIMALS = 6

Items = list[dict[str, Any]]
"""A part's content as canonical JSON-ready dicts, sorted."""


@dataclass(frozen=True)
class Part:
    name: str
    load: Callable[[GraphStore, str], Items]
    write: Callable[[GraphStore, str, Items], None]
    units: Callable[[Items], dict[str, int]]
    """What the items hold, in the units a user counts (changes, communities, vectors)."""


def _vectors(store: GraphStore, campaign: str, kind: SearchKind) -> dict[str, list[float]]:
    found = store.load_vectors(campaign, kind)
    return {key: [round(v, VECTOR_DECIMALS) for v in vec] for key, vec in found.items()}


def _with_vectors(items: Items, vectors: dict[str, list[float]]) -> Items:
    return [{"item": item, "vector": vectors.get(item["id"])} for item in items]


def _batches(items: Items) -> list[Items]:
    return [items[i : i + WRITE_BATCH] for i in range(0, len(items), WRITE_BATCH)]


def _load_sources(store: GraphStore, campaign: str) -> Items:
    return [s.model_dump(mode="json") for s in store.load_sources(campaign).values()]


def _write_sources(store: GraphStore, campaign: str, items: Items) -> None:
    for batch in _batches(items):
        store.apply_delta(campaign, GraphDelta.model_validate({"sources_upsert": batch}))


def _load_entities(store: GraphStore, campaign: str) -> Items:
    entities = [e.model_dump(mode="json") for e in store.load_entities(campaign)]
    return _with_vectors(
        sorted(entities, key=lambda e: e["id"]), _vectors(store, campaign, "entity")
    )


def _load_chunks(store: GraphStore, campaign: str) -> Items:
    chunks = [c.model_dump(mode="json") for c in store.load_chunks(campaign)]
    return _with_vectors(sorted(chunks, key=lambda c: c["id"]), _vectors(store, campaign, "chunk"))


def _upsert_with_vectors(field: str) -> Callable[[GraphStore, str, Items], None]:
    def write(store: GraphStore, campaign: str, items: Items) -> None:
        for batch in _batches(items):
            vectors = {i["item"]["id"]: i["vector"] for i in batch if i["vector"] is not None}
            rows = [i["item"] for i in batch]
            delta = GraphDelta.model_validate({field: rows, "vectors": vectors})
            store.apply_delta(campaign, delta)

    return write


def _load_relations(store: GraphStore, campaign: str) -> Items:
    relations = [r.model_dump(mode="json") for r in store.load_relations(campaign)]
    return sorted(relations, key=lambda r: (r["source"], r["type"], r["target"]))


def _write_relations(store: GraphStore, campaign: str, items: Items) -> None:
    for batch in _batches(items):
        store.apply_delta(campaign, GraphDelta.model_validate({"relations_upsert": batch}))


def _load_changelog(store: GraphStore, campaign: str) -> Items:
    changes: dict[tuple[int, int], Items] = {}
    for change in store.load_changes(campaign):
        key = (change.session_id, change.revision)
        changes.setdefault(key, []).append(change.model_dump(mode="json"))
    return [
        {
            "changeset": record.model_dump(mode="json"),
            "changes": changes.get((record.session_id, record.revision), []),
        }
        for record in store.load_changesets(campaign)
    ]


def _write_changelog(store: GraphStore, campaign: str, items: Items) -> None:
    for item in items:
        record = ChangeSetRecord.model_validate(item["changeset"])
        changes = [Change.model_validate(c) for c in item["changes"]]
        store.append_changeset(campaign, record, changes)


def _load_analytics(store: GraphStore, campaign: str) -> Items:
    snapshot = store.load_analytics(campaign)
    if snapshot is None:
        return []
    vectors = store.load_summary_vectors(campaign)
    rounded = {k: [round(v, VECTOR_DECIMALS) for v in vec] for k, vec in sorted(vectors.items())}
    return [{"snapshot": snapshot.model_dump(mode="json"), "vectors": rounded}]


def _write_analytics(store: GraphStore, campaign: str, items: Items) -> None:
    for item in items:
        snapshot = AnalyticsSnapshot.model_validate(item["snapshot"])
        store.save_analytics(campaign, snapshot, item["vectors"])


def _load_gm_decisions(store: GraphStore, campaign: str) -> Items:
    return [d.model_dump(mode="json") for d in store.load_gm_decisions(campaign)]


def _write_gm_decisions(store: GraphStore, campaign: str, items: Items) -> None:
    for item in items:
        store.append_gm_decision(campaign, GmDecision.model_validate(item))


def _load_extraction_cache(store: GraphStore, campaign: str) -> Items:
    keys = store.extraction_cache_keys(campaign)
    entries: dict[str, str] = {}
    for start in range(0, len(keys), WRITE_BATCH):
        entries.update(store.load_extraction_cache(campaign, keys[start : start + WRITE_BATCH]))
    return [{"key": key, "value": entries[key]} for key in sorted(entries)]


def _write_extraction_cache(store: GraphStore, campaign: str, items: Items) -> None:
    for batch in _batches(items):
        store.save_extraction_cache(campaign, {i["key"]: i["value"] for i in batch})


def _counted(unit: str) -> Callable[[Items], dict[str, int]]:
    return lambda items: {unit: len(items)}


def _with_vector_units(
    unit: str, *, list_field: str | None = None
) -> Callable[[Items], dict[str, int]]:
    """Items and vectors, and the entries of each item's ``list_field`` if one is named."""

    def units(items: Items) -> dict[str, int]:
        counts = {unit: len(items), "vectors": sum(i["vector"] is not None for i in items)}
        if list_field is not None:
            counts[list_field] = sum(len(i["item"][list_field]) for i in items)
        return counts

    return units


def _changelog_units(items: Items) -> dict[str, int]:
    return {"change sets": len(items), "changes": sum(len(i["changes"]) for i in items)}


def _analytics_units(items: Items) -> dict[str, int]:
    audiences = [i["snapshot"][who] for i in items for who in ("gm", "party")]
    return {
        "communities": sum(len(a["communities"]) for a in audiences),
        "summaries": sum(len(a["summaries"]) for a in audiences),
        "vectors": sum(len(i["vectors"]) for i in items),
    }


PARTS: list[Part] = [
    Part("sources", _load_sources, _write_sources, _counted("sources")),
    Part(
        "entities",
        _load_entities,
        _upsert_with_vectors("entities_upsert"),
        _with_vector_units("entities"),
    ),
    Part(
        "chunks",
        _load_chunks,
        _upsert_with_vectors("chunks_upsert"),
        _with_vector_units("chunks", list_field="mentions"),
    ),
    Part("relations", _load_relations, _write_relations, _counted("relations")),
    Part("changelog", _load_changelog, _write_changelog, _changelog_units),
    Part("analytics", _load_analytics, _write_analytics, _analytics_units),
    Part("gm_decisions", _load_gm_decisions, _write_gm_decisions, _counted("decisions")),
    Part(
        "extraction_cache",
        _load_extraction_cache,
        _write_extraction_cache,
        _counted("cached extractions"),
    ),
]
"""In dependency order: chunks link to entities, relations join entities; the analytics
snapshot (metrics, communities, summaries and their embeddings), then the game master's
resolution decisions and the LLM extraction cache (so a migrated campaign re-ingests for free)."""
