"""Extra keys of a change: real ones are details, near misses of declared keys are errors."""

from __future__ import annotations

import json

import pytest

from changelog.schema import parse_changeset
from graphrag_core.errors import ChangelogError


def _entity_update(**extra: object) -> str:
    update = {"entity_id": "Oswin Pell", "status": "dead", **extra}
    return json.dumps({"session_id": 20, "entity_updates": [update]})


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("visiblity", "visibility"),
        ("Visibilty", "visibility"),
        ("stauts", "status"),
        ("entitiy_id", "entity_id"),
        ("propertes", "properties"),
        ("entity_tpye", "entity_type"),
        ("secret", "visibility"),
        ("hidden", "visibility"),
    ],
)
def test_a_near_miss_of_a_declared_key_is_an_error(key: str, meant: str) -> None:
    with pytest.raises(ChangelogError) as info:
        parse_changeset(_entity_update(**{key: "gm"}), filename="typo.json")
    message = str(info.value)
    assert "entity_updates[0]" in message
    assert f"key {key!r} looks like a misspelt {meant!r}" in message


def test_a_misspelt_relationship_key_is_an_error() -> None:
    text = json.dumps(
        {
            "session_id": 3,
            "relationship_updates": [
                {"from": "party", "to": "guild", "new_stauts": "hostile", "new_status": "hostile"}
            ],
        }
    )
    with pytest.raises(ChangelogError, match="'new_stauts' looks like a misspelt 'new_status'"):
        parse_changeset(text, filename="s3.json")


def test_real_extra_keys_stay_details() -> None:
    extra = {
        "destroyed_by": ["player_party"],
        "killed_by": ["ashen-choir"],
        "note": "Poisoned at dinner",
        "notes": "seen by Pip",
        "old_status": "alive",
        "cause": "fire",
    }
    cs = parse_changeset(_entity_update(**extra), filename="s20.json")
    assert cs.entity_updates[0].details == extra
