"""The typed setting sections the stages and services read. Pure data: reading the
environment and the config file is :mod:`graphrag_core.settings`' job, at the edges."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from graphrag_core.taxonomy import Taxonomy

__all__ = [
    "DEFAULT_DATA_DIR",
    "WEIGHT_NAMES",
    "AnalyticsSettings",
    "EmbeddingSettings",
    "IngestSettings",
    "LlmSettings",
    "PresetName",
    "RankingSettings",
    "StoreKind",
    "StoreSettings",
    "StructuredOutput",
    "WeightOverrides",
]

DEFAULT_DATA_DIR = Path(".loregraph")
StoreKind = Literal["falkordb-embedded", "falkordb", "neo4j"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StoreSettings(_Section):
    kind: StoreKind = "falkordb-embedded"
    data_dir: Path = DEFAULT_DATA_DIR
    graph_name: str = "loregraph"
    falkordb_url: str | None = None
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = None
    neo4j_database: str = "neo4j"
    startup_timeout_s: float = 20.0


class EmbeddingSettings(_Section):
    batch_size: int = 64
    device: str = "cpu"
    query_threads: int = Field(
        default=1,
        ge=1,
        description="Threads for query-time embedding (a few short texts; BLAS threads for the "
        "numpy encoder, PyTorch intra-op threads otherwise): one thread is faster than two "
        "competing with another process.",
    )
    query_encoder: Literal["numpy", "sentence-transformers"] = Field(
        default="numpy",
        description="What embeds a query (at most 4 texts): `numpy` runs the same "
        "all-MiniLM-L6-v2 weights in numpy without importing PyTorch (a cold first query "
        "saves seconds); `sentence-transformers` uses the bulk model. Ingest and summaries "
        "always use sentence-transformers; both give the same vectors.",
    )


WEIGHT_NAMES: tuple[str, ...] = (
    "semantic",
    "lexical",
    "support",
    "mention",
    "named",
    "relation",
    "attitude",
    "status_asked",
    "took_part",
    "proximity",
    "type",
    "type_list",
    "centrality",
    "recency",
    "community",
)
"""The blend's weights, one per signal or cue (see ``ranking.presets.RankingWeights``)."""

PresetName = Literal["current_state", "historical", "lore"]


class WeightOverrides(_Section):
    """Weights that replace a preset's constants; unset ones keep the preset's value."""

    semantic: float | None = Field(default=None, ge=0.0, description="Vector similarity.")
    lexical: float | None = Field(default=None, ge=0.0, description="BM25, normalised.")
    support: float | None = Field(
        default=None, ge=0.0, le=1.0, description="A matching passage about the entity."
    )
    mention: float | None = Field(
        default=None, ge=0.0, le=1.0, description="A matching passage that names the entity."
    )
    named: float | None = Field(default=None, ge=0.0, description="Named in the question.")
    anchor: float | None = Field(
        default=None,
        ge=0.0,
        description="Named as the question's setting, not its answer ('an inn in Millbrook').",
    )
    anchor_list: float | None = Field(
        default=None,
        ge=0.0,
        description="The setting of a question that asks for a list ('the powers of Duneveil').",
    )
    relation: float | None = Field(
        default=None, ge=0.0, description="One asked-about relation away from a named entity."
    )
    attitude: float | None = Field(
        default=None, ge=0.0, description="Has the attitude toward the party asked about."
    )
    status_asked: float | None = Field(
        default=None,
        ge=0.0,
        description="Holds or held the status an unnamed question asks about ('locked up').",
    )
    took_part: float | None = Field(
        default=None,
        ge=0.0,
        description="Took part with a named entity in what a narrative question asks about.",
    )
    proximity: float | None = Field(
        default=None, ge=0.0, description="Graded graph closeness to the named entities."
    )
    type: float | None = Field(default=None, ge=0.0, description="Of the type asked for.")
    type_list: float | None = Field(
        default=None,
        ge=0.0,
        description="Of the type a plural noun asks for ('the powers', 'which gods'): a list.",
    )
    centrality: float | None = Field(
        default=None, ge=0.0, description="The build's importance, normalised per campaign."
    )
    recency: float | None = Field(
        default=None, ge=0.0, description="How recently (in sessions) it changed or was met."
    )
    community: float | None = Field(
        default=None,
        ge=0.0,
        description="A community summary's similarity (it has no BM25 score to add).",
    )

    def changed(self) -> dict[str, float]:
        return {name: value for name, value in self.model_dump().items() if value is not None}


class RankingSettings(_Section):
    """The ranker: weight presets (constants in ``ranking.presets``, overridden here per
    preset), the status demotion, recency's half-life, proximity's decay, the relevance floor."""

    preset: PresetName | None = Field(
        default=None, description="Always this preset; unset: chosen from the question."
    )
    current_state: WeightOverrides = WeightOverrides()
    historical: WeightOverrides = WeightOverrides()
    lore: WeightOverrides = WeightOverrides()
    inactive_factor: float = Field(default=0.3, ge=0.0, le=1.0)
    recency_half_life: float = Field(
        default=3.0, gt=0.0, description="Sessions after which the recency signal halves."
    )
    proximity_decay: float = Field(
        default=0.5, gt=0.0, le=1.0, description="Proximity kept per extra relation hop."
    )
    proximity_hops: int = Field(default=2, ge=1, le=4, description="Farthest hop counted.")
    relevance_floor: float = Field(
        default=0.1,
        ge=0.0,
        le=1.0,
        description="Results whose best match (before bonuses) is below this are not offered.",
    )
    candidates: int = Field(default=40, ge=1)
    passages: int = Field(default=5, ge=0)
    communities: int = Field(default=2, ge=0, description="Community summaries offered at most.")

    def overrides(self, preset: PresetName) -> WeightOverrides:
        sections: dict[str, WeightOverrides] = {
            "current_state": self.current_state,
            "historical": self.historical,
            "lore": self.lore,
        }
        return sections[preset]


