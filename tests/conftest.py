"""Shared fixtures: the real embedding model (loaded once) and the example campaign."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_core.ports import Embedder

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "emberfall"


@pytest.fixture(scope="session")
def real_embedder() -> Embedder:
    from graphrag_core.providers.sentence_transformers import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


@pytest.fixture(scope="session")
def example_dir() -> Path:
    return EXAMPLE
