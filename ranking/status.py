"""The status signal: is an item available now, why not, and how much to demote it.

An entity is unavailable when its effective status (after the changelog overlay) is one of
``INACTIVE_STATUSES`` or its attitude toward the party is hostile. Unavailable items are
multiplied by ``RankingSettings.inactive_factor`` (0.3 by default) unless the question is
historical, when the past is exactly what was asked about.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from graphrag_core.config import RankingSettings
from graphrag_core.models import (
    INACTIVE_STATUSES,
    CampaignView,
    Change,
    EffectiveState,
    base_state,
)

_CHANGE_SESSION = re.compile(r"^s(\d+)-")


def _session_of(change_id: str) -> int | None:
    """The session number in a change id ``s<session>-r<revision>-<seq>``."""
    match = _CHANGE_SESSION.match(change_id)
    return int(match.group(1)) if match else None


def _status_note(state: EffectiveState) -> str:
    note = str(state.status)
    session = state.status_session
    if session is None and state.status_change:
        session = _session_of(state.status_change)
    if session is not None:
        note += f" in session {session}"
    if state.status_change:
        note += f" (change {state.status_change})"
    return note


def _attitude_note(state: EffectiveState) -> str:
    note = "hostile to the party"
    session = _session_of(state.attitude_change) if state.attitude_change else None
    if session is not None:
        note += f" since session {session}"
    if state.attitude_change:
        note += f" (change {state.attitude_change})"
    return note


def availability(state: EffectiveState | None, *, attitude_counts: bool = True) -> tuple[bool, str]:
    """(available now?, a human note on why not: "destroyed in session 3 (change s3-r1-1)").
    ``attitude_counts=False``: hostility leaves the item available (it is what was asked)."""
    if state is None:
        return True, ""
    notes: list[str] = []
    if (state.status or "").strip().casefold() in INACTIVE_STATUSES:
        notes.append(_status_note(state))
    if attitude_counts and state.attitude == "hostile":
        notes.append(_attitude_note(state))
    return not notes, "; ".join(notes)


def status_factor(
    state: EffectiveState | None,
    settings: RankingSettings,
    *,
    historical: bool,
    attitude_counts: bool = True,
) -> float:
    """``inactive_factor`` for an unavailable item, unless the question is historical."""
    if historical or is_available(state, attitude_counts=attitude_counts):
        return 1.0
    return settings.inactive_factor


def is_available(state: EffectiveState | None, *, attitude_counts: bool = True) -> bool:
    """What :func:`availability` says first, without writing its note (the ranker asks it of
    every candidate)."""
    if state is None:
        return True
    if (state.status or "").strip().casefold() in INACTIVE_STATUSES:
        return False
    return not (attitude_counts and state.attitude == "hostile")


def effective_state(view: CampaignView, entity_id: str) -> EffectiveState | None:
    """The entity's state in the view, change ids the audience may not see removed.

    Falls back to the base (or assumed) status when the overlay has no entry for the entity."""
    state = view.states.get(entity_id)
    if state is None:
        entity = view.entities.get(entity_id)
        return base_state(entity) if entity else None
    return _hide_changes(state, view.changes)


def _hide_changes(state: EffectiveState, visible: Mapping[str, Change]) -> EffectiveState:
    update: dict[str, str | None] = {}
    if state.status_change and state.status_change not in visible:
        update["status_change"] = None
    if state.attitude_change and state.attitude_change not in visible:
        update["attitude_change"] = None
    return state.model_copy(update=update) if update else state
