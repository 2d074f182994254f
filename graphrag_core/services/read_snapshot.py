"""The read snapshot: what a campaign's first query needs, kept in files beside the store so a
new process reads it in a fraction of the time the store's client takes (a cache, safe to
delete; see :class:`~graphrag_core.ports.SnapshotFiles`).

Three parts per campaign:

- ``stored.json``: the :class:`~.views.StoredCampaign` (entities, relations, chunks, changes,
  change-set records) and ``analytics.json``: the analytics snapshot. Each starts with a header
  line naming the format, the store and the campaign revision it was read at; it is used only
  when that revision is the store's current one (every write bumps it, whichever process
  wrote), and written by the reader that had to read the store, labelled with the revision it
  read *before* reading (a write racing the read leaves a part that is never used);
- ``vectors-<kind>.npz`` (entity, chunk, summary): each item's vector with a hash of the text it
  embeds, written by the process that has the vectors in hand (ingest, build). A kind is
  searched in process only when the file holds every current item with the hash of its current
  text; otherwise the store searches it, as without a snapshot.

A part that is unreadable, truncated, of another format, store, campaign or embedding model is
ignored with a one-line warning and rewritten: never a crash, never a wrong answer. Player
views are cut from the same stored campaign as without the snapshot (see :mod:`.views`)."""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
from pydantic import TypeAdapter

from graphrag_core.analytics_models import AnalyticsSnapshot, CommunitySummary
from graphrag_core.models import (
    CampaignView,
    Change,
    ChangeSetRecord,
    Chunk,
    Entity,
    Relation,
    Visibility,
)
from graphrag_core.ports import Embedder, GraphStore, SnapshotFiles
from graphrag_core.services.ingest import chunk_embedding_text, entity_embedding_text
from graphrag_core.services.vector_index import IndexKind, KindVectors, VectorIndex
from graphrag_core.services.views import StoredCampaign, load_stored
from ranking.lexical import LexicalIndex

logger = logging.getLogger(__name__)

FORMAT = 1
"""Bumped whenever what a part holds changes shape: a part of another format is ignored."""

VECTOR_KINDS: tuple[IndexKind, ...] = ("entity", "chunk", "summary")

_Body = tuple[
    tuple[Entity, ...],
    tuple[Relation, ...],
    tuple[Chunk, ...],
    tuple[Change, ...],
    tuple[ChangeSetRecord, ...],
]
_BODY: TypeAdapter[_Body] = TypeAdapter(_Body)
_ANALYTICS: TypeAdapter[AnalyticsSnapshot | None] = TypeAdapter(AnalyticsSnapshot | None)
T = TypeVar("T")


