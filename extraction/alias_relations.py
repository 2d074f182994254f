"""Relations a name list's aliases state: "Jin's blade", "Otto's wife", "the Wisp's boys".

A name list rarely says who owns what, but its aliases often do: the table calls a sword
*Jin's blade*, a bar *Boone's bar*, a gang *the Wisp's boys*, a woman *Otto's wife*. An alias
``[the] <Owner>'s <noun>`` whose owner resolves to another entity states:

- a kin or service noun (:data:`extraction.prose_relations.KIN_RELATIONS`: wife, son,
  nephew, steward, …) — that relation, as "Otto's wife Greta" states it in prose;
- on a faction, a noun of its people (:data:`FOLLOWERS`: boys, men, crew, gang, …) — the
  owner leads it;
- on a thing, a place or a creature (:data:`OWNED_TYPES`) — it is ``owned_by`` the owner,
  when the owner is a person or a faction (:data:`OWNER_TYPES`).

A GM-only alias states a GM-only relation; an owner that resolves only through a GM alias is
not resolved (it would name the secret identity).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from extraction.prose_relations import KIN_RELATIONS
from extraction.resolution import EntityResolver
from graphrag_core.models import PARTY_ID, Entity, Relation, Visibility

OWNED_TYPES = frozenset({"Item", "Location", "Creature"})
OWNER_TYPES = frozenset({"PC", "NPC", "Faction", "Deity"})
FOLLOWERS = frozenset(
    ("boys", "men", "lads", "crew", "gang", "mob", "lot", "people", "bunch", "outfit", "band")
)
"""Nouns by which a faction's alias names it after its leader ("the Wisp's boys")."""

_POSSESSIVE = re.compile(r"^(?:the\s+)?(.+?)['’]s\s+(.+)$", re.IGNORECASE)


def alias_relations(entities: Iterable[Entity], resolver: EntityResolver) -> list[Relation]:
    """The relations the aliases of ``entities`` state (see the module docstring)."""
    found: list[Relation] = []
    for entity in entities:
        source = entity.sources[0] if entity.sources else ""
        aliases = [(a, "party") for a in entity.aliases] + [(a, "gm") for a in entity.gm_aliases]
        for alias, visibility in aliases:
            relation = _stated(entity, alias, resolver)
            if relation is not None:
                hidden: Visibility = "gm" if visibility == "gm" else "party"
                found.append(
                    relation.model_copy(
                        update={
                            "visibility": hidden,
                            "description": f'also called "{alias}"',
                            "source_path": source,
                        }
                    )
                )
    return found


def _stated(entity: Entity, alias: str, resolver: EntityResolver) -> Relation | None:
    match = _POSSESSIVE.match(alias.strip())
    if match is None:
        return None
    owner_name, noun = match.group(1).strip(), match.group(2).strip().casefold()
    owner_id = resolver.resolve(owner_name, include_gm=False)
    owner = resolver.get(owner_id) if owner_id else None
    if owner is None or owner.id in (entity.id, PARTY_ID):
        return None
    last = noun.split()[-1]
    if last in KIN_RELATIONS:  # "Otto's wife": Greta married_to Otto
        kind, alias_first = KIN_RELATIONS[last]
        ends = (entity.id, owner.id) if alias_first else (owner.id, entity.id)
        return Relation(source=ends[0], target=ends[1], type=kind)
    if entity.type == "Faction" and last in FOLLOWERS and owner.type in OWNER_TYPES:
        return Relation(source=owner.id, target=entity.id, type="leads")
    if entity.type in OWNED_TYPES and owner.type in OWNER_TYPES:
        return Relation(source=entity.id, target=owner.id, type="owned_by")
    return None
