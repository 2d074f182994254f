"""The numpy query encoder gives sentence-transformers' vectors (the real model files, both
ways) and so the same rankings; a query path never imports PyTorch."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from graphrag_core.config import EmbeddingSettings
from graphrag_core.ports import Embedder
from graphrag_core.providers.numpy_minilm import NumpyMiniLM, QuerySplitEmbedder
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files
from graphrag_core.wiring import build_embedder, open_service

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]

TEXTS = (
    "Where can the party rest tonight?",
    "Who leads the Merchants' Guild?",
    "Is Torven alive?",
    "Who killed Tobiah?",
    "What happened at the Red Oak Tavern?",
    "Which inn near Millbrook is safe?",
    "Tell me about the Ember Crown.",
    "Who are our enemies?",
    "Who are our allies?",
    "Queen Maris now rules Harrowgate.",
    "Aldo married Bree in session 4.",
    "Kell left the party after the fire.",
    "x",
    "?",
    "",
    " ",
    "a",
    "The",
    "12345 67890",
    "session 8: the dragon burned the granary",
    "ÉMBERFALL — Ünïcödé names: Æthelred, Søren, Zoë",
    "火龍の巣はどこ？",
    "Кто правит Харроугейтом?",
    "🐉🔥 the dragon's lair 🏰",
    "WHO IS THE SPY IN THE GUILD",
    "who is the spy in the guild",
    "don't trust the ferryman; he's a smuggler (GM only)",
    "A" * 300,
    "word " * 300,
    "the quick brown fox jumps over the lazy dog " * 40,
    "Hesper Vantrell, master of the guild, vanished after the fire at the docks.",
    "NPC 5 of group 0, known for trade.",
    "Location 8 met e-000123 and e-000456 at the market.",
    "relations: allied_with, hostile_to, member_of, located_in",
    "Line one\nLine two\n\tTabbed line three",
    "<b>html</b> &amp; markdown **bold** _it_ `code`",
    '{"json": ["is", "text", 2]}',
    "SELECT * FROM users; DROP TABLE campaigns; --",
    "https://example.com/lore/harrowgate?page=2#rulers",
    "Dr. Smith's 3rd-level spell (fireball, 8d6) hit 4 goblins.",
    "the the the the the",
    "Ye olde inne, whereat ye weary traveller may reste",
    "An ancient evil stirs beneath the Whispering Hills.",
    "What did the party learn in session 3?",
    "Which factions are hostile to the Greycloaks?",
    "Is the Hearthstone Shrine still standing?",
    "Can we buy healing potions anywhere?",
    "Who knows the way through the marsh?",
    "The bridge at Cinderford was destroyed by the flood.",
    "Bree's brother owes the Thieves' Guild 300 gold.",
)


@pytest.fixture(scope="module")
def numpy_encoder() -> NumpyMiniLM:
    return NumpyMiniLM()


def test_fifty_varied_texts_embed_as_sentence_transformers_does(
    real_embedder: Embedder, numpy_encoder: NumpyMiniLM
) -> None:
    assert len(TEXTS) == 50
    ours = np.array(numpy_encoder.embed(list(TEXTS)))
    theirs = np.array(real_embedder.embed(list(TEXTS)))
    assert ours.shape == theirs.shape == (50, 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() >= 0.9999, [TEXTS[i] for i in np.flatnonzero(cosines < 0.9999)]


def test_the_split_embedder_sends_queries_to_numpy_and_batches_to_the_bulk_model(
    real_embedder: Embedder, numpy_encoder: NumpyMiniLM
) -> None:
    split = QuerySplitEmbedder(real_embedder, numpy_encoder)
    assert split.embed([]) == []
    assert split.embed(["Who killed Tobiah?"]) == numpy_encoder.embed(["Who killed Tobiah?"])
    batch = [f"text {i}" for i in range(6)]
    assert split.embed(batch) == real_embedder.embed(batch)
    assert (split.model_id, split.dimension) == (real_embedder.model_id, 384)


def test_the_setting_picks_the_query_encoder() -> None:
    assert isinstance(build_embedder(Settings()), QuerySplitEmbedder)
    torch_only = Settings(embedding=EmbeddingSettings(query_encoder="sentence-transformers"))
    assert not isinstance(build_embedder(torch_only), QuerySplitEmbedder)


def test_rankings_are_the_same_with_either_query_encoder(
    tmp_path: Path, real_embedder: Embedder, example_dir: Path, numpy_encoder: NumpyMiniLM
) -> None:
    world = tmp_path / "emberfall"
    shutil.copytree(example_dir, world)
    questions = [
        q["question"]
        for q in yaml.safe_load((world / "questions.yaml").read_text(encoding="utf-8"))["questions"]
    ]
    assert len(questions) >= 8
    data = Settings(data_dir=tmp_path / "data")
    with open_service(data, embedder=real_embedder) as svc:
        svc.ingest(world / "world", "emberfall")
        for file in changelog_files(world):
            svc.post_changelog(file, "emberfall")
        svc.build("emberfall")
        before = [svc.ask(q, "emberfall", k=10) for q in questions]
    split = QuerySplitEmbedder(real_embedder, numpy_encoder)
    with open_service(data, embedder=split) as svc:
        after = [svc.ask(q, "emberfall", k=10) for q in questions]
    for old, new in zip(before, after, strict=True):
        assert [r.id for r in new.results] == [r.id for r in old.results], old.question
        for a, b in zip(old.results, new.results, strict=True):
            assert b.score == pytest.approx(a.score, abs=1e-4)


def test_a_query_with_the_numpy_encoder_imports_no_torch(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from graphrag_core.settings import Settings\n"
        "from graphrag_core.wiring import build_embedder\n"
        "embedder = build_embedder(Settings())\n"
        "vector = embedder.embed(['Where can the party rest?'])[0]\n"
        "assert len(vector) == 384\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('torch', 'transformers', 'sentence_transformers')))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert run.stdout.strip() == "[]", run.stdout[:500]