class UnusablePartError(Exception):
    """A part that cannot be used (says why)."""


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class ReadSnapshot:
    """The read snapshots of one store's campaigns."""

    def __init__(self, store: GraphStore, files: SnapshotFiles, embedder: Embedder) -> None:
        self._store = store
        self._files = files
        self._embedder = embedder

    # ------------------------------------------------------------ stored campaign, analytics

    def stored(self, campaign: str) -> StoredCampaign:
        """The stored campaign at the store's current revision: from the snapshot, or read
        from the store (and snapshotted)."""
        body, revision = self._part(
            campaign, "stored.json", lambda: _stored_body(load_stored(self._store, campaign)),
            _BODY.validate_json, _BODY.dump_json,
        )  # fmt: skip
        return StoredCampaign(campaign, *body, revision=revision)

    def analytics(self, campaign: str) -> AnalyticsSnapshot | None:
        """The stored analytics snapshot (None before a build), as :meth:`stored` reads."""
        return self._part(
            campaign, "analytics.json", lambda: self._store.load_analytics(campaign),
            _ANALYTICS.validate_json, _ANALYTICS.dump_json,
        )[0]  # fmt: skip

    def lexical(self, stored: StoredCampaign, view: CampaignView) -> LexicalIndex:
        """The BM25 index of a view cut from ``stored``: kept for the GM's and the players'
        present-day views, at the revision ``stored`` was read at."""
        if view.as_of_session is not None or stored.revision is None:
            return LexicalIndex.build(view)
        name = f"bm25-{'party' if view.as_player else 'gm'}.npz"
        expected = self._header(stored.campaign, name, revision=stored.revision)
        data = self._files.read(stored.campaign, name)
        if data is not None:
            try:
                with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                    if json.loads(str(npz["meta"])) == json.loads(expected):
                        return LexicalIndex.from_arrays({k: npz[k] for k in npz.files})
            except Exception:  # a damaged cache file: whatever numpy raises
                _ignored(stored.campaign, name, "unreadable")
        index = LexicalIndex.build(view)
        self._write_lexical(stored.campaign, name, expected, index)
        return index

    def _write_lexical(self, campaign: str, name: str, header: bytes, index: LexicalIndex) -> None:
        buffer = io.BytesIO()
        arrays: dict[str, Any] = {"meta": np.array(header.decode("utf-8")), **index.arrays()}
        np.savez(buffer, **arrays)
        self._files.write(campaign, name, buffer.getvalue())

    def after_build(
        self,
        stored: StoredCampaign,
        views: tuple[CampaignView, CampaignView],
        analytics: AnalyticsSnapshot,
    ) -> None:
        """A build just stored ``analytics``, having read ``stored`` (and cut the GM's and the
        players' present-day ``views`` from it) at ``stored.revision``: when the store's
        revision is now exactly one write later, that write was the build's own, so the stored
        campaign, the analytics and the BM25 indexes are the store's current state; snapshot
        them so that the next process's first query reads no store. Otherwise another write
        came between, and the next reader reads the store (as without a snapshot)."""
        campaign = stored.campaign
        written = self._store.campaign_revision(campaign)
        if stored.revision is None or written != stored.revision + 1:
            return
        for name, value in (
            ("stored.json", _BODY.dump_json(_stored_body(stored))),
            ("analytics.json", _ANALYTICS.dump_json(analytics)),
        ):
            header = self._header(campaign, name, revision=written)
            self._files.write(campaign, name, header + b"\n" + value)
        for view in views:
            name = f"bm25-{'party' if view.as_player else 'gm'}.npz"
            header = self._header(campaign, name, revision=written)
            self._write_lexical(campaign, name, header, LexicalIndex.build(view))

    def _part(
        self,
        campaign: str,
        name: str,
        read: Callable[[], T],
        parse: Callable[[bytes], T],
        dump: Callable[[T], bytes],
    ) -> tuple[T, int]:
        revision = self._store.campaign_revision(campaign)  # before any read: see the module
        data = self._files.read(campaign, name)
        if data is not None:
            try:
                return parse(self._body(data, campaign, name, revision)), revision
            except UnusablePartError as why:
                if str(why) != "stale":
                    _ignored(campaign, name, str(why))
            except ValueError as exc:  # a truncated or altered body
                _ignored(campaign, name, f"unreadable ({type(exc).__name__})")
        value = read()
        header = self._header(campaign, name, revision=revision)
        self._files.write(campaign, name, header + b"\n" + dump(value))
        return value, revision

    def _header(self, campaign: str, part: str, **extra: Any) -> bytes:
        fields = {"format": FORMAT, "part": part, "campaign": campaign}
        fields |= {"store": self._files.store_identity, **extra}
        return json.dumps(fields, sort_keys=True).encode("utf-8")

    def _body(self, data: bytes, campaign: str, name: str, revision: int) -> bytes:
        """The part's body when its header matches this store, campaign and revision."""
        end = data.find(b"\n")
        first, newline, body = data[: max(end, 0)], end >= 0, data[end + 1 :]
        try:
            header = json.loads(first)
        except ValueError as exc:
            raise UnusablePartError("unreadable header") from exc
        if not newline or not isinstance(header, dict):
            raise UnusablePartError("unreadable header")
        if not _same(header, self._header(campaign, name)):
            raise UnusablePartError("written by another format, store or campaign")
        if header.get("revision") != revision:
            raise UnusablePartError("stale")
        return body

    # ------------------------------------------------------------ vectors

    def vectors(
        self, campaign: str, stored: StoredCampaign, analytics: AnalyticsSnapshot | None
    ) -> VectorIndex:
        """The kinds whose snapshot file holds every current item as it is now."""
        wanted = _wanted(stored.entities, stored.chunks, analytics)
        kinds: dict[IndexKind, KindVectors] = {}
        for kind in VECTOR_KINDS:
            held = self._read_vectors(campaign, kind)
            items = wanted[kind]
            if held is None or any(held.get(i, (None,))[0] != h for i, (h, _) in items.items()):
                continue
            rows = {
                i: (vis, vector)
                for i, (_, vis) in items.items()
                if (vector := held[i][1]) is not None
            }
            kinds[kind] = KindVectors.of(rows, self._embedder.dimension)
        return VectorIndex(campaign, kinds)

    def refresh_vectors(
        self,
        campaign: str,
        entities: Iterable[Entity],
        chunks: Iterable[Chunk],
        analytics: AnalyticsSnapshot | None,
        fresh: Mapping[str, Sequence[float]],
    ) -> None:
        """Bring the vector files in line with the items given (the campaign as just
        written): ``fresh`` vectors (by item id or summary key) are the ones the writer has in
        hand; an item neither fresh nor unchanged in the file is read from the store, with
        the rest of its kind."""
        wanted = _wanted(tuple(entities), tuple(chunks), analytics)
        for kind in VECTOR_KINDS:
            held = self._read_vectors(campaign, kind, quiet=True) or {}
            items = wanted[kind]
            rows: dict[str, tuple[str, np.ndarray | None]] = {}
            for item_id, (digest, _) in items.items():
                if item_id in fresh:
                    rows[item_id] = (digest, np.asarray(fresh[item_id], dtype=np.float32))
                elif held.get(item_id, (None,))[0] == digest:
                    rows[item_id] = held[item_id]
            if len(rows) < len(items):
                stored = self._load_vectors(campaign, kind)
                for item_id, (digest, _) in items.items():
                    vector = stored.get(item_id)
                    if item_id not in rows:
                        rows[item_id] = (digest, None if vector is None else np.asarray(vector))
            unchanged = rows.keys() == held.keys() and all(rows[i] is held[i] for i in rows)
            if not unchanged:
                self._write_vectors(campaign, kind, rows)

    def _load_vectors(self, campaign: str, kind: IndexKind) -> dict[str, tuple[float, ...]]:
        if kind == "summary":
            return self._store.load_summary_vectors(campaign)
        return self._store.load_vectors(campaign, "entity" if kind == "entity" else "chunk")

    def _write_vectors(
        self, campaign: str, kind: IndexKind, rows: Mapping[str, tuple[str, np.ndarray | None]]
    ) -> None:
        ids = sorted(rows)
        dimension = self._embedder.dimension
        matrix = np.zeros((len(ids), dimension), dtype=np.float32)
        present = np.zeros(len(ids), dtype=bool)
        for row, item_id in enumerate(ids):
            vector = rows[item_id][1]
            if vector is not None and vector.shape == (dimension,):
                matrix[row], present[row] = vector, True
        meta = self._header(campaign, f"vectors-{kind}", model=self._embedder.model_id)
        buffer = io.BytesIO()
        np.savez(
            buffer, meta=np.array(meta.decode("utf-8")), ids=np.array(ids, dtype=str),
            hashes=np.array([rows[i][0] for i in ids], dtype="U32"), present=present,
            matrix=matrix,
        )  # fmt: skip
        self._files.write(campaign, f"vectors-{kind}.npz", buffer.getvalue())

    def _read_vectors(
        self, campaign: str, kind: IndexKind, *, quiet: bool = False
    ) -> dict[str, tuple[str, np.ndarray | None]] | None:
        """Item id → (text hash, vector or None), or None when there is no usable file."""
        name = f"vectors-{kind}.npz"
        data = self._files.read(campaign, name)
        if data is None:
            return None
        try:
            return self._decode_vectors(data, campaign, kind)
        except Exception as exc:  # a damaged cache file: whatever numpy raises
            if not quiet:
                _ignored(
                    campaign, name, str(exc) if isinstance(exc, UnusablePartError) else "unreadable"
                )
            return None

    def _decode_vectors(
        self, data: bytes, campaign: str, kind: IndexKind
    ) -> dict[str, tuple[str, np.ndarray | None]]:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            meta = json.loads(str(npz["meta"]))
            expected = self._header(campaign, f"vectors-{kind}", model=self._embedder.model_id)
            if meta != json.loads(expected):
                raise UnusablePartError("written by another format, store, campaign or model")
            ids, hashes = npz["ids"].tolist(), npz["hashes"].tolist()
            present, matrix = npz["present"], npz["matrix"]
        if not (len(ids) == len(hashes) == len(present) == len(matrix)) or (
            matrix.ndim != 2 or matrix.shape[1] != self._embedder.dimension
        ):
            raise UnusablePartError("inconsistent arrays")
        return {
            item_id: (digest, matrix[row] if present[row] else None)
            for row, (item_id, digest) in enumerate(zip(ids, hashes, strict=True))
        }

    def delete(self, campaign: str) -> None:
        self._files.delete(campaign)


