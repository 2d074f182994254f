"""Availability, notes and the demotion factor of the status signal."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import EffectiveState
from ranking.status import availability, effective_state, status_factor
from tests.unit.ranking_fakes import gm_view, party_view

SETTINGS = RankingSettings()


def test_no_state_and_active_states_are_available() -> None:
    assert availability(None) == (True, "")
    assert availability(EffectiveState(entity_id="inn", status="intact")) == (True, "")
    assert availability(EffectiveState(entity_id="x", status=None, attitude="allied"))[0]


def test_destroyed_note_names_session_and_change() -> None:
    state = EffectiveState(
        entity_id="tavern", status="destroyed", status_change="s3-r1-1", status_session=3
    )
    assert availability(state) == (False, "destroyed in session 3 (change s3-r1-1)")


def test_session_is_read_from_the_change_id_when_missing() -> None:
    state = EffectiveState(entity_id="npc", status="dead", status_change="s7-r2-4")
    assert availability(state) == (False, "dead in session 7 (change s7-r2-4)")


def test_base_status_without_change_has_a_plain_note() -> None:
    assert availability(EffectiveState(entity_id="guild", status="disbanded")) == (
        False,
        "disbanded",
    )


def test_hostile_note_and_combined_notes() -> None:
    hostile = EffectiveState(
        entity_id="f", status="active", attitude="hostile", attitude_change="s4-r1-1"
    )
    assert availability(hostile) == (False, "hostile to the party since session 4 (change s4-r1-1)")
    both = EffectiveState(entity_id="f", status="captured", attitude="hostile")
    assert availability(both) == (False, "captured; hostile to the party")


def test_factor_demotes_inactive_unless_historical() -> None:
    dead = EffectiveState(entity_id="npc", status="dead")
    alive = EffectiveState(entity_id="npc", status="alive")
    assert status_factor(dead, SETTINGS, historical=False) == SETTINGS.inactive_factor
    assert status_factor(dead, SETTINGS, historical=True) == 1.0
    assert status_factor(alive, SETTINGS, historical=False) == 1.0
    assert status_factor(None, SETTINGS, historical=False) == 1.0
    custom = RankingSettings(inactive_factor=0.1)
    assert status_factor(dead, custom, historical=False) == 0.1


def test_effective_state_falls_back_to_base_status() -> None:
    view = gm_view().model_copy(update={"states": {}})
    state = effective_state(view, "red-oak-tavern")
    assert state is not None
    assert state.status == "intact"
    assert effective_state(view, "no-such-entity") is None


def test_effective_state_hides_change_ids_the_view_does_not_hold() -> None:
    view = party_view().model_copy(update={"changes": {}})
    state = effective_state(view, "red-oak-tavern")
    assert state is not None
    assert (state.status, state.status_change, state.status_session) == ("destroyed", None, 3)
    assert availability(state) == (False, "destroyed in session 3")
