"""Base statuses written in sources: normalised, checked, synonyms mapped; and availability
does not depend on how a stored status is capitalised."""

from __future__ import annotations

import pytest

from graphrag_core.models import EffectiveState
from graphrag_core.statuses import read_status
from graphrag_core.taxonomy import Taxonomy
from ranking.status import availability


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [
        ("alive", "NPC", "alive"),
        (" Dead ", "NPC", "dead"),
        ("deceased", "NPC", "dead"),
        ("slain", "Creature", "dead"),
        ("burned down", "Location", "destroyed"),
        ("Ruined", "Location", "destroyed"),
        ("destroyed", "Faction", "disbanded"),
        ("missing", "Item", "lost"),
        ("stolen", "Item", "lost"),
        ("imprisoned", "NPC", "captured"),
        ("done", "Quest", "completed"),
    ],
)
def test_statuses_and_synonyms(value: str, kind: str, expected: str) -> None:
    assert read_status(value, kind)[0] == expected


def test_exact_and_case_only_differences_give_no_warning() -> None:
    assert read_status("Destroyed", "Location") == ("destroyed", None)
    assert read_status(None, "NPC") == (None, None)


def test_a_synonym_is_reported_and_an_unknown_value_dropped() -> None:
    status, warning = read_status("razed", "Location")
    assert status == "destroyed" and warning and "'razed' read as 'destroyed'" in warning
    status, warning = read_status("destroyed", "NPC")
    assert status == "dead"
    status, warning = read_status("damaged", "NPC")
    assert status is None
    assert warning == (
        "status 'damaged' is not a NPC status, so it was ignored; "
        "use one of alive, dead, missing, unknown, captured"
    )


def test_an_extra_type_has_only_unknown() -> None:
    taxonomy = Taxonomy.extended(["Spell"])
    assert read_status("Unknown", "Spell", taxonomy) == ("unknown", None)
    status, warning = read_status("active", "Spell", taxonomy)
    assert status is None and warning and "use one of unknown" in warning


@pytest.mark.parametrize("status", ["Dead", "DESTROYED", " destroyed "])
def test_availability_ignores_case(status: str) -> None:
    available, note = availability(EffectiveState(entity_id="x", status=status))
    assert available is False and note