def _stored_body(stored: StoredCampaign) -> _Body:
    return (stored.entities, stored.relations, stored.chunks, stored.changes, stored.records)


def _same(header: dict[str, Any], expected: bytes) -> bool:
    """The header matches ``expected`` in everything but the revision."""
    wanted: dict[str, Any] = json.loads(expected)
    return {k: v for k, v in header.items() if k != "revision"} == wanted


def _ignored(campaign: str, name: str, why: str) -> None:
    logger.warning(
        "the read snapshot %s of campaign %r is ignored (%s); it is read again from the store",
        name, campaign, why,
    )  # fmt: skip


def _wanted(
    entities: Sequence[Entity], chunks: Sequence[Chunk], analytics: AnalyticsSnapshot | None
) -> dict[IndexKind, dict[str, tuple[str, Visibility]]]:
    """Per kind, every item id with the hash of the text it is embedded by and its
    visibility."""
    summaries: Sequence[CommunitySummary] = analytics.summaries if analytics else ()
    return {
        "entity": {e.id: (text_hash(entity_embedding_text(e)), e.visibility) for e in entities},
        "chunk": {c.id: (text_hash(chunk_embedding_text(c)), c.visibility) for c in chunks},
        "summary": {s.key: (text_hash(f"{s.title}\n{s.summary}"), s.visibility) for s in summaries},
    }
