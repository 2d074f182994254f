"""A port call as an ordered list of named, batched statements: what ``apply_delta`` runs,
removals first, then upserts, entities before the edges and mentions that need them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from graphrag_core.models import GraphDelta
from graphrag_core.stores import rows as r

__all__ = [
    "BATCH_SIZE",
    "CHANGELOG_STATEMENTS",
    "Statement",
    "batched",
    "delta_statements",
    "revision_bump",
]

BATCH_SIZE = 500
"""Rows per ``UNWIND`` statement."""

Statement = tuple[str, dict[str, Any]]
"""A statement name (a ``cypher/`` file) and its parameters."""

CHANGELOG_STATEMENTS = frozenset({"changes_append", "changeset_append"})
"""The statements that only append to the changelog (post, withdraw): a transaction of only
these moves a campaign's revision but not its world revision."""


def revision_bump(campaign: str, statements: Sequence[Statement]) -> Statement:
    """What ends a transaction that wrote ``statements`` to ``campaign``: the world revision
    moves too unless every one of them only appends to the changelog."""
    names = {name for name, params in statements if params.get("campaign") == campaign}
    name = "changelog_revision_bump" if names <= CHANGELOG_STATEMENTS else "campaign_revision_bump"
    return name, {"campaign": campaign}


def delta_statements(campaign: str, delta: GraphDelta, dimension: int) -> list[Statement]:
    """Removals first, then upserts; entities before the edges and mentions that need them."""
    chunk_ids = [chunk.id for chunk in delta.chunks_upsert]
    entity_ids = [entity.id for entity in delta.entities_upsert]
    removed_relations = [
        {"source": s, "type": t, "target": o} for s, t, o in delta.relations_removed
    ]
    plan: list[tuple[str, str, list[Any]]] = [
        ("relations_delete", "rows", removed_relations),
        ("chunks_delete", "ids", list(delta.chunks_removed)),
        ("entities_delete", "ids", list(delta.entities_removed)),
        ("sources_delete", "paths", list(delta.sources_removed)),
        ("sources_upsert", "rows", [r.source_row(s) for s in delta.sources_upsert]),
        ("entities_upsert", "rows", [r.entity_row(e) for e in delta.entities_upsert]),
        ("entity_embeddings_set", "rows", r.vector_rows(entity_ids, delta.vectors, dimension)),
        ("relations_upsert", "rows", [r.relation_row(x) for x in delta.relations_upsert]),
        ("chunks_upsert", "rows", [r.chunk_row(c) for c in delta.chunks_upsert]),
        ("chunk_mentions_clear", "ids", chunk_ids),
        ("chunk_mentions_link", "rows", [r.mentions_row(c) for c in delta.chunks_upsert]),
        ("chunk_embeddings_set", "rows", r.vector_rows(chunk_ids, delta.vectors, dimension)),
    ]
    return [
        statement for name, key, rows in plan for statement in batched(name, campaign, key, rows)
    ]


def batched(name: str, campaign: str, key: str, rows: Sequence[Any]) -> Iterator[Statement]:
    for start in range(0, len(rows), BATCH_SIZE):
        yield name, {"campaign": campaign, key: list(rows[start : start + BATCH_SIZE])}
