"""Resolving and validating change sets into Change records (changelog.normalise)."""

from __future__ import annotations

import pytest

from changelog.normalise import resolve_changes, to_changes
from changelog.schema import ChangeSetInput
from graphrag_core.errors import ChangelogError
from graphrag_core.models import PARTY_ID, Change

TYPES = {"tavern-redoak": "Location", "merchants-guild": "Faction", "torven": "NPC"}
NAMES = {"the red oak": "tavern-redoak", "torven blackwater": "torven", "guild": "merchants-guild"}


def resolve(text: str) -> str | None:
    key = text.strip().lower()
    return key if key in TYPES else NAMES.get(key)


def suggest(text: str) -> list[str]:
    return [eid for eid in TYPES if eid[:3] == text.lower()[:3]]


def changes(data: dict[str, object], revision: int = 1) -> list[Change]:
    return to_changes(
        ChangeSetInput.model_validate(data),
        resolve=resolve,
        suggest=suggest,
        entity_types=TYPES,
        source="s12.yaml",
        revision=revision,
    )


def error(data: dict[str, object]) -> str:
    with pytest.raises(ChangelogError) as info:
        changes(data)
    return str(info.value)


ISSUE = {
    "session_id": 12,
    "entity_updates": [
        {
            "entity_id": "tavern-redoak",
            "entity_type": "location",
            "status": "destroyed",
            "destroyed_by": ["player_party"],
        }
    ],
    "relationship_updates": [
        {"from": "party", "to": "merchants-guild", "old_status": "allied", "new_status": "hostile"}
    ],
}


def test_issue_example_becomes_two_changes() -> None:
    status, rel = changes(ISSUE)
    assert (status.id, status.kind, status.entity_id, status.field, status.new_value) == (
        "s12-r1-1",
        "entity_status",
        "tavern-redoak",
        "status",
        "destroyed",
    )
    assert status.details == {"destroyed_by": ["player_party"]}
    assert status.source == "s12.yaml"
    assert (rel.id, rel.kind, rel.entity_id, rel.target_id, rel.relation_type) == (
        "s12-r1-2",
        "relationship",
        PARTY_ID,
        "merchants-guild",
        "attitude",
    )
    assert (rel.field, rel.old_value, rel.new_value) == ("attitude", "allied", "hostile")


def test_names_aliases_properties_visibility_and_revision() -> None:
    data = {
        "session_id": 4,
        "visibility": "gm",
        "entity_updates": [
            {
                "entity_id": "Torven Blackwater",
                "status": "captured",
                "visibility": "party",
                "properties": {"location": "the keep", "gold": 12},
            }
        ],
        "relationship_updates": [
            {
                "from": "The Red Oak",
                "to": "player_party",
                "type": "owned_by",
                "new_status": "allied",
            }
        ],
    }
    result = changes(data, revision=2)
    assert [c.id for c in result] == ["s4-r2-1", "s4-r2-2", "s4-r2-3", "s4-r2-4"]
    assert [c.field for c in result] == ["status", "location", "gold", "attitude"]
    assert [c.visibility for c in result] == ["party", "party", "party", "gm"]
    assert result[2].new_value == "12"
    assert (result[3].entity_id, result[3].target_id) == ("tavern-redoak", PARTY_ID)
    assert result[3].relation_type == "owned_by"


def test_bad_status_lists_the_allowed_ones() -> None:
    message = error(
        {
            "session_id": 1,
            "entity_updates": [{"entity_id": "torven", "status": "thriving"}],
        }
    )
    assert "entity_updates[0].status" in message
    assert "alive, dead, missing, unknown, captured" in message


def test_wrong_entity_type_is_an_error() -> None:
    message = error(
        {
            "session_id": 1,
            "entity_updates": [
                {"entity_id": "torven", "entity_type": "location", "status": "dead"}
            ],
        }
    )
    assert "entity_updates[0].entity_type" in message
    assert "is a NPC" in message


def test_a_pc_declared_for_an_npc_is_the_same_person() -> None:
    data = {
        "session_id": 1,
        "entity_updates": [{"entity_id": "torven", "entity_type": "pc", "status": "dead"}],
    }
    assert changes(data)[0].new_value == "dead"  # prose never says who is played


