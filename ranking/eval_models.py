"""Boundary objects of ``loregraph eval``: labelled questions and the figures they yield."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

QuestionType = Literal[
    "current_state", "as_of", "status_trap", "relationship", "lookup", "narrative", "global"
]
CURRENT_TYPES: frozenset[str] = frozenset({"current_state", "status_trap"})
"""Questions about now: a forbidden entity offered as available there is a hallucination."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EvalQuestion(_Model):
    """One labelled question."""

    question: str
    type: QuestionType
    gold: tuple[str, ...] = Field(min_length=1, description="Entity ids a good answer offers.")
    forbidden: tuple[str, ...] = Field(
        default=(), description="Entity ids that must not be offered as available."
    )
    as_of: int | None = Field(default=None, ge=0, description="Ask as of this session.")
    expect_status: dict[str, str] = Field(
        default_factory=dict, description="as_of: the status each entity must be reported with."
    )
    as_player: bool = False


class QuestionSet(_Model):
    campaign: str | None = None
    questions: tuple[EvalQuestion, ...] = Field(min_length=1)


class Offer(_Model):
    """An entity a system put forward, in rank order, and whether it said it is available."""

    entity_id: str
    available: bool = True
    status: str | None = None


class Figures(_Model):
    """The metrics of one system over a set of questions."""

    questions: int
    p_at_5: float
    np_at_5: float = Field(description="Hits in the top 5 / min(5, |gold|).")
    mrr_at_10: float
    hallucination_rate: float | None = Field(
        description="Share of current-state questions with a forbidden entity offered as "
        "available in the top 5 (None: no such question)."
    )
    as_of_accuracy: float | None
    latency_p50_ms: float
    latency_p95_ms: float


class SystemReport(_Model):
    name: str
    overall: Figures
    by_type: dict[str, Figures]


class QuestionOutcome(_Model):
    question: str
    type: QuestionType
    system: str
    offered: tuple[str, ...] = Field(description="The top 10 entity ids offered.")
    reciprocal_rank: float
    hallucinated: tuple[str, ...] = ()


class EvalReport(_Model):
    campaign: str
    systems: tuple[SystemReport, ...]
    ratios: dict[str, dict[str, float | None]] = Field(
        description="ranker / baseline per metric, per baseline."
    )
    outcomes: tuple[QuestionOutcome, ...] = ()
    unresolved: tuple[str, ...] = Field(
        default=(),
        description="Labels (gold, forbidden, expect_status) that name no entity of the "
        "campaign by id, name, alias or a near name: they count as misses.",
    )
