"""The read snapshot: what a campaign's first query needs, kept in files beside the store so a
new process reads it in a fraction of the time the store's client takes (a cache, safe to
delete; see :class:`~graphrag_core.ports.SnapshotFiles`).

The parts of a campaign, each keyed by the revision of what it is read from (see
:meth:`~graphrag_core.ports.StoreAdmin.world_revision`):

- ``world.json``: the entities, relations and chunks of the
  :class:`~.views.StoredCampaign`, ``analytics.json``: the analytics snapshot, and
  ``bm25-gm.npz`` / ``bm25-party.npz``: the BM25 indexes of the present-day views (they index
  entities and chunks only), each labelled with the store's *world* revision, which every
  write but the changelog's bumps: a post or a withdrawal leaves them valid;
- ``changelog.json``: the changes and change-set records, labelled with the campaign
  revision, which every write bumps (a post, a withdrawal too).

A part is used only when its revision is the store's current one (whichever process wrote).
The reader that had to read the store writes it, labelled with the revision it read *before*
reading (a write racing the read leaves a part that is never used); so does a build whose own
write is the only one since its read (:meth:`ReadSnapshot.after_build`). The world parts a
process read last are also kept in memory while their revision holds, so a post in this
process rereads only the changelog;
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
from graphrag_core.services.views import StoredCampaign
from ranking.lexical import LexicalIndex

_World = tuple[tuple[Entity, ...], tuple[Relation, ...], tuple[Chunk, ...]]
_Changelog = tuple[tuple[Change, ...], tuple[ChangeSetRecord, ...]]
_WORLD: TypeAdapter[_World] = TypeAdapter(_World)
_CHANGELOG: TypeAdapter[_Changelog] = TypeAdapter(_Changelog)
_ANALYTICS: TypeAdapter[AnalyticsSnapshot | None] = TypeAdapter(AnalyticsSnapshot | None)
T = TypeVar("T")


class ReadSnapshot:
    """The read snapshots of one store's campaigns."""

    def __init__(self, store: GraphStore, files: SnapshotFiles, embedder: Embedder) -> None:
        self._store = store
        self._files = files
        self._vectors = SnapshotVectors(store, files, embedder)
        # (campaign, part) -> (world revision, value): the world parts read last, in memory
        self._kept: dict[tuple[str, str], tuple[int, Any]] = {}

    # ------------------------------------------------------------ stored campaign, analytics

    def stored(self, campaign: str) -> StoredCampaign:
        """The stored campaign at the store's current revisions: each part from the snapshot
        when it has the revision its part depends on, else read from the store (and
        snapshotted)."""
        world, world_revision = self._part(
            campaign, "world.json", _WORLD_KEY, self._store.world_revision,
            lambda: _world(self._store, campaign), _WORLD.validate_json, _WORLD.dump_json,
        )  # fmt: skip
        changelog, revision = self._part(
            campaign, "changelog.json", _CHANGELOG_KEY, self._store.campaign_revision,
            lambda: _changelog(self._store, campaign),
            _CHANGELOG.validate_json, _CHANGELOG.dump_json,
        )  # fmt: skip
        return StoredCampaign(
            campaign, *world, *changelog, revision=revision, world_revision=world_revision
        )

    def analytics(self, campaign: str) -> AnalyticsSnapshot | None:
        """The stored analytics snapshot (None before a build), as :meth:`stored` reads."""
        return self._part(
            campaign, "analytics.json", _WORLD_KEY, self._store.world_revision,
            lambda: self._store.load_analytics(campaign),
            _ANALYTICS.validate_json, _ANALYTICS.dump_json,
        )[0]  # fmt: skip

    def lexical(self, stored: StoredCampaign, view: CampaignView) -> LexicalIndex:
        """The BM25 index of a view cut from ``stored``: kept (in memory and in a file) for the
        GM's and the players' present-day views, at the world revision ``stored`` was read at
        (the index holds entity and chunk text only, which no post changes)."""
        world = stored.world_revision
        if view.as_of_session is not None or world is None:
            return LexicalIndex.build(view)
        campaign, name = stored.campaign, f"bm25-{'party' if view.as_player else 'gm'}.npz"
        if (kept := self._still_kept(campaign, name, world)) is not None:
            index: LexicalIndex = kept[0]
            return index
        header = self._header(campaign, name, **{_WORLD_KEY: world})
        found = self._read_lexical(campaign, name, header)
        if found is None:
            found = LexicalIndex.build(view)
            self._write_lexical(campaign, name, header, found)
        self._kept[(campaign, name)] = (world, found)
        return found

    def _read_lexical(self, campaign: str, name: str, header: bytes) -> LexicalIndex | None:
        """The index in the file when its header is ``header`` (None: none usable)."""
        data = self._files.read(campaign, name)
        if data is None:
            return None
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                if json.loads(str(npz["meta"])) == json.loads(header):
                    return LexicalIndex.from_arrays({k: npz[k] for k in npz.files})
        except Exception:  # a damaged cache file: whatever numpy raises
            ignored(campaign, name, "unreadable")
        return None

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
        players' present-day ``views`` from it) at ``stored.world_revision`` and
        ``stored.revision``: when the store's world revision is now exactly one write later,
        that write was the build's own, so the world, the analytics and the BM25 indexes are
        the store's current state; snapshot them so that the next process's first query reads
        no store (and likewise the changelog, when no post came between either). Otherwise
        another write came between, and the next reader reads the store (as without a
        snapshot)."""
        campaign = stored.campaign
        world, revision = stored.world_revision, stored.revision
        if world is None or revision is None:
            return
        if self._store.world_revision(campaign) == world + 1:
            for name, value in (
                ("world.json", _WORLD.dump_json(_world_body(stored))),
                ("analytics.json", _ANALYTICS.dump_json(analytics)),
            ):
                self._write_part(campaign, name, _WORLD_KEY, world + 1, value)
            for view in views:
                name = f"bm25-{'party' if view.as_player else 'gm'}.npz"
                header = self._header(campaign, name, **{_WORLD_KEY: world + 1})
                self._write_lexical(campaign, name, header, LexicalIndex.build(view))
        if self._store.campaign_revision(campaign) == revision + 1:
            body = _CHANGELOG.dump_json((stored.changes, stored.records))
            self._write_part(campaign, "changelog.json", _CHANGELOG_KEY, revision + 1, body)

    def _part(
        self,
        campaign: str,
        name: str,
        key: str,
        current: Callable[[str], int],
        read: Callable[[], T],
        parse: Callable[[bytes], T],
        dump: Callable[[T], bytes],
    ) -> tuple[T, int]:
        """Part ``name`` at ``current(campaign)``, the store's revision named ``key`` (read
        before anything else: see the module): kept in memory (world parts), from its file, or
        read from the store and written."""
        revision = current(campaign)
        if (kept := self._still_kept(campaign, name, revision)) is not None:
            value: T = kept[0]
            return value, revision
        data = self._files.read(campaign, name)
        found: tuple[T] | None = None
        if data is not None:
            try:
                found = (parse(self._body(data, campaign, name, key, revision)),)
            except UnusablePartError as why:
                if str(why) != "stale":
                    ignored(campaign, name, str(why))
            except ValueError as exc:  # a truncated or altered body
                ignored(campaign, name, f"unreadable ({type(exc).__name__})")
        if found is None:
            found = (read(),)
            self._write_part(campaign, name, key, revision, dump(found[0]))
        if key == _WORLD_KEY:
            self._kept[(campaign, name)] = (revision, found[0])
        return found[0], revision

    def _still_kept(self, campaign: str, name: str, revision: int | None) -> tuple[Any] | None:
        """The value kept in memory for part ``name`` (as a 1-tuple) when it was kept at
        ``revision``; an older one is let go before anything is read."""
        kept = self._kept.pop((campaign, name), None)
        if kept is None or revision is None or kept[0] != revision:
            return None
        self._kept[(campaign, name)] = kept
        return (kept[1],)

    def _write_part(self, campaign: str, name: str, key: str, revision: int, body: bytes) -> None:
        """Write part ``name`` labelled with the store's revision named ``key``."""
        header = self._header(campaign, name, **{key: revision})
        self._files.write(campaign, name, header + b"\n" + body)

    def _header(self, campaign: str, part: str, **extra: object) -> bytes:
        return part_header(self._files, campaign, part, **extra)

    def _body(self, data: bytes, campaign: str, name: str, key: str, revision: int) -> bytes:
        """The part's body when its header matches this store, campaign and revision (named
        ``key``)."""
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
        if header.get(key) != revision:
            raise UnusablePartError("stale")
        return body

    # ------------------------------------------------------------ vectors (see .snapshot_vectors)

    def vectors(
        self, campaign: str, stored: StoredCampaign, analytics: AnalyticsSnapshot | None
    ) -> VectorIndex:
        """The kinds whose vector file holds every current item as it is now (kept in memory
        while the world revision and the analytics snapshot are the same)."""
        world = stored.world_revision
        if (kept := self._still_kept(campaign, "vectors", world)) is not None:
            held, index = kept[0]
            if held is analytics:
                found: VectorIndex = index
                return found
            self._kept.pop((campaign, "vectors"))
        index = self._vectors.vectors(campaign, stored, analytics)
        if world is not None:
            self._kept[(campaign, "vectors")] = (world, (analytics, index))
        return index

    def refresh_vectors(
        self,
        campaign: str,
        entities: Iterable[Entity],
        chunks: Iterable[Chunk],
        analytics: AnalyticsSnapshot | None,
        fresh: Mapping[str, Sequence[float]],
    ) -> None:
        """See :meth:`.snapshot_vectors.SnapshotVectors.refresh_vectors`."""
        self._kept.pop((campaign, "vectors"), None)
        self._vectors.refresh_vectors(campaign, entities, chunks, analytics, fresh)

    def delete(self, campaign: str) -> None:
        for key in [key for key in self._kept if key[0] == campaign]:
            self._kept.pop(key, None)
        self._files.delete(campaign)


_WORLD_KEY = "world"
"""The header field of a world part: the store's world revision it was read at."""
_CHANGELOG_KEY = "revision"
"""The header field of the changelog part: the store's campaign revision it was read at."""


def _world(store: GraphStore, campaign: str) -> _World:
    return (
        tuple(store.load_entities(campaign)),
        tuple(store.load_relations(campaign)),
        tuple(store.load_chunks(campaign)),
    )


def _changelog(store: GraphStore, campaign: str) -> _Changelog:
    return tuple(store.load_changes(campaign)), tuple(store.load_changesets(campaign))


def _world_body(stored: StoredCampaign) -> _World:
    return stored.entities, stored.relations, stored.chunks
