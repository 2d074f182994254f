"""Shared fixtures: the real embedding model (loaded once) and the example campaign; and no
test ever touches a real store: every test gets ``LOREGRAPH_DATA_DIR`` and ``XDG_DATA_HOME``
(the per-user default's base) in a temporary folder, also for the processes it starts."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_core.ports import Embedder

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "emberfall"

# Set at import, before any fixture of any scope reads settings: whatever the developer's own
# environment says, the session's stores live here (a test that needs its own sets its own).
_SESSION_HOME = Path(tempfile.mkdtemp(prefix="loregraph-tests-"))
os.environ["LOREGRAPH_DATA_DIR"] = str(_SESSION_HOME / "data")
os.environ["XDG_DATA_HOME"] = str(_SESSION_HOME / "xdg")
os.environ.pop("LOREGRAPH_CONFIG", None)


@pytest.fixture(autouse=True)
def _private_store(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test's default store and per-user data dir are its own, in a temporary folder."""
    home = tmp_path_factory.mktemp("store")
    monkeypatch.setenv("LOREGRAPH_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg"))


@pytest.fixture(scope="session", autouse=True)
def _session_home() -> Iterator[Path]:
    yield _SESSION_HOME
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)


@pytest.fixture(scope="session")
def real_embedder() -> Embedder:
    from graphrag_core.providers.sentence_transformers import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


@pytest.fixture(scope="session")
def example_dir() -> Path:
    return EXAMPLE
