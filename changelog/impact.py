"""How much a change shakes the world, and when that calls for a rebuild.

impact(change) = importance(entity) × multiplier(change type):

==============  ===========================================  ==========
kind            new value                                    multiplier
==============  ===========================================  ==========
status          dead, destroyed                              10
status          missing, captured, damaged                   5
status          any other                                    2
attitude        hostile / allied / neutral                   8 / 4 / 2
property        any                                          1
==============  ===========================================  ==========

Importance defaults to 1.0 for entities it does not know (and for the party). For a
relationship the more important endpoint counts. The cumulative impact since the last rebuild
then decides: above ``force_threshold`` a rebuild is forced; above ``schedule_threshold`` one is
scheduled, if at least ``min_sessions_between`` sessions passed since the last one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graphrag_core.models import Change

__all__ = [
    "ATTITUDE_MULTIPLIERS",
    "PROPERTY_MULTIPLIER",
    "STATUS_MULTIPLIERS",
    "RebuildDecision",
    "RebuildPolicy",
    "change_impact",
    "rebuild_decision",
    "total_impact",
]

RebuildDecision = Literal["none", "scheduled", "forced"]

STATUS_MULTIPLIERS: dict[str, float] = {
    "dead": 10.0,
    "destroyed": 10.0,
    "missing": 5.0,
    "captured": 5.0,
    "damaged": 5.0,
}
OTHER_STATUS_MULTIPLIER = 2.0
ATTITUDE_MULTIPLIERS: dict[str, float] = {"hostile": 8.0, "allied": 4.0, "neutral": 2.0}
PROPERTY_MULTIPLIER = 1.0
DEFAULT_IMPORTANCE = 1.0


class RebuildPolicy(BaseModel):
    """When accumulated change impact calls for re-clustering and re-summarising."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schedule_threshold: float = Field(default=50.0, gt=0, description="Impact that schedules.")
    force_threshold: float = Field(default=100.0, gt=0, description="Impact that forces.")
    min_sessions_between: int = Field(
        default=3, ge=0, description="Sessions between two scheduled rebuilds, at least."
    )

    @model_validator(mode="after")
    def _ordered(self) -> RebuildPolicy:
        if self.force_threshold < self.schedule_threshold:
            raise ValueError("force_threshold must be at least schedule_threshold")
        return self


def change_impact(change: Change, importance: Mapping[str, float]) -> float:
    """The impact of one change: endpoint importance × change-type multiplier."""
    weight = importance.get(change.entity_id, DEFAULT_IMPORTANCE)
    if change.kind == "relationship" and change.target_id is not None:
        weight = max(weight, importance.get(change.target_id, DEFAULT_IMPORTANCE))
    return weight * _multiplier(change)


def total_impact(changes: Iterable[Change], importance: Mapping[str, float]) -> float:
    """The summed impact of ``changes``."""
    return sum(change_impact(change, importance) for change in changes)


def rebuild_decision(
    cumulative_impact: float,
    sessions_since_last_rebuild: int,
    policy: RebuildPolicy | None = None,
) -> RebuildDecision:
    """``forced`` above the force threshold; ``scheduled`` above the schedule threshold once
    enough sessions passed; else ``none``."""
    policy = policy or RebuildPolicy()
    if cumulative_impact > policy.force_threshold:
        return "forced"
    if (
        cumulative_impact > policy.schedule_threshold
        and sessions_since_last_rebuild >= policy.min_sessions_between
    ):
        return "scheduled"
    return "none"


def _multiplier(change: Change) -> float:
    if change.kind == "entity_status":
        return STATUS_MULTIPLIERS.get(change.new_value, OTHER_STATUS_MULTIPLIER)
    if change.kind == "relationship":
        return ATTITUDE_MULTIPLIERS.get(change.new_value, ATTITUDE_MULTIPLIERS["neutral"])
    return PROPERTY_MULTIPLIER
