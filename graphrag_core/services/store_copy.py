"""Copy campaigns between two graph stores and prove the copy.

A copy is an ordered list of named :class:`Part` s — sources, entities (with embeddings),
chunks (with mentions and embeddings), relations, changelog, analytics snapshot, GM decisions,
extraction cache — each able to load itself from a store, write itself to a store, count what
it holds in its own units and be fingerprinted. Writes are the port's idempotent upserts, so a
copy that was interrupted is simply run again. Upserts never remove what the target holds
beyond the source, so a target whose copy diverged (moved there, played, moved back) is
replaced: its campaign is deleted first. After writing, every part is loaded back from the
target and its count and SHA-256 checksum compared with the source's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.config import StoreSettings
from graphrag_core.errors import ConfigError, StoreError
from graphrag_core.ports import GraphStore
from graphrag_core.services.store_parts import PARTS, Items, Part
from graphrag_core.uris import redact

__all__ = [
    "PARTS",
    "Part",
    "PartReport",
    "campaigns_to_copy",
    "checksum",
    "copy_campaign",
    "copy_campaigns",
    "fingerprint",
    "store_identity",
    "vector_dimension",
]


class PartReport(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    campaign: str
    part: str
    source_count: int
    target_count: int
    source_checksum: str
    target_checksum: str
    source_units: dict[str, int] = Field(default_factory=dict, description="What moved.")
    target_units: dict[str, int] = Field(default_factory=dict, description="What arrived.")

    @property
    def ok(self) -> bool:
        return (self.source_count, self.source_checksum) == (
            self.target_count,
            self.target_checksum,
        )


def checksum(items: Items) -> str:
    text = json.dumps(items, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def copy_campaign(
    source: GraphStore,
    target: GraphStore,
    campaign: str,
    parts: Sequence[Part] = PARTS,
    *,
    replace: bool = False,
) -> list[PartReport]:
    """Copy every part of ``campaign``, then verify each on both sides. ``replace`` deletes
    the campaign on the target first (everything it held, not only the parts copied)."""
    loaded = [(part, part.load(source, campaign)) for part in parts]
    if replace:
        target.delete_campaign(campaign)
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
        source_units=part.units(items),
        target_units=part.units(copied),
    )


def vector_dimension(store: GraphStore, campaigns: Sequence[str], default: int) -> int:
    """The dimension of the embeddings ``store`` holds for ``campaigns`` (``default`` if none):
    the target's vector indexes are created with it."""
    for campaign in campaigns:
        for kind in ("entity", "chunk"):
            vectors = store.load_vectors(campaign, kind)
            if vectors:
                return len(next(iter(vectors.values())))
        summaries = store.load_summary_vectors(campaign)
        if summaries:
            return len(next(iter(summaries.values())))
    return default


def fingerprint(store: GraphStore, campaign: str, parts: Sequence[Part] = PARTS) -> dict[str, str]:
    """The checksum of every part of ``campaign`` in ``store``."""
    return {part.name: checksum(part.load(store, campaign)) for part in parts}


def copy_campaigns(
    source: GraphStore,
    open_target: Callable[[int], GraphStore],
    campaign: str,
    *,
    every: bool = False,
    replace: bool = False,
    any_dimension: int = 384,
) -> list[PartReport]:
    """Copy ``campaign`` (or ``every`` campaign) from ``source`` to the store
    ``open_target(dimension)`` opens, migrating it first; the target is closed afterwards.
    ``any_dimension``: the dimension assumed when no campaign holds a vector."""
    names = campaigns_to_copy(source.list_campaigns(), campaign, every)
    target = open_target(vector_dimension(source, names, any_dimension))
    try:
        target.migrate()
        return [
            report
            for name in names
            for report in copy_campaign(source, target, name, replace=replace)
        ]
    finally:
        target.close()


def campaigns_to_copy(present: Sequence[str], campaign: str, every: bool) -> list[str]:
    """The campaigns to copy: all, or the one named, which must exist."""
    if not present:
        raise StoreError("the configured store holds no campaign: nothing to copy")
    if every:
        return list(present)
    if campaign not in present:
        raise ConfigError(
            f"the configured store holds no campaign {campaign!r}; it holds "
            f"{', '.join(present)}. Name one with --campaign, or copy them all with --all."
        )
    return [campaign]


def store_identity(section: StoreSettings) -> tuple[str, ...]:
    """What tells one store from another: not a timeout, a user or a password."""
    if section.kind == "falkordb-embedded":
        return (section.kind, str(section.data_dir.resolve()), section.graph_name)
    if section.kind == "falkordb":
        return (section.kind, redact(section.falkordb_url or ""), section.graph_name)
    return (section.kind, section.neo4j_uri or "", section.neo4j_database)
