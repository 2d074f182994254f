"""Reading a status written in a source (world pack, vault front matter) or posted in a change
set (``changelog.normalise``: there a value that maps to nothing is an error, not a warning).

A status is compared in lower case with surrounding space removed, then checked against the
entity type's vocabulary (``Taxonomy.statuses_of``). Obvious synonyms are mapped rather than
dropped ("burned down" and "ruined" → ``destroyed``, "slain" and "deceased" → ``dead``), also
across types (a faction that is "destroyed" is ``disbanded``, an item that is "missing" is
``lost``). A value that means nothing in the vocabulary is dropped, with a warning naming the
value and the allowed ones: an unknown status must never count as available by accident.
"""

from __future__ import annotations

from typing import Any

from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy

_SYNONYMS = {
    # gone for good
    "deceased": "dead", "slain": "dead", "killed": "dead", "murdered": "dead", "died": "dead",
    "executed": "dead", "fallen": "dead", "late": "dead", "perished": "dead",
    "burned down": "destroyed", "burnt down": "destroyed", "burned": "destroyed",
    "burnt": "destroyed", "ruined": "destroyed", "ruins": "destroyed", "in ruins": "destroyed",
    "razed": "destroyed", "demolished": "destroyed", "collapsed": "destroyed",
    "wrecked": "destroyed", "sunk": "destroyed", "broken": "destroyed", "shattered": "destroyed",
    "dissolved": "disbanded", "defunct": "disbanded", "broken up": "disbanded",
    "disbanded": "disbanded", "wiped out": "disbanded",
    # away
    "vanished": "missing", "disappeared": "missing", "gone": "missing", "mia": "missing",
    "stolen": "lost", "misplaced": "lost",
    "imprisoned": "captured", "prisoner": "captured", "jailed": "captured",
    "kidnapped": "captured", "held captive": "captured", "captive": "captured",
    "sealed": "captured", "sealed away": "captured", "entombed": "captured", "bound": "captured",
    "banished": "missing",
    "deserted": "abandoned", "forsaken": "abandoned",
    # still there
    "living": "alive", "live": "alive", "healthy": "alive", "standing": "intact",
    "whole": "intact", "undamaged": "intact", "ok": "intact", "damaged": "damaged",
    "partly destroyed": "damaged", "half burned": "damaged", "active": "active",
    "sleeping": "dormant", "slumbering": "dormant", "in hand": "present",
    # quests and events
    "done": "completed", "complete": "completed", "finished": "completed",
    "in progress": "open", "ongoing": "ongoing", "over": "past", "planned": "upcoming",
    "unknown": "unknown", "?": "unknown",
}  # fmt: skip

_GROUPS: tuple[tuple[str, ...], ...] = (
    ("dead", "destroyed", "disbanded"),
    ("missing", "lost"),
    ("alive", "intact", "active", "present"),
)
"""Words that mean the same across types: the first one the type allows is used."""


def read_status(
    value: Any, entity_type: str, taxonomy: Taxonomy = DEFAULT_TAXONOMY
) -> tuple[str | None, str | None]:
    """The status ``value`` means for an ``entity_type`` and a warning when it was not written
    as an allowed status: a synonym is mapped, anything else is dropped (``None``)."""
    if value is None or not str(value).strip():
        return None, None
    key = " ".join(str(value).strip().casefold().replace("_", " ").split())
    allowed = taxonomy.statuses_of(entity_type)
    if key in allowed:
        return key, None
    found = _in_vocabulary(_SYNONYMS.get(key, key), allowed)
    listed = ", ".join(allowed) or "(none)"
    if found is not None:
        return found, f"status {value!r} read as {found!r} (a {entity_type} is one of {listed})"
    return None, (
        f"status {value!r} is not a {entity_type} status, so it was ignored; use one of {listed}"
    )


def _in_vocabulary(word: str, allowed: tuple[str, ...]) -> str | None:
    if word in allowed:
        return word
    for group in _GROUPS:
        if word in group:
            return next((other for other in group if other in allowed), None)
    return None


def posted_status(
    value: str, entity_type: str, taxonomy: Taxonomy = DEFAULT_TAXONOMY
) -> str | None:
    """The status a change set's ``value`` means for an ``entity_type``, or ``None`` (the
    change set is then refused): a status of the type as it is; an obvious synonym of one
    ("sealed" → ``captured``, "burned down" → ``destroyed`` for a place); or another type's
    status read across the types (a Creature ``destroyed`` is ``dead``). A synonym is not
    read across types as well: an NPC "burnt" is no status of his, and is refused rather than
    guessed ``dead``."""
    key = " ".join(str(value).strip().casefold().replace("_", " ").split())
    allowed = taxonomy.statuses_of(entity_type)
    if key in allowed:
        return key
    direct = _SYNONYMS.get(key)
    if direct is not None:
        return direct if direct in allowed else None
    if any(key in statuses for statuses in taxonomy.statuses.values()):
        return _in_vocabulary(key, allowed)
    return None
