"""The campaign's taxonomy: entity types, relation types and each entity type's statuses.

The built-in taxonomy (:data:`graphrag_core.models.ENTITY_TYPES`, ``RELATION_TYPES``,
``STATUS_VOCABULARY``) is extended through the ingest settings (``extra_entity_types``,
``extra_relation_types``); an extra entity type's status vocabulary is ``("unknown",)``."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.models import ENTITY_TYPES, RELATION_TYPES, STATUS_VOCABULARY

EXTRA_TYPE_STATUSES: tuple[str, ...] = ("unknown",)
"""The status vocabulary of an entity type added through settings."""


class Taxonomy(BaseModel):
    """The types extraction may assign, in the order the LLM is shown them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    entity_types: tuple[str, ...] = ENTITY_TYPES
    relation_types: tuple[str, ...] = RELATION_TYPES
    statuses: dict[str, tuple[str, ...]] = Field(default_factory=lambda: dict(STATUS_VOCABULARY))

    @classmethod
    def extended(
        cls, entity_types: Iterable[str] = (), relation_types: Iterable[str] = ()
    ) -> Taxonomy:
        """The built-in taxonomy plus the extra types; a type already known (case-insensitive,
        relation types compared as ``snake_case``) is not added twice."""
        known = {kind.casefold() for kind in ENTITY_TYPES}
        extra: list[str] = []
        for kind in (k.strip() for k in entity_types):
            if kind and kind.casefold() not in known:
                known.add(kind.casefold())
                extra.append(kind)
        extra_relations = [relation_key(k) for k in relation_types if k.strip()]
        extra_relations = [k for k in dict.fromkeys(extra_relations) if k not in RELATION_TYPES]
        return cls(
            entity_types=(*ENTITY_TYPES[:-1], *extra, ENTITY_TYPES[-1]),
            relation_types=(*RELATION_TYPES, *extra_relations),
            statuses={**STATUS_VOCABULARY, **dict.fromkeys(extra, EXTRA_TYPE_STATUSES)},
        )

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_TAXONOMY

    def statuses_of(self, entity_type: str) -> tuple[str, ...]:
        """The allowed statuses of ``entity_type`` (empty for a type outside the taxonomy)."""
        return self.statuses.get(entity_type, ())


def relation_key(name: str) -> str:
    """A relation type name as a key: ``"Located In"`` → ``located_in``."""
    return "_".join(name.strip().casefold().replace("-", " ").split())


PROPERTY_RELATIONS: dict[str, str] = {
    "held_by": "owned_by",
    "holder": "owned_by",
    "owner": "owned_by",
    "ruler": "ruled_by",
}
"""Property names that mean a relation type of the taxonomy (besides the types themselves)."""

DEFAULT_TAXONOMY = Taxonomy()
"""The built-in taxonomy, used when no extra types are configured."""
