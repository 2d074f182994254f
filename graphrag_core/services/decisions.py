"""The game master's entity decisions: resolve the names given, store the decision with the
campaign's data, and apply it to the stored graph at once (one atomic delta). Every later
ingest replays all decisions after extraction (:mod:`graphrag_core.services.extraction`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from extraction.decisions import apply_decisions
from extraction.resolution import EntityResolver
from extraction.slugs import slugify
from graphrag_core.config import IngestSettings
from graphrag_core.errors import ConfigError, UnknownEntityError
from graphrag_core.models import Entity, Extraction, GmDecision, GmDecisionKind, GraphDelta
from graphrag_core.ports import Embedder, GraphStore, NullProgress
from graphrag_core.services.ingest import (
    StoredState,
    embed_texts,
    load_stored,
    profiled,
    texts_to_embed,
)


def make_decision(
    store: GraphStore,
    campaign: str,
    kind: GmDecisionKind,
    subject: str,
    target: str,
    names: Sequence[str],
    reason: str,
    now: datetime,
) -> GmDecision:
    resolver = EntityResolver(store.load_entities(campaign))
    subject_id = _resolve(resolver, subject)
    about = _entity(resolver, subject_id)
    kept = None
    if kind == "merge":
        target = _resolve(resolver, target)
        if target == subject_id:
            raise ConfigError(f"{subject!r} and the target are already one entity ({target})")
        kept = _entity(resolver, target)
    elif not names:
        raise ConfigError(f"{kind} needs at least one name")
    elif kind == "split":
        target = slugify(names[0])
        if target in resolver:
            raise ConfigError(f"an entity {target!r} already exists: merge or alias instead")
    seq = len(store.load_gm_decisions(campaign)) + 1
    return GmDecision(
        seq=seq, kind=kind, subject=subject_id, target=target, names=tuple(names),
        reason=reason, decided_at=now.isoformat(),
        subject_name=about.name, subject_type=about.type,
        target_name=kept.name if kept else "", target_type=kept.type if kept else "",
    )  # fmt: skip


def _entity(resolver: EntityResolver, entity_id: str) -> Entity:
    entity = resolver.get(entity_id)
    if entity is None:  # the party's common names resolve without a stored entity
        raise UnknownEntityError(entity_id, resolver.suggest(entity_id))
    return entity


def _resolve(resolver: EntityResolver, name: str) -> str:
    found = resolver.resolve(name)
    if found is None:
        raise UnknownEntityError(name, resolver.suggest(name))
    return found


def apply_now(
    store: GraphStore,
    embedder: Embedder,
    campaign: str,
    decision: GmDecision,
    settings: IngestSettings,
) -> None:
    """Store the decision and rewrite the stored graph it changes; the entities' derived
    profiles are read again (a merged entity's, or one whose new secret alias a sentence of
    its profile uses, change)."""
    stored = load_stored(store, campaign)
    current = Extraction(
        entities=tuple(stored.entities.values()),
        relations=tuple(stored.relations.values()),
        chunks=tuple(stored.chunks.values()),
    )
    changed, _, _ = apply_decisions(current, [decision])
    kinds = {path: record.kind for path, record in stored.sources.items()}
    changed = profiled(changed, (), changed.chunks, kinds, settings)
    delta = _delta(stored, changed)
    vectors = embed_texts(texts_to_embed(delta, stored), embedder, NullProgress())
    store.append_gm_decision(campaign, decision)
    store.apply_delta(campaign, delta.model_copy(update={"vectors": vectors}))


def _delta(stored: StoredState, new: Extraction) -> GraphDelta:
    entities = {e.id: e for e in new.entities}
    relations = {r.key: r for r in new.relations}
    chunks = {c.id: c for c in new.chunks}
    return GraphDelta(
        entities_upsert=tuple(e for i, e in sorted(entities.items())
                              if stored.entities.get(i) != e),
        entities_removed=tuple(sorted(i for i in stored.entities if i not in entities)),
        relations_upsert=tuple(r for k, r in sorted(relations.items())
                               if stored.relations.get(k) != r),
        relations_removed=tuple(sorted(k for k in stored.relations if k not in relations)),
        chunks_upsert=tuple(c for i, c in sorted(chunks.items()) if stored.chunks.get(i) != c),
    )  # fmt: skip
