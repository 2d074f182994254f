"""Boundary objects of graph analytics (issue 5): metrics, communities, summaries, the snapshot.

A community id (``c-<level>-<n>``) survives rebuilds while its membership stays close
(Jaccard overlap); ``version`` grows when it changed more than the threshold. Every summary
finding names the entity ids and relation keys it rests on, so the changelog overlay can flag
stale sentences. Summaries exist per audience: ``gm`` (everything) and ``party`` (built from
party-visible entities, relations and changes alone).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.models import Visibility


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EntityMetrics(_Model):
    """Centrality of one entity in the whole (GM) graph."""

    entity_id: str
    degree: int = Field(description="Distinct neighbours, both directions.")
    betweenness: float = Field(description="Normalised to 0..1 (sampled on large graphs).")
    pagerank: float
    importance: float = Field(description="Composite, 1 (peripheral) to 10 (central).")


class Community(_Model):
    """One community of one level; level 0 is the coarsest."""

    id: str = Field(description="Stable handle, 'c-<level>-<n>'.")
    version: int = Field(default=1, description="Grows when membership changed a lot.")
    level: int
    parent: str | None = Field(default=None, description="Community id one level up.")
    members: tuple[str, ...] = Field(description="Entity ids, sorted.")
    title: str = Field(default="", description="The GM summary's title.")

    @property
    def size(self) -> int:
        return len(self.members)


class Finding(_Model):
    """One claim of a summary with the ids it rests on."""

    text: str = Field(description="One sentence.")
    entity_ids: tuple[str, ...] = Field(default=(), description="Entity ids the claim uses.")
    relation_ids: tuple[str, ...] = Field(
        default=(), description="Relation keys 'source|type|target' the claim uses."
    )


class CommunitySummary(_Model):
    """What one audience may read about one community."""

    community_id: str
    visibility: Visibility
    title: str
    summary: str
    members: tuple[str, ...] = Field(description="Members this audience may see.")
    findings: tuple[Finding, ...] = ()
    method: str = Field(default="extractive", description="'extractive' or the model id.")
    fingerprint: str = Field(default="", description="Hash of the facts it was built from.")

    @property
    def key(self) -> str:
        return f"{self.community_id}@{self.visibility}"


class AnalyticsSnapshot(_Model):
    """Everything one build produced; replaced atomically by the next build."""

    campaign: str
    built_at: str
    last_rebuild_session: int = Field(default=0, description="Last session the build saw.")
    algorithm: str = Field(default="", description="Who computed it: in-process or gds.")
    metrics: dict[str, EntityMetrics] = Field(default_factory=dict)
    communities: tuple[Community, ...] = ()
    summaries: tuple[CommunitySummary, ...] = ()
    membership: dict[str, int] = Field(
        default_factory=dict, description="Entity id -> level-0 cluster, for warm starts."
    )
    counters: dict[str, int] = Field(
        default_factory=dict, description="Level -> highest n handed out in 'c-<level>-<n>'."
    )

    def community(self, community_id: str) -> Community | None:
        return next((c for c in self.communities if c.id == community_id), None)

    def summary(self, community_id: str, visibility: Visibility) -> CommunitySummary | None:
        key = f"{community_id}@{visibility}"
        return next((s for s in self.summaries if s.key == key), None)

    def importance(self) -> dict[str, float]:
        return {eid: m.importance for eid, m in self.metrics.items()}


class SummaryHit(_Model):
    """One ranked community summary in a global answer."""

    community_id: str
    level: int
    title: str
    summary: str
    score: float
    findings: tuple[Finding, ...] = ()


class Claim(_Model):
    """One claim of a global answer, with its citations."""

    text: str
    community_ids: tuple[str, ...] = ()
    entity_ids: tuple[str, ...] = ()


class GlobalAnswer(_Model):
    """The answer to a broad question from community summaries."""

    question: str
    campaign: str
    as_player: bool
    answer: str = Field(default="", description="Empty when no model is configured.")
    claims: tuple[Claim, ...] = ()
    summaries: tuple[SummaryHit, ...] = Field(description="The ranked summaries used, best first.")
    method: str = Field(description="'summaries' (no model) or 'map-reduce:<model>'.")


class BuildReport(_Model):
    """What one ``loregraph build`` did."""

    campaign: str
    entities: int
    relations: int
    communities: int
    levels: int
    summaries: int
    resummarised: int = Field(description="Summaries written anew (the rest were kept).")
    embedded: int = Field(
        default=0, description="Summaries embedded anew (the rest reused their stored vector)."
    )
    reused_ids: int = Field(description="Communities that kept an id from the last build.")
    algorithm: str
    seconds: float


class CommunityView(_Model):
    """One community as one audience sees it (``loregraph communities`` / ``community``)."""

    id: str
    version: int
    level: int
    parent: str | None
    size: int = Field(description="Members this audience may see.")
    title: str
    members: tuple[str, ...]
    summary: str
    findings: tuple[Finding, ...] = ()
    children: tuple[str, ...] = Field(default=(), description="Sub-community ids.")
