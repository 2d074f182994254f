"""The difference between a session's stored revision and a conflicting change set.

An update is keyed by what it changes: (kind, entity, target, field). Two revisions differ in
an update when one has it and the other lacks it, or both have it with other values or
visibilities. Notes, titles and details are not compared: the conflict itself (another
content hash) already says they differ."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from graphrag_core.models import Change, ChangeSetDifference, ChangeSetRecord, UpdateDifference

__all__ = ["changeset_difference"]

_Key = tuple[str, str, str, str]


def changeset_difference(
    stored: ChangeSetRecord,
    stored_changes: Iterable[Change],
    posted: Iterable[Change],
    names: Mapping[str, str],
) -> ChangeSetDifference:
    """How ``posted`` differs from ``stored`` (its changes: ``stored_changes``); ``names``
    maps entity ids to the names the lines use."""
    mine = (
        c
        for c in stored_changes
        if (c.session_id, c.revision) == (stored.session_id, stored.revision)
    )
    old = _by_key(mine)
    new = _by_key(posted)
    updates = []
    for key in sorted(old.keys() | new.keys()):
        before, after = old.get(key), new.get(key)
        if before is not None and after is not None and _same(before, after):
            continue
        updates.append(_update(before, after, names))
    return ChangeSetDifference(
        session_id=stored.session_id,
        stored_revision=stored.revision,
        stored_source=stored.source,
        updates=tuple(updates),
    )


def _by_key(changes: Iterable[Change]) -> dict[_Key, Change]:
    found: dict[_Key, Change] = {}
    for change in changes:  # a later update of the same thing wins, as in the overlay
        found[(change.kind, change.entity_id, change.target_id or "", change.field)] = change
    return found


def _same(a: Change, b: Change) -> bool:
    return (a.new_value, a.visibility, a.relation_type) == (
        b.new_value,
        b.visibility,
        b.relation_type,
    )


def _update(
    before: Change | None, after: Change | None, names: Mapping[str, str]
) -> UpdateDifference:
    some = before or after
    assert some is not None
    target = some.target_id
    return UpdateDifference(
        kind=some.kind,
        entity_id=some.entity_id,
        entity=names.get(some.entity_id, some.entity_id),
        target_id=target,
        target=names.get(target, target) if target is not None else None,
        field=some.field,
        stored=_value(before),
        posted=_value(after),
        visibility=some.visibility,
    )


def _value(change: Change | None) -> str | None:
    if change is None:
        return None
    value = change.new_value
    if change.relation_type and change.kind == "relationship":
        value = f"{value} ({change.relation_type})"
    return f"{value} (GM-only)" if change.visibility == "gm" else value
