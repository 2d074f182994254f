"""The effective relations: the base graph's relations ⊕ what the changelog says happened to
them, computed at query time like the effective statuses (nothing is written back).

Three kinds of change start or end a relation, applied oldest first:

- a relation change (``{from: harrowgate, to: queen-maris, type: ruled_by, change: start}``)
  starts the relation ``source -type-> target``, or (``change: end``) ends it;
- a detail of any change whose key is a relation type and whose values name entities
  (``killed_by: [cinder-knives]``, ``destroyed_by``) starts that relation from the changed
  entity: "Who killed Torven?" then finds the killer along ``killed_by``;
- a property whose key is a relation type (``owned_by: Aldo``), or means one
  (``PROPERTY_RELATIONS``: ``held_by``/``holder``/``owner`` → ``owned_by``, ``ruler`` →
  ``ruled_by``), replaces the entity's relations of that type with one to the entity the value
  names (none when it names none), and ends the ``owns`` relations pointing at the entity (a
  holder's is the other end of the same fact: "Crane keeps the reliquary");
  ``in_party: true|false`` starts or ends ``member_of party``.

An as-of view also holds the relations a *later* change ends that nothing started
(:func:`held_until_ended`): "the party left the Widow's house" in session 4 says it lived there
until then, though only the prose said so (or nothing did), so the view as of session 3 has
the party there.

Every relation a change starts carries the change's id (``change_id``) so it is cited like a
status. Values are resolved by id, name or alias among ``entities`` only (the audience's
visible entities), so a player view never gains a relation to a GM-only entity.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from graphrag_core.models import PARTY_ID, RELATION_TYPES, Change, Entity, Relation
from graphrag_core.taxonomy import PROPERTY_RELATIONS, relation_key

__all__ = ["effective_relations", "held_until_ended"]

_Key = tuple[str, str, str]  # (source, type, target)


def _names(entities: Mapping[str, Entity]) -> dict[str, str]:
    """Lookup of every id, name and alias (casefolded, '-'/'_' as spaces) to the entity id."""
    found: dict[str, str] = {}
    for entity in entities.values():
        for name in (entity.id, entity.name, *entity.aliases):
            found.setdefault(_fold(name), entity.id)
    found.setdefault(PARTY_ID, PARTY_ID)
    return found


def _fold(text: str) -> str:
    return " ".join(str(text).casefold().replace("-", " ").replace("_", " ").split())


def _values(value: object) -> list[str]:
    items = value if isinstance(value, list | tuple) else [value]
    return [str(v) for v in items if isinstance(v, str | int | float) and str(v).strip()]


class _Relations:
    def __init__(self, base: Iterable[Relation]) -> None:
        self.kept: dict[_Key, Relation] = {(r.source, r.type, r.target): r for r in base}

    def start(self, change: Change, source: str, kind: str, target: str) -> None:
        if source == target:
            return
        self.kept[(source, kind, target)] = Relation(
            source=source,
            target=target,
            type=kind,
            visibility=change.visibility,
            source_path=change.source,
            change_id=change.id,
        )

    def end(self, source: str, kind: str, target: str | None = None) -> None:
        for key in [k for k in self.kept if k[:2] == (source, kind)]:
            if target is None or key[2] == target:
                del self.kept[key]

    def end_towards(self, kind: str, target: str) -> None:
        """End every ``kind`` relation that points at ``target`` ("Crane owns the
        reliquary", when a change says who holds it now)."""
        for key in [k for k in self.kept if k[1:] == (kind, target)]:
            del self.kept[key]


def effective_relations(
    relations: Sequence[Relation],
    changes: Iterable[Change],
    entities: Mapping[str, Entity],
    *,
    relation_types: Collection[str] = RELATION_TYPES,
) -> tuple[Relation, ...]:
    """``relations`` after ``changes`` (effective, visible, oldest first)."""
    types = frozenset(relation_types)
    relevant = [c for c in changes if _moves_relations(c, types)]
    if not relevant:
        return tuple(relations)
    names, state = _names(entities), _Relations(relations)
    for change in relevant:
        if change.kind == "relationship" and change.field == "relation" and change.target_id:
            _relation_change(state, change, change.target_id)
        elif change.kind == "entity_property" and relation_key(change.field) == IN_PARTY:
            _in_party(state, change)
        elif change.kind == "entity_property" and _property_type(change.field, types):
            kind = _property_type(change.field, types)
            state.end(change.entity_id, kind)
            if (held := _HELD_BACK.get(kind)) is not None:  # "Crane owns it": not now
                state.end_towards(held, change.entity_id)
            for value in _values(change.new_value):
                if (target := names.get(_fold(value))) is not None:
                    state.start(change, change.entity_id, kind, target)
        for key, value in change.details.items():
            if relation_key(key) in types:
                for target in filter(None, (names.get(_fold(v)) for v in _values(value))):
                    state.start(change, change.entity_id, relation_key(key), target)
    return tuple(state.kept.values())


_HELD_BACK = {"owned_by": "owns"}
"""A property that says who holds a thing now (``held_by``, ``owner``: ``owned_by``) ends the
relations saying from the other end who held it (the prose's "Crane keeps the reliquary")."""

IN_PARTY = "in_party"
"""``in_party: true|false``: the entity joins or leaves the party (``member_of party``)."""
_YES = frozenset({"true", "yes", "1"})


def _property_type(name: str, types: frozenset[str]) -> str:
    key = relation_key(name)
    if key in types:
        return key
    mapped = PROPERTY_RELATIONS.get(key, "")
    return mapped if mapped in types else ""


def _in_party(state: _Relations, change: Change) -> None:
    if change.new_value.strip().casefold() in _YES:
        state.start(change, change.entity_id, "member_of", PARTY_ID)
    else:
        state.end(change.entity_id, "member_of", PARTY_ID)


def _moves_relations(change: Change, types: frozenset[str]) -> bool:
    return (
        change.field == "relation"
        or (
            change.kind == "entity_property"
            and (
                relation_key(change.field) == IN_PARTY or bool(_property_type(change.field, types))
            )
        )
        or any(relation_key(key) in types for key in change.details)
    )


def _relation_change(state: _Relations, change: Change, target: str) -> None:
    kind = change.relation_type or "related_to"
    if change.new_value == "end":
        state.end(change.entity_id, kind, target)
    else:
        state.start(change, change.entity_id, kind, target)


def held_until_ended(
    relations: Sequence[Relation],
    earlier: Iterable[Change],
    later: Iterable[Change],
    entities: Mapping[str, Entity],
) -> tuple[Relation, ...]:
    """The relations a change of ``later`` (effective, visible, after the view's session,
    oldest first) ends, where neither ``relations`` hold them nor a change of ``earlier`` (the
    view's own) started or ended them, and nothing in ``later`` started them first: they held
    until that change, so they hold in the view ("Where were we sleeping as of session 3?"
    when session 4 ended ``party located_in quiahuitl-house``). ``in_party: false`` ends
    ``member_of party``. Each carries the ending change's source, no change id (that change
    is not in the view); ends that are no visible entity are left out."""
    held = {r.key for r in relations}
    touched = {key for change in earlier if (key := _relation_touched(change)) is not None}
    found: dict[_Key, Relation] = {}
    for change in later:
        key = _relation_touched(change)
        if key is None or key in touched or key in held:
            continue
        touched.add(key)
        source, kind, target = key
        ended = change.new_value == "end" or (
            relation_key(change.field) == IN_PARTY
            and change.new_value.strip().casefold() not in _YES
        )
        if ended and source in entities and (target in entities or target == PARTY_ID):
            found[key] = Relation(
                source=source,
                target=target,
                type=kind,
                visibility=change.visibility,
                source_path=change.source,
            )
    return tuple(found.values())


def _relation_touched(change: Change) -> _Key | None:
    """The relation a change starts or ends as a whole (a relation change, ``in_party``)."""
    if change.kind == "relationship" and change.field == "relation" and change.target_id:
        return (change.entity_id, change.relation_type or "related_to", change.target_id)
    if change.kind == "entity_property" and relation_key(change.field) == IN_PARTY:
        return (change.entity_id, "member_of", PARTY_ID)
    return None
