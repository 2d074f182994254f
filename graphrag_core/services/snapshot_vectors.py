"""The item vectors of a campaign's read snapshot (``vectors-<kind>.npz``: entity, chunk,
summary), kept with a hash of the text each one embeds, so a kind is searched in process only
while the file holds every current item as it is now (see :mod:`.read_snapshot`)."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from graphrag_core.analytics_models import AnalyticsSnapshot, CommunitySummary
from graphrag_core.models import Chunk, Entity, Visibility
from graphrag_core.ports import Embedder, GraphStore, SnapshotFiles
from graphrag_core.services.ingest import chunk_embedding_text, entity_embedding_text
from graphrag_core.services.snapshot_parts import UnusablePartError, ignored, part_header
from graphrag_core.services.vector_index import IndexKind, KindVectors, VectorIndex
from graphrag_core.services.views import StoredCampaign

VECTOR_KINDS: tuple[IndexKind, ...] = ("entity", "chunk", "summary")


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class SnapshotVectors:
    """Reads and writes the vector files of one store's campaigns."""

    def __init__(self, store: GraphStore, files: SnapshotFiles, embedder: Embedder) -> None:
        self._store = store
        self._files = files
        self._embedder = embedder

    def _header(self, campaign: str, part: str, **extra: object) -> bytes:
        return part_header(self._files, campaign, part, **extra)

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
                ignored(
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
