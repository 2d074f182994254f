"""The value a change replaced, so that a citation reads ``status: alive → dead``.

Computed at read time, per audience: the old value of a change is the effective value just
before it among the changes that audience sees (else the base graph's value). Storing it at
posting time would freeze a value the audience may not see: a party change after a GM-only
one would quote the secret as its old value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from graphrag_core.models import Change, Entity, Relation
from graphrag_core.taxonomy import PROPERTY_RELATIONS, relation_key

__all__ = ["with_old_values"]


def with_old_values(
    changes: Iterable[Change],
    entities: Mapping[str, Entity],
    relations: Sequence[Relation] = (),
) -> list[Change]:
    """``changes`` (effective, oldest first) with ``old_value`` filled in where it is unset:
    the previous status, property value or attitude of the same entity (or pair), from the
    earlier changes or else from ``entities`` and the ``relations`` between the pair."""
    attitudes = _attitudes(relations)
    holders = _holders(relations)
    last: dict[tuple[str, ...], str | None] = {}
    done: list[Change] = []
    for change in changes:
        key = _key(change)
        previous = last[key] if key in last else _base(change, entities, attitudes, holders)
        last[key] = change.new_value
        if change.old_value is None and previous is not None:
            change = change.model_copy(update={"old_value": previous})
        done.append(change)
    return done


def _key(change: Change) -> tuple[str, ...]:
    if change.kind == "relationship" and change.field == "relation":
        return ("relation", change.relation_type or "", change.entity_id, change.target_id or "")
    if change.kind == "relationship":
        ends = sorted((change.entity_id, change.target_id or ""))
        return ("attitude", *ends)
    return (change.field, change.entity_id)


def _attitudes(relations: Sequence[Relation]) -> dict[frozenset[str], str]:
    """The attitude between each pair of ends: that of the first relation between them that
    has one."""
    attitudes: dict[frozenset[str], str] = {}
    for r in relations:
        if r.attitude:
            attitudes.setdefault(frozenset((r.source, r.target)), r.attitude)
    return attitudes


def _holders(relations: Sequence[Relation]) -> dict[tuple[str, str], list[str]]:
    """(entity id, relation type) -> the ids the entity's relations of that type reach, and
    for ``owned_by`` the owners whose ``owns`` relations point at it ("Crane keeps the
    reliquary"), in relation order."""
    found: dict[tuple[str, str], list[str]] = {}
    for r in relations:
        pairs = [((r.source, r.type), r.target)]
        if r.type == "owns":
            pairs.append(((r.target, "owned_by"), r.source))
        for key, value in pairs:
            if value not in found.setdefault(key, []):
                found[key].append(value)
    return found


def _base(
    change: Change,
    entities: Mapping[str, Entity],
    attitudes: Mapping[frozenset[str], str],
    holders: Mapping[tuple[str, str], list[str]],
) -> str | None:
    entity = entities.get(change.entity_id)
    if change.kind == "entity_status":
        return entity.status if entity else None
    if change.kind == "entity_property":
        if entity is not None and change.field in entity.attributes:
            return entity.attributes[change.field]
        key = relation_key(change.field)  # "held_by": who held it in the base graph
        found = holders.get((change.entity_id, PROPERTY_RELATIONS.get(key, key)), [])
        return ", ".join(found) if entity is not None and found else None
    if change.target_id is None or change.field == "relation":
        return None
    return attitudes.get(frozenset((change.entity_id, change.target_id)))
