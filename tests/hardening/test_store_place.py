"""The store a command uses does not depend on the folder it runs from: an existing
``.loregraph`` in a parent folder is found by walking up; ``loregraph where`` says which store
is used and why; ``doctor`` on a fresh data dir says it is new, not "not healthy"."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_core.settings import load_settings
from tests.hardening.cli import invoke

pytestmark = pytest.mark.integration


def test_a_store_in_a_parent_folder_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".loregraph").mkdir()
    deeper = tmp_path / "notes" / "session 3"
    deeper.mkdir(parents=True)
    monkeypatch.chdir(deeper)
    monkeypatch.delenv("LOREGRAPH_DATA_DIR", raising=False)
    assert load_settings().data_dir == tmp_path / ".loregraph"
    done = invoke({}, "where")
    assert done.code == 0 and str(tmp_path / ".loregraph") in done.output, done.output
    assert "found in a parent folder" in done.output


def test_where_names_the_variable_that_chose_the_store(env: dict[str, str]) -> None:
    done = invoke(env, "where")
    assert done.code == 0 and env["LOREGRAPH_DATA_DIR"] in done.output, done.output
    assert "LOREGRAPH_DATA_DIR" in done.output and "new" in done.output


def test_doctor_on_a_fresh_data_dir_says_it_is_new(env: dict[str, str]) -> None:
    done = invoke(env, "doctor")
    assert done.code == 0, done.output
    assert "not healthy" not in done.output and "new" in done.output, done.output