class IngestSettings(_Section):
    chunk_size: int = Field(default=1200, ge=200, description="Target characters per chunk.")
    chunk_overlap: int = Field(default=0, ge=0)
    extra_entity_types: tuple[str, ...] = Field(
        default=(), description="Entity types added to the taxonomy, e.g. Spell, Class."
    )
    extra_relation_types: tuple[str, ...] = Field(
        default=(), description="Relation types added to the taxonomy (snake_case)."
    )
    profile_sentences: int = Field(
        default=3,
        ge=0,
        description="Sentences of party-visible prose in an entity's derived profile (0: none).",
    )
    profile_chars: int = Field(
        default=400, ge=0, description="Characters of an entity's derived profile, at most."
    )
    profile_below_description_chars: int = Field(
        default=80,
        ge=0,
        description="An entity whose own description is shorter gets a derived profile.",
    )

    def taxonomy(self) -> Taxonomy:
        """The built-in taxonomy plus the extra types."""
        return Taxonomy.extended(self.extra_entity_types, self.extra_relation_types)


class AnalyticsSettings(_Section):
    """Graph analytics (issue 5): centrality weights, Leiden, stable ids, summaries."""

    degree_weight: float = Field(default=0.3, ge=0.0)
    betweenness_weight: float = Field(default=0.3, ge=0.0)
    pagerank_weight: float = Field(default=0.4, ge=0.0)
    betweenness_exact_max_nodes: int = Field(
        default=5000, ge=1, description="Above this many nodes betweenness is sampled."
    )
    betweenness_samples: int = Field(default=256, ge=1, description="Sampled source nodes.")
    seed: int = Field(default=42, description="Seed of Leiden and of betweenness sampling.")
    resolution: float = Field(default=1.0, gt=0.0)
    max_cluster_size: int = Field(
        default=8, ge=2, description="Communities larger than this split one level down."
    )
    max_levels: int = Field(default=4, ge=1)
    leiden_polish_rounds: int = Field(
        default=8,
        ge=0,
        description="Warm re-runs of level-0 Leiden from its own result until it stops moving.",
    )
    match_min_jaccard: float = Field(
        default=0.5, ge=0.0, le=1.0, description="Overlap that keeps an old community id."
    )
    version_change_threshold: float = Field(
        default=0.2, ge=0.0, le=1.0, description="Changed share (1 - Jaccard) that bumps version."
    )
    summary_max_findings: int = Field(default=8, ge=1)
    summary_max_chars: int = Field(default=1600, ge=200, description="~400 tokens.")
    global_top_k: int = Field(default=5, ge=1, description="Summaries a global answer uses.")
    summary_max_tokens: int = Field(
        default=700, ge=16, description="Completion tokens of a model-written summary."
    )
    map_max_tokens: int = Field(default=500, ge=16, description="Completion tokens per map call.")
    reduce_max_tokens: int = Field(
        default=900, ge=16, description="Completion tokens of the reduce call."
    )
    model_failures_before_giving_up: int = Field(
        default=3,
        ge=1,
        description="Model errors in a row after which a build writes the rest extractively.",
    )


StructuredOutput = Literal["json_schema", "json_object_schema", "json_object"]


class LlmSettings(_Section):
    """The LLM extractor's model and how to call it. ``model`` unset: the offline extractor.

    ``structured_output``: ``json_schema`` (OpenAI, vLLM), ``json_object_schema`` (llama.cpp's
    ``{"type": "json_object", "schema": ...}``) or ``json_object`` (any JSON, validated here).
    A server that rejects the chosen mode makes the adapter fall back down that list."""

    model: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = None
    structured_output: StructuredOutput = "json_schema"
    timeout_s: float = Field(default=120.0, gt=0)
    max_retries: int = Field(default=4, ge=0, description="Retries on 429, 5xx, connection.")
    concurrency: int = Field(default=4, ge=1, description="Requests in flight at most.")
    gleaning: int = Field(default=0, ge=0, description="Extra 'anything missed?' passes.")
    max_tokens: int = Field(default=1024, ge=16, description="Completion tokens per call.")
    completion_ratio: float = Field(
        default=0.6, gt=0, description="Expected completion tokens per chunk token (dry run)."
    )
    price_table: Path | None = Field(
        default=None, description="TOML price table; default: the one shipped with loregraph."
    )
    prompt_version: int | None = Field(
        default=None,
        ge=1,
        description="Version N of extraction/prompts/extract.vN.md; default: the newest.",
    )
    stop_after_failures: int = Field(
        default=3,
        ge=1,
        description="Model failures in a row (after retries) that stop starting new chunks; "
        "any model failure fails the run, after caching what was paid for.",
    )
    recap_chunk_chars: int = Field(
        default=6000, ge=500, description="recap draft: characters of transcript per call."
    )