def test_entity_type_matches_case_insensitively() -> None:
    data = {
        "session_id": 1,
        "entity_updates": [
            {"entity_id": "torven", "entity_type": "npc", "status": "dead"},
        ],
    }
    assert changes(data)[0].new_value == "dead"


def test_every_unknown_entity_is_named_with_suggestions() -> None:
    message = error(
        {
            "session_id": 1,
            "entity_updates": [
                {"entity_id": "tavern-redoke", "status": "destroyed"},
                {"entity_id": "torven", "status": "dead"},
            ],
            "relationship_updates": [
                {"from": "party", "to": "merchant guild", "new_status": "hostile"}
            ],
        }
    )
    assert "2 problem(s)" in message
    assert "entity_updates[0].entity_id: unknown entity 'tavern-redoke'" in message
    assert "did you mean: tavern-redoak?" in message
    assert "relationship_updates[0].to: unknown entity 'merchant guild'" in message
    assert "did you mean: merchants-guild?" in message


def test_bad_attitude_lists_the_allowed_ones() -> None:
    message = error(
        {
            "session_id": 1,
            "relationship_updates": [{"from": "party", "to": "guild", "new_status": "friendly"}],
        }
    )
    assert "relationship_updates[0].new_status" in message
    assert "allied, neutral, hostile" in message


def test_self_relationship_is_an_error() -> None:
    message = error(
        {
            "session_id": 1,
            "relationship_updates": [
                {"from": "guild", "to": "merchants-guild", "new_status": "allied"}
            ],
        }
    )
    assert "'from' and 'to' are both 'merchants-guild'" in message


def test_a_near_name_is_resolved_and_reported_and_an_unknown_one_still_refused() -> None:
    def near(text: str, entity_type: str | None) -> str | None:
        return "torven" if text == "Torven the Fence" and entity_type == "npc" else None

    cs = ChangeSetInput.model_validate(
        {
            "session_id": 12,
            "entity_updates": [
                {"entity_id": "Torven the Fence", "entity_type": "npc", "status": "dead"}
            ],
        }
    )
    done = resolve_changes(
        cs, resolve=resolve, suggest=suggest, entity_types=TYPES, source="s.yaml", revision=1,
        near=near,
    )  # fmt: skip
    assert [c.entity_id for c in done.changes] == ["torven"]
    assert done.resolved == [
        "entity_updates[0].entity_id: 'Torven the Fence' resolved to 'torven' (near name)"
    ]
    unknown = cs.model_copy(
        update={"entity_updates": (cs.entity_updates[0].model_copy(update={"entity_id": "Zed"}),)}
    )
    with pytest.raises(ChangelogError, match="unknown entity 'Zed'"):
        resolve_changes(
            unknown, resolve=resolve, suggest=suggest, entity_types=TYPES, source="s.yaml",
            revision=1, near=near,
        )  # fmt: skip


def test_an_entity_of_unknown_type_is_checked_against_the_declared_type() -> None:
    types = {**TYPES, "sefa": "Other"}
    cs = ChangeSetInput.model_validate(
        {
            "session_id": 12,
            "entity_updates": [{"entity_id": "sefa", "entity_type": "npc", "status": "dead"}],
        }
    )
    done = resolve_changes(
        cs, resolve=lambda t: t if t in types else None, suggest=suggest, entity_types=types,
        source="s.yaml", revision=1,
    )  # fmt: skip
    assert [c.new_value for c in done.changes] == ["dead"]
    assert "no known type" in done.resolved[0]
    wrong = cs.model_copy(
        update={
            "entity_updates": (cs.entity_updates[0].model_copy(update={"status": "bewildered"}),)
        }
    )
    with pytest.raises(ChangelogError, match="'bewildered' is not a NPC status"):
        resolve_changes(
            wrong, resolve=lambda t: t if t in types else None, suggest=suggest,
            entity_types=types, source="s.yaml", revision=1,
        )  # fmt: skip


