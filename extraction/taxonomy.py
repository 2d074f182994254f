"""Mapping free-form type names onto the entity and relation taxonomies."""

from __future__ import annotations

from graphrag_core.models import Attitude
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy, relation_key

_ENTITY_SYNONYMS = {
    "character": "NPC", "person": "NPC", "npcs": "NPC", "player character": "PC",
    "place": "Location", "city": "Location", "town": "Location", "region": "Location",
    "organisation": "Faction", "organization": "Faction", "guild": "Faction",
    "god": "Deity", "monster": "Creature", "artifact": "Item", "artefact": "Item",
}  # fmt: skip
ATTITUDE_OF_TYPE: dict[str, Attitude] = {"allied_with": "allied", "hostile_to": "hostile"}
"""The attitude a relation type implies when none is given."""


def entity_type(name: str, taxonomy: Taxonomy = DEFAULT_TAXONOMY) -> tuple[str, str | None]:
    """The taxonomy type for ``name`` and a warning when it had to fall back to ``Other``."""
    key = name.strip().casefold()
    types = {kind.casefold(): kind for kind in taxonomy.entity_types}
    found = types.get(key) or _ENTITY_SYNONYMS.get(key)
    if found:
        return found, None
    return "Other", f"unknown entity type {name!r}, using 'Other'"


def relation_type(name: str, taxonomy: Taxonomy = DEFAULT_TAXONOMY) -> tuple[str, str | None]:
    """The taxonomy relation type for ``name`` (``"Located In"`` → ``located_in``) and a
    warning when it had to fall back to ``related_to``."""
    key = relation_key(name)
    if key in taxonomy.relation_types:
        return key, None
    return "related_to", f"unknown relation type {name!r}, using 'related_to'"
