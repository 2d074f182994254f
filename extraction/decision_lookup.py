"""Finding the entity a stored GM decision is about, in a new extraction.

A decision keeps the id *and* the name and type the entity had when the game master decided.
Ids are derived from names, so they can move when the sources change (a new "village of
Blackthorn" may take the id the smith "Blackthorn" had). In order:

1. the stored id, if it still names an entity of that type with that name (or alias);
2. the one entity of that type whose name, else whose alias, is that name;
3. the stored id, if it names an entity of that type (renamed in the sources);
4. the one entity of that type whose name reads alike (:mod:`extraction.name_match`).

Anything else (none, or several) leaves the decision unapplied, with a note saying why.
Decisions stored without a name (before names were kept) use the id alone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from extraction.name_match import PERSON_TYPES, core_words, similarity
from extraction.slugs import normalise_name
from graphrag_core.models import Entity

FUZZY_FLOOR = 90.0


@dataclass(frozen=True)
class Found:
    """The entity id a decision applies to (``None``: not applied), and how it was found
    when that was not simply the stored id."""

    entity_id: str | None
    note: str = ""


def locate(entities: Mapping[str, Entity], entity_id: str, name: str, kind: str) -> Found:
    if not name:
        found = entity_id if entity_id in entities else None
        return Found(found, "" if found else f"no entity {entity_id!r}")
    key = normalise_name(name)
    typed = [e for e in entities.values() if e.type == kind]
    same = entities.get(entity_id)
    if same is not None and same.type == kind and key in _names(same):
        return Found(entity_id)
    what = f"{kind} {name!r} (stored as {entity_id!r})"
    for matches in ([e for e in typed if normalise_name(e.name) == key],
                    [e for e in typed if key in _names(e)]):  # fmt: skip
        if len(matches) == 1:
            return Found(matches[0].id, f"{what} found by name as {matches[0].id}")
        if matches:
            ids = ", ".join(sorted(e.id for e in matches))
            return Found(None, f"{what} is ambiguous now: {ids}")
    if same is not None and same.type == kind:
        return Found(entity_id, f"{what} is now named {same.name!r}")
    return _alike(typed, name, kind, what)


def _alike(typed: list[Entity], name: str, kind: str, what: str) -> Found:
    words = core_words(name)
    person = kind in PERSON_TYPES
    near = [e for e in typed if similarity(words, core_words(e.name), person) >= FUZZY_FLOOR]
    if len(near) == 1:
        return Found(near[0].id, f"{what} found by a similar name as {near[0].id} "
                                 f"({near[0].name!r})")  # fmt: skip
    if near:
        return Found(None, f"{what} is ambiguous now: {', '.join(sorted(e.id for e in near))}")
    return Found(None, f"no {what} any more")


def _names(entity: Entity) -> set[str]:
    return {normalise_name(n) for n in (entity.name, *entity.aliases, *entity.gm_aliases)}
