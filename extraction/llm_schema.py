"""What the LLM is asked to return, as pydantic models: their field descriptions are the JSON
schema sent for structured output, so they are written for the model to read."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.taxonomy import Taxonomy

MAX_ENTITIES = 10
MAX_RELATIONS = 12
"""Caps sent in the schema (``maxItems``): small models otherwise list every noun until the
token limit cuts the JSON off (seen with Qwen2.5-Coder-1.5B)."""


class _Response(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExtractedEntity(_Response):
    name: str = Field(description="The entity's full name as the text gives it.")
    type: str = Field(description="One entity type from the list in the instructions.")
    aliases: list[str] = Field(
        default_factory=list, max_length=4, description="Other names used in the text."
    )
    description: str = Field(
        default="", max_length=200, description="One sentence about it, from the text."
    )
    status: str | None = Field(
        default=None, description="alive, dead, destroyed, missing, ... if the text says."
    )
    visibility: Literal["party", "gm"] = Field(
        default="party", description="gm if the text marks it secret, else party."
    )
    evidence: str = Field(
        default="", max_length=200, description="A short exact quote from the text."
    )


class ExtractedRelation(_Response):
    source: str = Field(description="Name of an entity in 'entities'.")
    type: str = Field(description="One relation type from the list in the instructions.")
    target: str = Field(description="Name of an entity in 'entities'.")
    description: str = Field(default="", description="A few words on the relation.")
    attitude: Literal["allied", "neutral", "hostile"] | None = Field(
        default=None, description="Attitude of source toward target, if the text says."
    )
    evidence: str = Field(
        default="", max_length=200, description="A short exact quote from the text."
    )


class ChunkExtraction(_Response):
    """Entities and relations one passage states."""

    entities: list[ExtractedEntity] = Field(default_factory=list, max_length=MAX_ENTITIES)
    relations: list[ExtractedRelation] = Field(default_factory=list, max_length=MAX_RELATIONS)


def extraction_schema(taxonomy: Taxonomy) -> dict[str, Any]:
    """The JSON schema of :class:`ChunkExtraction` with the entity and relation ``type`` fields
    limited to the taxonomy (``enum``): a server that enforces the schema can only answer
    with a known type; one that does not still gets the list to read."""
    schema = copy.deepcopy(model_schema(ChunkExtraction))
    defs = schema["$defs"]
    defs["ExtractedEntity"]["properties"]["type"]["enum"] = list(taxonomy.entity_types)
    defs["ExtractedRelation"]["properties"]["type"]["enum"] = list(taxonomy.relation_types)
    return schema


@cache
def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON schema, generated once (shared: never to be changed in place)."""
    return model.model_json_schema()


ChangeKindProposed = Literal["death", "destruction", "attitude", "item_transfer"]


class ProposedChange(_Response):
    kind: ChangeKindProposed = Field(
        description="death, destruction, attitude (toward the party) or item_transfer."
    )
    entity: str = Field(
        description="Who died, what was destroyed, who changed attitude, "
        "or the item that changed hands."
    )
    new_value: str = Field(
        default="", description="attitude: allied, neutral or hostile; item_transfer: new owner."
    )
    attempted_only: bool = Field(
        default=False, description="true if the action was only tried and failed."
    )
    quote: str = Field(description="The exact sentence of the transcript that states it.")


class RecapChanges(_Response):
    """The lasting changes a session transcript or recap states."""

    changes: list[ProposedChange] = Field(default_factory=list)


class SameEntityVerdict(_Response):
    same: bool = Field(description="true if both descriptions are one and the same entity.")
    reason: str = Field(default="", description="A few words why.")
