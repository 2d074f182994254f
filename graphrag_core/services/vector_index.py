"""Exact nearest-neighbour search in process, over a campaign's item vectors held as numpy
matrices (one per kind: entity, chunk, community summary), with the store's semantics: cosine
similarity, only the items of the asked visibilities, best first, ties by id.

:class:`SnapshotSearch` is what the ranker searches through: the matrices for the kinds the
read snapshot holds completely, the store for the others (a campaign whose vectors were never
snapshotted, an item embedded since).

A search multiplies on one BLAS thread: with two, OpenBLAS's second thread spins on the other
core for the rest of the query (a warm ``preview`` at 10k entities cost twice its wall time in
CPU), and when another process wants that core the query's p95 doubles
(``benchmarks/bench_ask_scale.py --busy``; docs/benchmarks.md)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from graphrag_core.models import ScoredId, Visibility
from graphrag_core.ports import SearchKind, VectorSearch

_POOLS: list[Any] = []
_POOLS_LOCK = threading.Lock()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """The process's BLAS pools limited to one thread for the block (their controller is
    looked up once: the lookup costs ~1 ms, entering the limit ~50 µs)."""
    with _POOLS_LOCK:
        if not _POOLS:
            from threadpoolctl import ThreadpoolController

            _POOLS.append(ThreadpoolController())
    with _POOLS[0].limit(limits=1, user_api="blas"):
        yield


IndexKind = str
"""``entity``, ``chunk`` or ``summary``."""


@dataclass
class KindVectors:
    """The unit-length vectors of one kind's items, a row per item, with their visibility."""

    ids: tuple[str, ...]
    visibility: np.ndarray
    matrix: np.ndarray
    _masks: dict[tuple[Visibility, ...], np.ndarray] = field(default_factory=dict)

    @classmethod
    def of(cls, rows: Mapping[str, tuple[Visibility, np.ndarray]], dimension: int) -> KindVectors:
        ids = tuple(sorted(rows))
        matrix = np.zeros((len(ids), dimension), dtype=np.float32)
        for row, item_id in enumerate(ids):
            matrix[row] = rows[item_id][1]
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix /= np.where(norms > 0.0, norms, 1.0)
        visibility = np.array([rows[i][0] for i in ids], dtype="U5")
        return cls(ids, visibility, matrix)

    def search(
        self, vector: Sequence[float], k: int, visibilities: Sequence[Visibility]
    ) -> list[ScoredId]:
        """The ``k`` most similar items of ``visibilities``, best first, ties by id."""
        mask = self._mask(tuple(visibilities))
        rows = np.flatnonzero(mask)
        if k <= 0 or len(rows) == 0:
            return []
        query = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            return []
        with one_blas_thread():
            scores = (self.matrix @ (query / norm))[rows]  # no copy of the matrix's rows
        if len(rows) > k:  # the k best, and every row tied with the k-th
            cutoff = np.partition(scores, len(rows) - k)[len(rows) - k]
            keep = scores >= cutoff
            rows, scores = rows[keep], scores[keep]
        order = sorted(range(len(rows)), key=lambda i: (-float(scores[i]), self.ids[rows[i]]))
        return [ScoredId(id=self.ids[rows[i]], score=float(scores[i])) for i in order[:k]]

    def _mask(self, visibilities: tuple[Visibility, ...]) -> np.ndarray:
        mask = self._masks.get(visibilities)
        if mask is None:
            mask = np.isin(self.visibility, np.array(visibilities, dtype="U5"))
            self._masks[visibilities] = mask
        return mask


@dataclass(frozen=True)
class VectorIndex:
    """One campaign's vectors, for the kinds the read snapshot holds completely."""

    campaign: str
    kinds: Mapping[IndexKind, KindVectors]


class SnapshotSearch:
    """:class:`~graphrag_core.ports.VectorSearch` over ``index`` where it holds the kind,
    through ``store`` otherwise."""

    def __init__(self, store: VectorSearch, index: VectorIndex | None) -> None:
        self._store = store
        self._index = index

    def vector_search(
        self,
        campaign: str,
        kind: SearchKind,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        held = self._held(campaign, kind)
        if held is None:
            return self._store.vector_search(campaign, kind, vector, k, visibilities)
        return held.search(vector, k, visibilities)

    def summary_search(
        self,
        campaign: str,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        held = self._held(campaign, "summary")
        if held is None:
            return self._store.summary_search(campaign, vector, k, visibilities)
        return held.search(vector, k, visibilities)

    def _held(self, campaign: str, kind: IndexKind) -> KindVectors | None:
        if self._index is None or self._index.campaign != campaign:
            return None
        return self._index.kinds.get(kind)
