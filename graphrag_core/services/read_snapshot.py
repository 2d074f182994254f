"""The read snapshot: what a campaign's first query needs, kept in files beside the store so a
new process reads it in a fraction of the time the store's client takes (a cache, safe to
delete; see :class:`~graphrag_core.ports.SnapshotFiles`).

The parts of a campaign:

- ``stored.json``: the :class:`~.views.StoredCampaign` (entities, relations, chunks, changes,
  change-set records), ``analytics.json``: the analytics snapshot, and ``bm25-gm.npz`` /
  ``bm25-party.npz``: the BM25 indexes of the present-day views. Each names the format, the
  store and the campaign revision it was read at; it is used only when that revision is the
  store's current one (every write bumps it, whichever process wrote). The reader that had to
  read the store writes them, labelled with the revision it read *before* reading (a write
  racing the read leaves a part that is never used); so does a build whose own write is the
  only one since its read (:meth:`ReadSnapshot.after_build`);
- ``vectors-<kind>.npz`` (entity, chunk, summary, :mod:`.snapshot_vectors`): each item's
  vector with a hash of the text it embeds, written by the process that has the vectors in hand
  (ingest, build). A kind is searched in process only when the file holds every current item
  with the hash of its current text; otherwise the store searches it, as without a snapshot.

A part that is unreadable, truncated, of another format, store, campaign or embedding model is
ignored with a one-line warning and rewritten: never a crash, never a wrong answer. Player
views are cut from the same stored campaign as without the snapshot (see :mod:`.views`)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
from pydantic import TypeAdapter

from graphrag_core.analytics_models import AnalyticsSnapshot
from graphrag_core.models import CampaignView, Change, ChangeSetRecord, Chunk, Entity, Relation
from graphrag_core.ports import Embedder, GraphStore, SnapshotFiles
from graphrag_core.services.snapshot_parts import (
    UnusablePartError,
    ignored,
    part_header,
    same_but_revision,
)
from graphrag_core.services.snapshot_vectors import SnapshotVectors
from graphrag_core.services.vector_index import VectorIndex
from graphrag_core.services.views import StoredCampaign, load_stored
from ranking.lexical import LexicalIndex

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


class ReadSnapshot:
    """The read snapshots of one store's campaigns."""

    def __init__(self, store: GraphStore, files: SnapshotFiles, embedder: Embedder) -> None:
        self._store = store
        self._files = files
        self._vectors = SnapshotVectors(store, files, embedder)

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
                ignored(stored.campaign, name, "unreadable")
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
                    ignored(campaign, name, str(why))
            except ValueError as exc:  # a truncated or altered body
                ignored(campaign, name, f"unreadable ({type(exc).__name__})")
        value = read()
        header = self._header(campaign, name, revision=revision)
        self._files.write(campaign, name, header + b"\n" + dump(value))
        return value, revision

    def _header(self, campaign: str, part: str, **extra: object) -> bytes:
        return part_header(self._files, campaign, part, **extra)

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
        if not same_but_revision(header, self._header(campaign, name)):
            raise UnusablePartError("written by another format, store or campaign")
        if header.get("revision") != revision:
            raise UnusablePartError("stale")
        return body

    # ------------------------------------------------------------ vectors (see .snapshot_vectors)

    def vectors(
        self, campaign: str, stored: StoredCampaign, analytics: AnalyticsSnapshot | None
    ) -> VectorIndex:
        """The kinds whose vector file holds every current item as it is now."""
        return self._vectors.vectors(campaign, stored, analytics)

    def refresh_vectors(
        self,
        campaign: str,
        entities: Iterable[Entity],
        chunks: Iterable[Chunk],
        analytics: AnalyticsSnapshot | None,
        fresh: Mapping[str, Sequence[float]],
    ) -> None:
        """See :meth:`.snapshot_vectors.SnapshotVectors.refresh_vectors`."""
        self._vectors.refresh_vectors(campaign, entities, chunks, analytics, fresh)

    def delete(self, campaign: str) -> None:
        self._files.delete(campaign)


def _stored_body(stored: StoredCampaign) -> _Body:
    return (stored.entities, stored.relations, stored.chunks, stored.changes, stored.records)
