"""Copy campaigns between two graph stores and prove the copy.

A copy is an ordered list of named :class:`Part` s — sources, entities (with embeddings),
chunks (with mentions and embeddings), relations, changelog — each able to load itself from a
store, write itself to a store and be fingerprinted. Another part (communities) is one more
entry in :data:`PARTS`. Writes are the port's idempotent upserts, so a copy that was
interrupted is simply run again. After writing, every part is loaded back from the target
and its count and SHA-256 checksum compared with the source's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from graphrag_core.analytics_models import AnalyticsSnapshot
from graphrag_core.models import Change, ChangeSetRecord, GmDecision, GraphDelta
from graphrag_core.ports import GraphStore, SearchKind

__all__ = [
    "PARTS",
    "Part",
    "PartReport",
    "checksum",
    "copy_campaign",
    "fingerprint",
    "vector_dimension",
]

WRITE_BATCH = 1000
VECTOR_DECIMALS = 6

Items = list[dict[str, Any]]
"""A part's content as canonical JSON-ready dicts, sorted."""


@dataclass(frozen=True)
class Part:
    name: str
    load: Callable[[GraphStore, str], Items]
    write: Callable[[GraphStore, str, Items], None]


class PartReport(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    campaign: str
    part: str
    source_count: int
    target_count: int
    source_checksum: str
    target_checksum: str

    @property
    def ok(self) -> bool:
        return (self.source_count, self.source_checksum) == (
            self.target_count,
            self.target_checksum,
        )


def checksum(items: Items) -> str:
    text = json.dumps(items, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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


PARTS: list[Part] = [
    Part("sources", _load_sources, _write_sources),
    Part("entities", _load_entities, _upsert_with_vectors("entities_upsert")),
    Part("chunks", _load_chunks, _upsert_with_vectors("chunks_upsert")),
    Part("relations", _load_relations, _write_relations),
    Part("changelog", _load_changelog, _write_changelog),
    Part("analytics", _load_analytics, _write_analytics),
    Part("gm_decisions", _load_gm_decisions, _write_gm_decisions),
    Part("extraction_cache", _load_extraction_cache, _write_extraction_cache),
]
"""In dependency order: chunks link to entities, relations join entities; the analytics
snapshot (metrics, communities, summaries and their embeddings), then the game master's
resolution decisions and the LLM extraction cache (so a migrated campaign re-ingests for free)."""


def copy_campaign(
    source: GraphStore, target: GraphStore, campaign: str, parts: Sequence[Part] = PARTS
) -> list[PartReport]:
    """Copy every part of ``campaign``, then verify each on both sides."""
    loaded = [(part, part.load(source, campaign)) for part in parts]
    for part, items in loaded:
        part.write(target, campaign, items)
    return [_verify(part, campaign, items, target) for part, items in loaded]


def _verify(part: Part, campaign: str, items: Items, target: GraphStore) -> PartReport:
    copied = part.load(target, campaign)
    return PartReport(
        campaign=campaign,
        part=part.name,
        source_count=len(items),
        target_count=len(copied),
        source_checksum=checksum(items),
        target_checksum=checksum(copied),
    )


def vector_dimension(store: GraphStore, campaigns: Sequence[str], default: int) -> int:
    """The dimension of the embeddings ``store`` holds for ``campaigns`` (``default`` if none):
    the target's vector indexes are created with it."""
    for campaign in campaigns:
        for kind in ("entity", "chunk"):
            vectors = store.load_vectors(campaign, kind)
            if vectors:
                return len(next(iter(vectors.values())))
    return default


def fingerprint(store: GraphStore, campaign: str, parts: Sequence[Part] = PARTS) -> dict[str, str]:
    """The checksum of every part of ``campaign`` in ``store``."""
    return {part.name: checksum(part.load(store, campaign)) for part in parts}
