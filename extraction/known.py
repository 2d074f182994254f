"""Entities already in the store that an extraction must see but not overwrite.

An extraction over *part* of a campaign — one file, or a folder with a broken file whose last
good content is kept — still has to resolve relations and find mentions of entities that other
sources define ("Pip Hollis" from a vault note, named in the world pack). Those stored
entities are the *known* ones:

- every known entity joins resolution and the gazetteer;
- an extracted entity that is also known (same id, or same name and type) keeps the stored id;
  when another source still *defines* it (a world pack or vault note outside this extraction),
  the two are merged, this extraction's fields first; otherwise this extraction's definition
  replaces the stored one, keeping the stored sources;
- a known entity this extraction does not define is not part of its result (the store keeps it).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from extraction.resolution import merge_entities
from extraction.slugs import normalise_name
from graphrag_core.models import Entity


@dataclass
class Reconciled:
    """The extracted entities, reconciled with the known ones."""

    entities: list[Entity]
    context: list[Entity]
    """Known entities this extraction does not define: for resolution and mentions only."""
    renamed: dict[str, str] = field(default_factory=dict)
    """Extracted id -> the stored id it takes."""


def reconcile(
    extracted: Sequence[Entity], known: Sequence[Entity], defined_elsewhere: Collection[str]
) -> Reconciled:
    """``extracted`` with the stored ids and definitions of ``known`` applied; an entity is
    defined elsewhere when one of its sources is in ``defined_elsewhere``."""
    by_id = {entity.id: entity for entity in known}
    by_name = {(normalise_name(e.name), e.type): e for e in known}
    result = Reconciled(entities=[], context=[])
    used: set[str] = set()
    for entity in extracted:
        match = by_id.get(entity.id) or by_name.get((normalise_name(entity.name), entity.type))
        if match is None:
            result.entities.append(entity)
            continue
        used.add(match.id)
        if match.id != entity.id:
            result.renamed[entity.id] = match.id
            entity = entity.model_copy(update={"id": match.id})
        result.entities.append(_combine(entity, match, defined_elsewhere))
    result.context = [entity for entity in known if entity.id not in used]
    return result


def _combine(entity: Entity, stored: Entity, defined_elsewhere: Collection[str]) -> Entity:
    if any(source in defined_elsewhere for source in stored.sources):
        return merge_entities([entity, stored])[0]
    sources = tuple(dict.fromkeys([*entity.sources, *stored.sources]))
    return entity.model_copy(update={"sources": sources})
