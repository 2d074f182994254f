"""The FalkorDB adapter of the ``GraphStore`` port, embedded or over a server.

Every query is a parameterised statement from ``cypher/`` (dialect ``falkordb``). Writes of one
call go in one Redis ``MULTI``/``EXEC``: no other client sees half of them. Redis cannot roll
back a transaction, so every row is checked before anything is sent (FalkorDB stores only
primitives and arrays of primitives); a bad value fails the whole call with nothing written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import redis.exceptions
from falkordb import FalkorDB
from falkordb.query_result import QueryResult

import cypher
from graphrag_core.errors import StoreError, StoreUnavailableError
from graphrag_core.models import (
    Change,
    ChangeSetRecord,
    Chunk,
    Entity,
    GmDecision,
    GraphDelta,
    Relation,
    ScoredId,
    SourceRecord,
    Visibility,
)
from graphrag_core.ports import SearchKind
from graphrag_core.stores.falkordb_server import EmbeddedFalkorDB

__all__ = ["MIGRATIONS", "FalkorDBStore"]

MIGRATIONS: tuple[str, ...] = (
    "migration_entity_index",
    "migration_chunk_index",
    "migration_source_index",
    "migration_change_index",
    "migration_changeset_index",
    "migration_entity_vector_index",
    "migration_chunk_vector_index",
    "migration_entity_fulltext_index",
    "migration_chunk_fulltext_index",
)
"""Applied in this order, each once per graph, recorded as a ``Migration`` node."""

BATCH_SIZE = 500
_PLURAL: dict[str, str] = {"entity": "entities", "chunk": "chunks"}
_MIN_FETCH = 64
_FETCH_GROWTH = 4
_MAX_FETCH_ROUNDS = 6
_WORD = re.compile(r"\w+")
_EMPTY_GRAPH = "empty key"  # FalkorDB's answer to a read of a graph never written

Row = dict[str, Any]
Statement = tuple[str, dict[str, Any]]
_T = TypeVar("_T")


def _q(name: str) -> str:
    """The FalkorDB text of statement ``name``."""
    return cypher.load(name, "falkordb")


class FalkorDBStore:
    """A ``GraphStore`` over one FalkorDB graph; every node and edge carries its campaign."""

    def __init__(
        self,
        db: Any,
        graph_name: str = "loregraph",
        *,
        dimension: int = 384,
        where: str = "the FalkorDB server",
        server: EmbeddedFalkorDB | None = None,
    ) -> None:
        self._db = db
        self._graph = db.select_graph(graph_name)
        self.graph_name = graph_name
        self.dimension = dimension
        self.where = where
        self._server = server
        self._exists = False

    # ------------------------------------------------------------ construction

    @classmethod
    def embedded(
        cls,
        data_dir: Path,
        graph_name: str = "loregraph",
        startup_timeout_s: float = 20.0,
        *,
        dimension: int = 384,
    ) -> FalkorDBStore:
        """Start (or reuse) the embedded engine of ``data_dir``; ``close()`` stops it if this
        store started it."""
        server = EmbeddedFalkorDB(data_dir, startup_timeout_s).start()
        where = f"{server.socket_path} (embedded, data dir {data_dir})"
        try:
            db = _connect(where, lambda: FalkorDB(unix_socket_path=str(server.socket_path)))
        except StoreUnavailableError:
            server.stop()
            raise
        return cls(db, graph_name, dimension=dimension, where=where, server=server)

    @classmethod
    def from_url(
        cls, url: str, graph_name: str = "loregraph", *, dimension: int = 384
    ) -> FalkorDBStore:
        """Connect to a FalkorDB server: ``redis://host:port``, ``falkor://…``, ``unix:///…``."""
        where = _redact(url)
        db = _connect(where, lambda: FalkorDB.from_url(url))
        return cls(db, graph_name, dimension=dimension, where=where)

    @property
    def server(self) -> EmbeddedFalkorDB | None:
        """The embedded engine this store owns, if any."""
        return self._server

    def close(self) -> None:
        try:
            self._db.close()
        finally:
            if self._server is not None:
                self._server.stop()

    def __enter__(self) -> FalkorDBStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------ schema

    def migrate(self) -> None:
        applied = {row["name"] for row in self._read("migrations_applied", {})}
        for name in MIGRATIONS:
            if name not in applied:
                self._create_index(name)
                now = datetime.now(UTC).isoformat()
                self._write([("migration_record", {"name": name, "applied_at": now})])

    def _create_index(self, name: str) -> None:
        try:
            self._call(name, lambda: self._graph.query(_q(name), {"dimension": self.dimension}))
        except StoreError as exc:
            if "already indexed" not in str(exc):
                raise

    # ------------------------------------------------------------ campaigns and sources

    def list_campaigns(self) -> list[str]:
        rows = self._read("campaigns_list", {})
        return sorted({row["campaign"] for row in rows if row["campaign"] is not None})

    def delete_campaign(self, campaign: str) -> None:
        self._write([("campaign_delete", {"campaign": campaign})])

    def load_sources(self, campaign: str) -> dict[str, SourceRecord]:
        rows = self._read("sources_load", {"campaign": campaign})
        return {row["path"]: SourceRecord(**row) for row in rows}

    # ------------------------------------------------------------ base graph

    def apply_delta(self, campaign: str, delta: GraphDelta) -> None:
        statements = _delta_statements(campaign, delta, self.dimension)
        if statements:
            self._write(statements)

    def load_entities(self, campaign: str) -> list[Entity]:
        return [_entity(row) for row in self._read("entities_load", {"campaign": campaign})]

    def load_relations(self, campaign: str) -> list[Relation]:
        return [_relation(row) for row in self._read("relations_load", {"campaign": campaign})]

    def load_chunks(self, campaign: str) -> list[Chunk]:
        return [_chunk(row) for row in self._read("chunks_load", {"campaign": campaign})]

    # ------------------------------------------------------------ retrieval

    def vector_search(
        self,
        campaign: str,
        kind: SearchKind,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        """The vector index spans every campaign: fetch more than ``k`` and grow the fetch
        until ``k`` items of this campaign and audience are found or none are left."""
        if k <= 0:
            return []
        name = f"vector_search_{_PLURAL[kind]}"
        scope = {"campaign": campaign, "visibilities": list(visibilities)}
        params = {**scope, "vector": [float(v) for v in vector], "k": k}
        fetch, available = max(k * _FETCH_GROWTH, _MIN_FETCH), None
        for _ in range(_MAX_FETCH_ROUNDS):
            rows = self._read(name, {**params, "fetch": fetch})
            if len(rows) >= k:
                break
            if available is None:
                available = self._read(f"{_PLURAL[kind]}_embeddable_count", scope)[0]["n"]
            if len(rows) >= available:
                break
            fetch *= _FETCH_GROWTH
        return [ScoredId(id=row["id"], score=float(row["similarity"])) for row in rows]

    def fulltext_search(
        self,
        campaign: str,
        kind: SearchKind,
        text: str,
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        """Any of the words of ``text`` (query syntax is stripped, so user text is safe)."""
        words = _WORD.findall(text)
        if k <= 0 or not words:
            return []
        params = {
            "campaign": campaign,
            "visibilities": list(visibilities),
            "query": "|".join(words),
            "k": k,
        }
        rows = self._read(f"fulltext_search_{_PLURAL[kind]}", params)
        return [ScoredId(id=row["id"], score=float(row["score"])) for row in rows]

    def neighbourhood(
        self,
        campaign: str,
        entity_ids: Sequence[str],
        hops: int,
        visibilities: Sequence[Visibility],
    ) -> dict[str, int]:
        """Breadth-first over RELATED edges in both directions, one query per hop."""
        scope = {"campaign": campaign, "visibilities": list(visibilities)}
        seeds = self._read("neighbourhood_seeds", {**scope, "ids": list(entity_ids)})
        found = {row["id"]: 0 for row in seeds}
        frontier = list(found)
        for hop in range(1, hops + 1):
            if not frontier:
                break
            rows = self._read("neighbourhood_step", {**scope, "ids": frontier})
            frontier = sorted({row["id"] for row in rows} - found.keys())
            found.update(dict.fromkeys(frontier, hop))
        return found

    # ------------------------------------------------------------ changelog

    def load_changesets(self, campaign: str) -> list[ChangeSetRecord]:
        rows = self._read("changesets_load", {"campaign": campaign})
        return [ChangeSetRecord(**row) for row in rows]

    def append_changeset(
        self, campaign: str, record: ChangeSetRecord, changes: Sequence[Change]
    ) -> None:
        header = {
            "campaign": campaign,
            "session_id": record.session_id,
            "revision": record.revision,
            "props": _checked(f"change set {record.session_id}", _changeset_props(record)),
        }
        rows = [_change_row(change) for change in changes]
        self._write(
            [("changeset_append", header), *_batched("changes_append", campaign, "rows", rows)]
        )

    def load_changes(self, campaign: str) -> list[Change]:
        return [_change(row) for row in self._read("changes_load", {"campaign": campaign})]

    # --- extraction cache and GM decisions (issue 4)

    def load_extraction_cache(self, campaign: str, keys: Sequence[str]) -> dict[str, str]:
        if not keys:
            return {}
        rows = self._read("extraction_cache_load", {"campaign": campaign, "keys": list(keys)})
        return {row["key"]: row["value"] for row in rows}

    def save_extraction_cache(self, campaign: str, entries: Mapping[str, str]) -> None:
        rows = [{"key": key, "value": value} for key, value in sorted(entries.items())]
        if rows:
            self._write(list(_batched("extraction_cache_save", campaign, "rows", rows)))

    def load_gm_decisions(self, campaign: str) -> list[GmDecision]:
        rows = self._read("gm_decisions_load", {"campaign": campaign})
        return [GmDecision(**{**row, "names": tuple(row["names"] or ())}) for row in rows]

    def append_gm_decision(self, campaign: str, decision: GmDecision) -> None:
        props = _checked(f"GM decision {decision.seq}", decision.model_dump(exclude={"seq"}))
        self._write(
            [("gm_decision_append", {"campaign": campaign, "seq": decision.seq, "props": props})]
        )

    # --- end of issue 4 block

    # ------------------------------------------------------------ execution

    def _read(self, name: str, params: dict[str, Any]) -> list[Row]:
        if not self._graph_exists():
            return []
        return self._call(name, partial(_read_rows, self._graph, _q(name), params))

    def _graph_exists(self) -> bool:
        """Whether the graph key exists. Reads never touch a missing graph: FalkorDB 4.16.3
        answers them with an error, and under load that error path can leave a lock held so
        that the next write that creates the graph hangs the server (seen here ~1 in 15)."""
        if not self._exists:
            exists = self._call("exists", lambda: self._db.connection.exists(self.graph_name))
            self._exists = bool(exists)
        return self._exists

    def _write(self, statements: Sequence[Statement]) -> None:
        """Run ``statements`` in one MULTI/EXEC; raise on the first failed reply."""
        pipe = self._db.connection.pipeline(transaction=True)
        for name, params in statements:
            query = self._graph._build_params_header(params) + _q(name)
            pipe.execute_command("GRAPH.QUERY", self.graph_name, query, "--compact")
        replies = self._call("transaction", lambda: pipe.execute(raise_on_error=False))
        for (name, _), reply in zip(statements, replies, strict=True):
            self._call(name, partial(_check_reply, self._graph, reply))

    def _call(self, name: str, action: Callable[[], _T]) -> _T:
        try:
            return action()
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise _unavailable(self.where, exc) from exc
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"FalkorDB statement {name!r} failed: {exc}") from exc


# ---------------------------------------------------------------- connection helpers


def _connect(where: str, factory: Callable[[], Any]) -> Any:
    try:
        return factory()
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
        raise _unavailable(where, exc) from exc


def _unavailable(where: str, exc: Exception) -> StoreUnavailableError:
    return StoreUnavailableError(
        f"FalkorDB is not reachable at {where}: {exc}. "
        "Start it or check LOREGRAPH_FALKORDB_URL / the data dir."
    )


def _redact(url: str) -> str:
    """``url`` without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def _read_rows(graph: Any, query: str, params: dict[str, Any]) -> list[Row]:
    """The rows of a read-only query as dicts; none while the graph does not exist yet."""
    try:
        result = graph.ro_query(query, params)
    except redis.exceptions.ResponseError as exc:
        if _EMPTY_GRAPH in str(exc):
            return []
        raise
    columns = [column[1] for column in result.header]
    return [dict(zip(columns, values, strict=True)) for values in result.result_set]


def _check_reply(graph: Any, reply: Any) -> None:
    """Raise the error a GRAPH.QUERY reply carries (a failed reply or a run-time error)."""
    if isinstance(reply, Exception):
        raise reply
    QueryResult(graph, reply)


# ---------------------------------------------------------------- delta → statements


def _delta_statements(campaign: str, delta: GraphDelta, dimension: int) -> list[Statement]:
    """Removals first, then upserts; entities before the edges and mentions that need them."""
    chunk_ids = [chunk.id for chunk in delta.chunks_upsert]
    entity_ids = [entity.id for entity in delta.entities_upsert]
    removed_relations = [
        {"source": s, "type": t, "target": o} for s, t, o in delta.relations_removed
    ]
    plan: list[tuple[str, str, list[Any]]] = [
        ("relations_delete", "rows", removed_relations),
        ("chunks_delete", "ids", list(delta.chunks_removed)),
        ("entities_delete", "ids", list(delta.entities_removed)),
        ("sources_delete", "paths", list(delta.sources_removed)),
        ("sources_upsert", "rows", [_source_row(s) for s in delta.sources_upsert]),
        ("entities_upsert", "rows", [_entity_row(e) for e in delta.entities_upsert]),
        ("entity_embeddings_set", "rows", _vector_rows(entity_ids, delta.vectors, dimension)),
        ("relations_upsert", "rows", [_relation_row(r) for r in delta.relations_upsert]),
        ("chunks_upsert", "rows", [_chunk_row(c) for c in delta.chunks_upsert]),
        ("chunk_mentions_clear", "ids", chunk_ids),
        ("chunk_mentions_link", "rows", [_mentions_row(c) for c in delta.chunks_upsert]),
        ("chunk_embeddings_set", "rows", _vector_rows(chunk_ids, delta.vectors, dimension)),
    ]
    return [
        statement for name, key, rows in plan for statement in _batched(name, campaign, key, rows)
    ]


def _batched(name: str, campaign: str, key: str, rows: Sequence[Any]) -> Iterator[Statement]:
    for start in range(0, len(rows), BATCH_SIZE):
        yield name, {"campaign": campaign, key: list(rows[start : start + BATCH_SIZE])}


_PRIMITIVES = (str, bool, int, float)


def _storable(value: object) -> bool:
    """What FalkorDB accepts as a property value: a primitive, null, or an array of primitives."""
    if value is None or isinstance(value, _PRIMITIVES):
        return True
    return isinstance(value, list | tuple) and all(isinstance(v, _PRIMITIVES) for v in value)


def _checked(what: str, props: dict[str, Any]) -> dict[str, Any]:
    """``props`` with tuples as lists, or StoreError naming the first value FalkorDB rejects."""
    for key, value in props.items():
        if not _storable(value):
            raise StoreError(
                f"{what}: property {key!r} has a value FalkorDB cannot store "
                f"({type(value).__name__}); nothing was written. Use strings, numbers, "
                "booleans or lists of them."
            )
    return {key: list(v) if isinstance(v, tuple) else v for key, v in props.items()}


def _source_row(source: SourceRecord) -> Row:
    props = {"sha256": source.sha256, "kind": source.kind, "chunk_count": source.chunk_count}
    return {"path": source.path, "props": _checked(f"source {source.path}", props)}


def _entity_row(entity: Entity) -> Row:
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
        "search_text": search_text(entity),
    }
    return {"id": entity.id, "props": _checked(f"entity {entity.id}", props)}


def search_text(entity: Entity) -> str:
    """The party-visible text the full-text index sees: name, aliases, description."""
    return "\n".join([entity.name, *entity.aliases, entity.description]).strip()


def _relation_row(relation: Relation) -> Row:
    props = {
        "attitude": relation.attitude,
        "visibility": relation.visibility,
        "description": relation.description,
        "source_path": relation.source_path,
        "chunk_id": relation.chunk_id,
    }
    where = f"relation {relation.source} {relation.type} {relation.target}"
    return {
        "source": relation.source,
        "type": relation.type,
        "target": relation.target,
        "props": _checked(where, props),
    }


def _chunk_row(chunk: Chunk) -> Row:
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
    }
    return {"id": chunk.id, "props": _checked(f"chunk {chunk.id}", props)}


def _mentions_row(chunk: Chunk) -> Row:
    return {"id": chunk.id, "mentions": list(chunk.mentions)}


def _vector_rows(
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
        rows.append({"id": item_id, "embedding": [float(v) for v in vector]})
    return rows


def _changeset_props(record: ChangeSetRecord) -> dict[str, Any]:
    return record.model_dump(exclude={"session_id", "revision"})


def _change_row(change: Change) -> Row:
    props = change.model_dump(exclude={"id", "details"})
    props["details_json"] = json.dumps(change.details, sort_keys=True)
    return {"id": change.id, "props": _checked(f"change {change.id}", props)}


# ---------------------------------------------------------------- rows → models


def _entity(row: Row) -> Entity:
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
    )


def _relation(row: Row) -> Relation:
    return Relation(
        source=row["source"],
        target=row["target"],
        type=row["type"],
        attitude=row["attitude"],
        visibility=row["visibility"],
        description=row["description"] or "",
        source_path=row["source_path"] or "",
        chunk_id=row["chunk_id"],
    )


def _chunk(row: Row) -> Chunk:
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
    )


def _change(row: Row) -> Change:
    fields = {key: value for key, value in row.items() if key != "details_json"}
    return Change(**fields, details=json.loads(row["details_json"] or "{}"))
