"""The in-process vector search multiplies on one BLAS thread and leaves the process's BLAS
threads as it found them (two threads spun the second core through the rest of a query)."""

from __future__ import annotations

import numpy as np
from threadpoolctl import ThreadpoolController

from graphrag_core.services.vector_index import KindVectors, one_blas_thread


def _blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in ThreadpoolController().select(user_api="blas").info()]


def test_the_block_runs_on_one_blas_thread_and_restores_the_count() -> None:
    before = _blas_threads()
    assert before, "numpy ships an OpenBLAS; threadpoolctl must see it"
    with one_blas_thread():
        assert _blas_threads() == [1] * len(before)
    assert _blas_threads() == before


def test_a_search_on_one_thread_still_ranks_by_cosine_and_visibility() -> None:
    rng = np.random.default_rng(7)
    rows = {f"e{i:03d}": ("party", rng.standard_normal(8).astype(np.float32)) for i in range(300)}
    rows["secret"] = ("gm", np.ones(8, dtype=np.float32))
    rows["close"] = ("party", np.ones(8, dtype=np.float32) * 2 + 0.01)
    vectors = KindVectors.of(rows, 8)  # type: ignore[arg-type]
    before = _blas_threads()
    party = vectors.search([1.0] * 8, 3, ["party"])
    assert party[0].id == "close" and "secret" not in {hit.id for hit in party}
    assert vectors.search([1.0] * 8, 1, ["party", "gm"])[0].id in {"secret", "close"}
    assert _blas_threads() == before
