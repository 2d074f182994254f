"""Model ↔ row conversion shared by every Cypher store: what a model becomes as statement
parameters, and what a returned row becomes as a model. No vendor imports: a row is a dict.

Graph stores hold only primitives, nulls and arrays of primitives as property values, numbers
only when finite, and integers only within 64 bits (FalkorDB silently clamps a larger one).
Every value is checked here before anything is sent, so a bad value fails the whole call with
nothing written: on FalkorDB, which cannot roll back a transaction the server failed half-way,
these checks are what keeps a call atomic.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from graphrag_core.errors import StoreError
from graphrag_core.input_safety import bad_character
from graphrag_core.models import (
    Change,
    ChangeSetRecord,
    Chunk,
    Entity,
    ProfileSentence,
    Relation,
    SourceRecord,
)

Row = dict[str, Any]

_PRIMITIVES = (str, bool, int, float)
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_WHAT_TO_DO = (
    "nothing was written. Graph stores hold finite numbers and integers within 64 bits only "
    "(a NaN or infinite vector usually comes from a broken embedder)."
)


def bad_number(value: object) -> str | None:
    """Why ``value`` (any parameter value, nested) cannot be stored as a number, or None."""
    if isinstance(value, float):
        return None if math.isfinite(value) else f"the number {value}"
    if isinstance(value, int) and not isinstance(value, bool):
        return None if INT64_MIN <= value <= INT64_MAX else f"the integer {value}"
    if isinstance(value, dict):
        return next(filter(None, map(bad_number, value.values())), None)
    if isinstance(value, list | tuple):
        if all(type(v) is float for v in value) and all(map(math.isfinite, value)):
            return None  # the common case, a vector: checked at C speed
        return next(filter(None, map(bad_number, value)), None)
    return None


def check_parameters(name: str, params: dict[str, Any]) -> None:
    """StoreError naming the first value of statement ``name`` a store cannot hold exactly."""
    for key, value in params.items():
        if (problem := bad_number(value)) is None:
            continue
        rows = value if isinstance(value, list) else []
        row = next((r for r in rows if isinstance(r, dict) and bad_number(r)), None)
        item = f" (item {row.get('id', row.get('key'))!r})" if row else ""
        raise StoreError(f"statement {name!r}, parameter {key!r}{item}: {problem}; {_WHAT_TO_DO}")


def check_statement(name: str, params: dict[str, Any]) -> None:
    """:func:`check_parameters` for what the row builders left: every parameter of statement
    ``name`` but its ``rows``, which were checked as they were built (:func:`checked`,
    :func:`vector_rows`) or hold only ids and names; and every string of every parameter, rows
    included, for characters no store can hold (:func:`check_text`)."""
    check_parameters(name, {key: value for key, value in params.items() if key != "rows"})
    check_text(name, params)


def bad_text(value: object) -> str | None:
    """Why a string in ``value`` (nested, keys included) cannot be stored, or None."""
    if isinstance(value, str):
        return bad_character(value)
    if isinstance(value, dict):
        for key, item in value.items():
            if (problem := bad_text(key) or bad_text(item)) is not None:
                return problem
    elif isinstance(value, list | tuple):
        if value and type(value[0]) is float and all(type(v) is float for v in value):
            return None  # a vector
        for item in value:
            if (problem := bad_text(item)) is not None:
                return problem
    return None


def check_text(name: str, params: dict[str, Any]) -> None:
    """StoreError naming the first string of statement ``name`` holding a NUL or a lone
    surrogate: FalkorDB ends the query at a NUL, and neither is text a driver can send, so a
    transaction would fail part-way on the server. Caught here, nothing is sent."""
    for key, value in params.items():
        if (problem := bad_text(value)) is None:
            continue
        rows = value if isinstance(value, list) else []
        row = next((x for x in rows if isinstance(x, dict) and bad_text(x)), None)
        item = f" (item {_ident(row)!r})" if row else ""
        raise StoreError(
            f"statement {name!r}, parameter {key!r}{item}: a value holds {problem}; nothing "
            "was written"
        )


def _ident(row: dict[str, Any]) -> object:
    found = row.get("id", row.get("key", row.get("path")))
    return found.encode("utf-8", "backslashreplace").decode() if isinstance(found, str) else found


def _storable(value: object) -> bool:
    """What a graph store accepts as a property value: a primitive, null, or an array of
    primitives."""
    if value is None or isinstance(value, _PRIMITIVES):
        return True
    return isinstance(value, list | tuple) and all(isinstance(v, _PRIMITIVES) for v in value)


def checked(what: str, props: dict[str, Any]) -> dict[str, Any]:
    """``props`` with tuples as lists, or StoreError naming the first value a store rejects."""
    for key, value in props.items():
        if not _storable(value):
            raise StoreError(
                f"{what}: property {key!r} has a value the graph store cannot store "
                f"({type(value).__name__}); nothing was written. Use strings, numbers, "
                "booleans or lists of them."
            )
        if (problem := bad_number(value)) is not None:
            raise StoreError(f"{what}: property {key!r} holds {problem}; {_WHAT_TO_DO}")
    return {key: list(v) if isinstance(v, tuple) else v for key, v in props.items()}


def source_row(source: SourceRecord) -> Row:
    props = {
        "sha256": source.sha256,
        "kind": source.kind,
        "chunk_count": source.chunk_count,
        "extractor": source.extractor,
    }
    return {"path": source.path, "props": checked(f"source {source.path}", props)}


def entity_row(entity: Entity) -> Row:
    props = {
        "name": entity.name,
        "type": entity.type,
        "aliases": entity.aliases,
        "gm_aliases": entity.gm_aliases,
        "status": entity.status,
        "visibility": entity.visibility,
        "description": entity.description,
        "gm_notes": entity.gm_notes,
        "attributes_json": json.dumps(entity.attributes, sort_keys=True),
        "sources": entity.sources,
        "profile_json": json.dumps([p.model_dump() for p in entity.profile]),
        "search_text": search_text(entity),
    }
    return {"id": entity.id, "props": checked(f"entity {entity.id}", props)}


def search_text(entity: Entity) -> str:
    """The party-visible text the full-text index sees: name, aliases, description. Joined
    with " ; ", not newlines: FalkorDB's full-text tokenizer does not split at a newline, so
    the name's last word, each alias and the description's first word would fuse."""
    return " ; ".join([entity.name, *entity.aliases, entity.description]).strip(" ;")


def relation_row(relation: Relation) -> Row:
    props = {
        "attitude": relation.attitude,
        "visibility": relation.visibility,
        "description": relation.description,
        "source_path": relation.source_path,
        "chunk_id": relation.chunk_id,
        "evidence": relation.evidence,
    }
    where = f"relation {relation.source} {relation.type} {relation.target}"
    return {
        "source": relation.source,
        "type": relation.type,
        "target": relation.target,
        "props": checked(where, props),
    }


def chunk_row(chunk: Chunk) -> Row:
    props = {
        "source_path": chunk.source_path,
        "start": chunk.start,
        "end": chunk.end,
        "text": chunk.text,
        "content_hash": chunk.content_hash,
        "heading": chunk.heading,
        "visibility": chunk.visibility,
        "mentions": chunk.mentions,
        "subject": chunk.subject,
        "session": chunk.session,
        "page": chunk.page,
    }
    return {"id": chunk.id, "props": checked(f"chunk {chunk.id}", props)}


def mentions_row(chunk: Chunk) -> Row:
    return {"id": chunk.id, "mentions": list(chunk.mentions)}


def vector_rows(
    ids: Sequence[str], vectors: dict[str, tuple[float, ...]], dimension: int
) -> list[Row]:
    rows = []
    for item_id in ids:
        vector = vectors.get(item_id)
        if vector is None:
            continue
        if len(vector) != dimension:
            raise StoreError(
                f"vector of {item_id!r} has {len(vector)} dimensions, the store's vector "
                f"indexes have {dimension}; nothing was written. Embed with a model of "
                f"{dimension} dimensions or rebuild the store with the new dimension."
            )
        embedding = [float(v) for v in vector]
        if (problem := bad_number(embedding)) is not None:
            raise StoreError(f"vector of {item_id!r} holds {problem}; {_WHAT_TO_DO}")
        rows.append({"id": item_id, "embedding": embedding})
    return rows


def changeset_props(record: ChangeSetRecord) -> dict[str, Any]:
    return record.model_dump(exclude={"session_id", "revision"}, exclude_none=True)


def change_row(change: Change) -> Row:
    props = change.model_dump(exclude={"id", "details"})
    props["details_json"] = json.dumps(change.details, sort_keys=True)
    return {"id": change.id, "props": checked(f"change {change.id}", props)}


# ---------------------------------------------------------------- rows → models


def to_entity(row: Row) -> Entity:
    return Entity(
        id=row["id"],
        name=row["name"],
        type=row["type"],
        aliases=tuple(row["aliases"] or ()),
        gm_aliases=tuple(row["gm_aliases"] or ()),
        status=row["status"],
        visibility=row["visibility"],
        description=row["description"] or "",
        gm_notes=row["gm_notes"] or "",
        attributes=json.loads(row["attributes_json"] or "{}"),
        sources=tuple(row["sources"] or ()),
        profile=tuple(ProfileSentence(**p) for p in json.loads(row.get("profile_json") or "[]")),
    )


def to_relation(row: Row) -> Relation:
    return Relation(
        source=row["source"],
        target=row["target"],
        type=row["type"],
        attitude=row["attitude"],
        visibility=row["visibility"],
        description=row["description"] or "",
        source_path=row["source_path"] or "",
        chunk_id=row["chunk_id"],
        evidence=row.get("evidence") or "stated",
    )


def to_chunk(row: Row) -> Chunk:
    return Chunk(
        id=row["id"],
        source_path=row["source_path"],
        start=row["start"],
        end=row["end_offset"],
        text=row["text"],
        content_hash=row["content_hash"],
        heading=row["heading"] or "",
        visibility=row["visibility"],
        mentions=tuple(row["mentions"] or ()),
        subject=row["subject"],
        session=row.get("session"),
        page=row.get("page"),
    )


def to_change(row: Row) -> Change:
    fields = {key: value for key, value in row.items() if key != "details_json"}
    return Change(**fields, details=json.loads(row["details_json"] or "{}"))
