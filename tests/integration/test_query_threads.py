"""Query-time embedding runs with its own PyTorch thread count and leaves the process's as it
was (the real model and torch)."""

from __future__ import annotations

import pytest
import torch

from graphrag_core.providers.sentence_transformers import (
    SentenceTransformerEmbedder,
    _torch_threads,
)

pytestmark = pytest.mark.integration


def test_the_thread_count_is_set_for_the_block_and_restored() -> None:
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        with _torch_threads(1):
            assert torch.get_num_threads() == 1
        assert torch.get_num_threads() == 2
        with _torch_threads(None):
            assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_a_query_embeds_the_same_with_one_thread_and_restores_the_count() -> None:
    before = torch.get_num_threads()
    embedder = SentenceTransformerEmbedder(query_threads=1)
    embedder.start_loading()
    one = embedder.embed(["Where can the party rest?"])[0]
    assert torch.get_num_threads() == before
    batch = embedder.embed(["Where can the party rest?", *["filler"] * 5])[0]
    assert one == pytest.approx(batch, abs=1e-5)
    assert len(one) == embedder.dimension
