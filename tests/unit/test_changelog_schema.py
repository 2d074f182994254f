"""Parsing and validating session change sets (changelog.schema)."""

from __future__ import annotations

import json

import pytest

from changelog.normalise import content_hash
from changelog.schema import ChangeSetInput, parse_changeset
from graphrag_core.errors import ChangelogError

ISSUE_EXAMPLE = {
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

YAML_TEXT = """\
session_id: 12
title: The fire at the Red Oak
date: 2026-01-05
visibility: party
entity_updates:
  - entity_id: tavern-redoak
    entity_type: location
    status: Destroyed
    properties: {owner: Baron Aldric, floors: 2}
    destroyed_by: [player_party]
relationship_updates:
  - from: party
    to: merchants-guild
    new_status: hostile
    visibility: gm
    note: they blame the party
"""


def _error(text: str, filename: str = "s12.yaml") -> str:
    with pytest.raises(ChangelogError) as info:
        parse_changeset(text, filename=filename)
    return str(info.value)


def test_issue_example_parses_as_json() -> None:
    cs = parse_changeset(json.dumps(ISSUE_EXAMPLE), filename="s12.json")
    update = cs.entity_updates[0]
    assert cs.session_id == 12
    assert (update.entity_id, update.status) == ("tavern-redoak", "destroyed")
    assert update.details == {"destroyed_by": ["player_party"]}
    rel = cs.relationship_updates[0]
    assert (rel.from_, rel.to, rel.old_status, rel.new_status) == (
        "party",
        "merchants-guild",
        "allied",
        "hostile",
    )


def test_yaml_parses_with_details_dates_and_stringified_properties() -> None:
    cs = parse_changeset(YAML_TEXT, filename="s12.yaml")
    update = cs.entity_updates[0]
    assert cs.date == "2026-01-05"
    assert update.status == "destroyed"
    assert update.properties == {"owner": "Baron Aldric", "floors": "2"}
    assert cs.relationship_updates[0].visibility == "gm"
    assert cs.relationship_updates[0].details == {"note": "they blame the party"}


def test_hash_is_stable_across_json_yaml_and_key_order() -> None:
    from_yaml = parse_changeset(YAML_TEXT, filename="s12.yaml")
    data = json.loads(json.dumps(from_yaml.model_dump(mode="json", by_alias=True)))
    reordered = dict(reversed(list(data.items())))
    from_json = parse_changeset(json.dumps(reordered, indent=4), filename="s12.json")
    assert content_hash(from_json) == content_hash(from_yaml)
    assert content_hash(from_yaml) == content_hash(parse_changeset(YAML_TEXT, filename="x"))


def test_hash_changes_with_content() -> None:
    one = parse_changeset(json.dumps(ISSUE_EXAMPLE), filename="a.json")
    other = dict(ISSUE_EXAMPLE, session_id=13)
    assert content_hash(one) != content_hash(parse_changeset(json.dumps(other), filename="b"))


def test_missing_session_id_names_the_field() -> None:
    message = _error("entity_updates:\n  - {entity_id: x, status: dead}\n")
    assert "s12.yaml" in message
    assert "session_id: is required" in message


def test_no_status_or_properties_names_the_update() -> None:
    message = _error("session_id: 1\nentity_updates:\n  - {entity_id: x}\n  - {entity_id: y}\n")
    assert "entity_updates[0]:" in message
    assert "entity_updates[1]:" in message
    assert "'status' or 'properties'" in message


def test_missing_new_status_and_bad_visibility_are_both_reported() -> None:
    text = "session_id: 1\nrelationship_updates:\n  - {from: party, to: x, visibility: all}\n"
    message = _error(text)
    assert "relationship_updates[0].new_status: is required" in message
    assert "relationship_updates[0].visibility" in message


def test_unknown_top_level_key_lists_the_allowed_ones() -> None:
    message = _error("session_id: 1\ncampaign: x\nentity_updates: [{entity_id: x, status: dead}]")
    assert "campaign: is not a known key" in message
    assert "relationship_updates" in message


@pytest.mark.parametrize("text", ["- a\n- b\n", "just words\n", ""])
def test_non_mapping_top_level(text: str) -> None:
    assert "top level must be a mapping" in _error(text)


def test_invalid_yaml_reports_the_line() -> None:
    message = _error("session_id: 1\nentity_updates:\n  - {entity_id: x, status: dead\n")
    assert "invalid YAML at line" in message


def test_invalid_json_in_json_file_reports_line_and_column() -> None:
    message = _error('{"session_id": 1,\n "entity_updates": [}', filename="s.json")
    assert "invalid JSON at line 2" in message


@pytest.mark.parametrize("value", ["-1", "true", "twelve"])
def test_session_id_must_be_a_whole_number(value: str) -> None:
    message = _error(f"session_id: {value}\nentity_updates: [{{entity_id: x, status: dead}}]")
    assert "session_id:" in message


def test_empty_change_set_is_rejected() -> None:
    assert "no 'entity_updates' or 'relationship_updates'" in _error("session_id: 3\n")


def test_nested_property_value_is_rejected() -> None:
    text = "session_id: 1\nentity_updates:\n  - {entity_id: x, properties: {owner: [a, b]}}\n"
    message = _error(text)
    assert "entity_updates[0].properties" in message
    assert "'owner'" in message


def test_models_accept_python_data() -> None:
    cs = ChangeSetInput.model_validate(ISSUE_EXAMPLE)
    assert cs.relationship_updates[0].type is None
    assert cs.visibility == "party"
