"""Boundary objects of graph analytics (issue 5): metrics, communities, summaries, the snapshot.

Each audience has its own analytics (:class:`AudienceAnalytics`): the GM's are computed from the
whole graph, the party's from the party view's graph alone (party-visible entities and
relations), with their own clustering, ids (``c-…`` for the GM, ``p-…`` for the party), member
ranking and summaries. So nothing a player sees — which entities sit together, in what order,
under which id and version — depends on a GM-only entity or relation.

A community id (``<prefix>-<level>-<n>``) survives rebuilds while its membership stays close
(Jaccard overlap); ``version`` grows when the membership moved more than the threshold away from
the membership it had when that version began (``base_members``). Every summary finding names
the entity ids, relation keys and changelog change ids it rests on, so the changelog overlay can
flag stale sentences.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.models import Visibility


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EntityMetrics(_Model):
    """Centrality of one entity in one audience's graph."""

    entity_id: str
    degree: int = Field(description="Distinct neighbours, both directions.")
    betweenness: float = Field(description="Normalised to 0..1 (sampled on large graphs).")
    pagerank: float = Field(description="Sums to 1 over the graph.")
    importance: float = Field(description="Composite, 1 (peripheral) to 10 (central).")


class Community(_Model):
    """One community of one level; level 0 is the coarsest."""

    id: str = Field(description="Stable handle, 'c-<level>-<n>' (GM) or 'p-<level>-<n>' (party).")
    version: int = Field(default=1, description="Grows when membership changed a lot.")
    level: int
    parent: str | None = Field(default=None, description="Community id one level up.")
    members: tuple[str, ...] = Field(description="Entity ids, sorted.")
    base_members: tuple[str, ...] = Field(
        default=(),
        description="Members when this version began, when they differ from ``members``.",
    )
    title: str = Field(default="", description="Its summary's title.")

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def version_members(self) -> tuple[str, ...]:
        """The membership this version started with (what a version bump is measured against)."""
        return self.base_members or self.members


class Finding(_Model):
    """One claim of a summary with the ids it rests on."""

    text: str = Field(description="One sentence.")
    entity_ids: tuple[str, ...] = Field(default=(), description="Entity ids the claim uses.")
    relation_ids: tuple[str, ...] = Field(
        default=(), description="Relation keys 'source|type|target' the claim uses."
    )
    change_ids: tuple[str, ...] = Field(
        default=(), description="Changelog change ids ('s3-r1-2') the claim uses."
    )


class CommunitySummary(_Model):
    """What one audience may read about one of its communities."""

    community_id: str
    visibility: Visibility
    title: str
    summary: str = Field(description="The findings' sentences joined: every sentence is cited.")
    members: tuple[str, ...] = Field(description="Members this audience may see.")
    findings: tuple[Finding, ...] = ()
    method: str = Field(default="extractive", description="'extractive' or the model id.")
    recipe: str = Field(
        default="", description="What wrote it: method, prompt version and summary settings."
    )
    fingerprint: str = Field(default="", description="Hash of the facts it was built from.")
    note: str = Field(
        default="",
        description="Why a model's summary fell back to extractive (retried next build).",
    )

    @property
    def key(self) -> str:
        return f"{self.community_id}@{self.visibility}"


class AudienceAnalytics(_Model):
    """Metrics, communities and summaries of one audience's graph."""

    fingerprint: str = Field(
        default="", description="Hash of the graph and settings the metrics and communities used."
    )
    metrics: dict[str, EntityMetrics] = Field(default_factory=dict)
    communities: tuple[Community, ...] = ()
    summaries: tuple[CommunitySummary, ...] = ()
    counters: dict[str, int] = Field(
        default_factory=dict, description="Level -> highest n handed out in '<prefix>-<level>-<n>'."
    )

    def summaries_by_id(self) -> dict[str, CommunitySummary]:
        return {s.community_id: s for s in self.summaries}


class AnalyticsSnapshot(_Model):
    """Everything one build produced; replaced atomically by the next build."""

    campaign: str
    built_at: str
    last_rebuild_session: int = Field(default=0, description="Last session the build saw.")
    algorithm: str = Field(default="", description="Who computed it: in-process or gds.")
    gm: AudienceAnalytics = AudienceAnalytics()
    party: AudienceAnalytics = AudienceAnalytics()

    def audience(self, visibility: Visibility) -> AudienceAnalytics:
        return self.party if visibility == "party" else self.gm

    @property
    def summaries(self) -> tuple[CommunitySummary, ...]:
        """Every summary of both audiences (what the store indexes)."""
        return self.gm.summaries + self.party.summaries

    def importance(self) -> dict[str, float]:
        """The GM graph's importance per entity (what changelog impact scoring uses)."""
        return {eid: m.importance for eid, m in self.gm.metrics.items()}


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
    relation_ids: tuple[str, ...] = ()
    change_ids: tuple[str, ...] = ()


class GlobalAnswer(_Model):
    """The answer to a broad question from community summaries."""

    question: str
    campaign: str
    as_player: bool
    answer: str = Field(
        default="", description="The cited claims' sentences joined; empty without a model."
    )
    claims: tuple[Claim, ...] = ()
    summaries: tuple[SummaryHit, ...] = Field(description="The ranked summaries used, best first.")
    method: str = Field(description="'summaries' (no model) or 'map-reduce:<model>'.")
    note: str = Field(default="", description="What went wrong with the model, if anything.")


class BuildReport(_Model):
    """What one ``loregraph build`` did."""

    campaign: str
    entities: int
    relations: int
    communities: int = Field(description="GM communities.")
    party_communities: int = 0
    levels: int
    summaries: int
    resummarised: int = Field(description="Summaries written anew (the rest were kept).")
    fallbacks: int = Field(
        default=0, description="Summaries a model failed to write (extractive, retried next build)."
    )
    embedded: int = Field(
        default=0, description="Summaries embedded anew (the rest reused their stored vector)."
    )
    reused_ids: int = Field(description="Communities that kept an id from the last build.")
    reclustered: bool = Field(
        default=True, description="False when the graph was unchanged and clustering was skipped."
    )
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