def test_a_status_posted_as_an_obvious_synonym_is_read_as_the_types_own_and_said() -> None:
    types = {**TYPES, "mesa-wyrm": "Creature", "ash-king": "Creature"}
    cs = ChangeSetInput.model_validate(
        {
            "session_id": 5,
            "entity_updates": [
                {"entity_id": "mesa-wyrm", "status": "destroyed", "destroyed_by": ["torven"]},
                {"entity_id": "ash-king", "status": "sealed"},
                {"entity_id": "tavern-redoak", "status": "burned down"},
                {"entity_id": "torven", "status": "dead"},
            ],
        }
    )
    done = resolve_changes(
        cs, resolve=lambda t: t if t in types else None, suggest=suggest, entity_types=types,
        source="s.yaml", revision=1,
    )  # fmt: skip
    assert [c.new_value for c in done.changes] == ["dead", "captured", "destroyed", "dead"]
    assert done.changes[0].details == {"destroyed_by": ["torven"]}  # the details are kept
    assert done.resolved == [
        "entity_updates[0].status: 'destroyed' read as 'dead' (a Creature is one of alive, "
        "dead, missing, unknown, captured)",
        "entity_updates[1].status: 'sealed' read as 'captured' (a Creature is one of alive, "
        "dead, missing, unknown, captured)",
        "entity_updates[2].status: 'burned down' read as 'destroyed' (a Location is one of "
        "intact, damaged, destroyed, abandoned, unknown)",
    ]
    nonsense = cs.model_copy(
        update={"entity_updates": (cs.entity_updates[1].model_copy(update={"status": "lit"}),)}
    )
    with pytest.raises(ChangelogError, match="'lit' is not a Creature status"):
        resolve_changes(
            nonsense, resolve=lambda t: t if t in types else None, suggest=suggest,
            entity_types=types, source="s.yaml", revision=1,
        )  # fmt: skip
    burnt = cs.model_copy(  # a place's synonym is not read across types: no guessed death
        update={"entity_updates": (cs.entity_updates[3].model_copy(update={"status": "burnt"}),)}
    )
    with pytest.raises(ChangelogError, match="'burnt' is not a NPC status"):
        resolve_changes(
            burnt, resolve=lambda t: t if t in types else None, suggest=suggest,
            entity_types=types, source="s.yaml", revision=1,
        )  # fmt: skip


def test_a_type_the_prose_only_suggested_gives_way_to_the_declared_one() -> None:
    # the offline extractor read "Inspector Whitlock" as a place; the GM's change set declares
    # him an NPC and names him exactly: posted as an NPC, and said so
    types = {**TYPES, "whitlock": "Location"}
    cs = ChangeSetInput.model_validate(
        {
            "session_id": 3,
            "entity_updates": [{"entity_id": "whitlock", "entity_type": "npc", "status": "dead"}],
        }
    )
    done = resolve_changes(
        cs, resolve=lambda t: t if t in types else None, suggest=suggest, entity_types=types,
        source="s.yaml", revision=1, guessed={"whitlock"},
    )  # fmt: skip
    assert [c.new_value for c in done.changes] == ["dead"]
    assert done.resolved == [
        "entity_updates[0]: 'whitlock' was read from the prose as a Location; posted as the "
        "npc it is declared"
    ]
    # a type a list declared still stands: the update names the wrong entity or the wrong type
    with pytest.raises(ChangelogError, match="'whitlock' is a Location, not 'npc'"):
        resolve_changes(
            cs, resolve=lambda t: t if t in types else None, suggest=suggest,
            entity_types=types, source="s.yaml", revision=1,
        )  # fmt: skip


def test_only_a_type_read_from_prose_alone_is_a_guess() -> None:
    from graphrag_core.models import Entity
    from graphrag_core.services.changelog import _typed_by_guess

    prose = Entity(id="w", name="Whitlock", type="Location", sources=("lore/letter.md",))
    listed = prose.model_copy(update={"status": "alive", "sources": ("names.yaml",)})
    packed = prose.model_copy(update={"sources": ("world/people.yaml", "lore/letter.md")})
    assert _typed_by_guess(prose)
    assert not _typed_by_guess(listed) and not _typed_by_guess(packed)
