"""Impact of changes and the rebuild decision (changelog.impact)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from changelog.impact import RebuildPolicy, change_impact, rebuild_decision, total_impact
from graphrag_core.models import PARTY_ID, Change


def change(kind: str, value: str, entity: str = "torven", target: str | None = None) -> Change:
    return Change.model_validate(
        {
            "id": "s1-r1-1",
            "session_id": 1,
            "seq": 1,
            "kind": kind,
            "entity_id": entity,
            "target_id": target,
            "field": "x",
            "new_value": value,
        }
    )


@pytest.mark.parametrize(
    ("kind", "value", "expected"),
    [
        ("entity_status", "dead", 10.0),
        ("entity_status", "destroyed", 10.0),
        ("entity_status", "missing", 5.0),
        ("entity_status", "captured", 5.0),
        ("entity_status", "damaged", 5.0),
        ("entity_status", "alive", 2.0),
        ("relationship", "hostile", 8.0),
        ("relationship", "allied", 4.0),
        ("relationship", "neutral", 2.0),
        ("entity_property", "Baron Aldric", 1.0),
    ],
)
def test_multiplier_with_default_importance(kind: str, value: str, expected: float) -> None:
    target = PARTY_ID if kind == "relationship" else None
    assert change_impact(change(kind, value, target=target), {}) == expected


def test_importance_scales_and_relationships_use_the_bigger_end() -> None:
    importance = {"torven": 3.0, "guild": 5.0}
    assert change_impact(change("entity_status", "dead"), importance) == 30.0
    rel = change("relationship", "hostile", entity=PARTY_ID, target="guild")
    assert change_impact(rel, importance) == 40.0
    assert total_impact([rel, change("entity_property", "x")], importance) == 43.0


@pytest.mark.parametrize(
    ("impact", "sessions", "expected"),
    [
        (50.0, 10, "none"),
        (50.5, 3, "scheduled"),
        (80.0, 2, "none"),
        (100.0, 0, "none"),
        (100.5, 0, "forced"),
    ],
)
def test_rebuild_decision_thresholds(impact: float, sessions: int, expected: str) -> None:
    assert rebuild_decision(impact, sessions, RebuildPolicy()) == expected


def test_policy_is_configurable_and_checked() -> None:
    policy = RebuildPolicy(schedule_threshold=5, force_threshold=10, min_sessions_between=0)
    assert rebuild_decision(6, 0, policy) == "scheduled"
    assert rebuild_decision(6, 0) == "none"
    with pytest.raises(ValidationError):
        RebuildPolicy(schedule_threshold=20, force_threshold=10)
