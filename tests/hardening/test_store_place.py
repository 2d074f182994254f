"""The store a command uses does not depend on the folder it runs from. First that applies:
``--data-dir``, ``LOREGRAPH_DATA_DIR``, ``data_dir`` in the nearest ``loregraph.toml`` (found
by walking up, relative to that file), a legacy ``.loregraph`` found by walking up (used, with a
notice on stderr; ``loregraph where --init`` keeps it), the per-user data dir. ``loregraph
where`` says which store and why; ``doctor`` on a fresh data dir says it is new."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphrag_core.settings import load_settings, user_data_dir
from tests.hardening.cli import invoke
from tests.integration.cli_world import make_world

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def loregraph(cwd: Path, home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The real CLI in its own process, run from ``cwd``, with ``home`` as its per-user base
    and no ``LOREGRAPH_DATA_DIR`` unless given."""
    run_env = {k: v for k, v in os.environ.items() if k != "LOREGRAPH_DATA_DIR"}
    run_env |= {"XDG_DATA_HOME": str(home), "PYTHONPATH": str(ROOT), **env}
    return subprocess.run(
        [sys.executable, "-m", "graphrag_core.surfaces.cli", *args],
        cwd=cwd, env=run_env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def where(cwd: Path, home: Path, *args: str, **env: str) -> dict[str, str]:
    done = loregraph(cwd, home, *args, "where", "--json", **env)
    assert done.returncode == 0, done.stderr
    report: dict[str, str] = json.loads(done.stdout)
    return report


@pytest.fixture()
def nowhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """In-process: no ``LOREGRAPH_DATA_DIR``, the per-user base in ``tmp_path/xdg``."""
    monkeypatch.delenv("LOREGRAPH_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path


def test_the_tests_never_use_the_real_per_user_dir() -> None:
    real = Path.home() / ".local" / "share" / "loregraph"
    assert user_data_dir() != real and not user_data_dir().is_relative_to(Path.home())
    assert "LOREGRAPH_DATA_DIR" in os.environ
    assert not Path(os.environ["LOREGRAPH_DATA_DIR"]).is_relative_to(Path.home())


def test_the_default_is_the_per_user_dir_wherever_the_command_runs(tmp_path: Path) -> None:
    home = tmp_path / "xdg"
    for folder in (tmp_path / "a", tmp_path / "b" / "deeper"):
        folder.mkdir(parents=True)
        report = where(folder, home)
        assert report["where"] == str(home / "loregraph"), report
        assert "per-user default" in report["why"] and report["state"].startswith("new")
    assert not (home / "loregraph").exists(), "where created the store"


def test_precedence_flag_then_variable_then_project_file_then_per_user(
    nowhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = nowhere / "campaign"
    deeper = project / "notes" / "session 3"
    deeper.mkdir(parents=True)
    (project / "loregraph.toml").write_text('campaign = "emberfall"\ndata_dir = "store"\n')
    (nowhere / "legacy").mkdir()
    monkeypatch.chdir(deeper)
    found = load_settings()
    assert found.data_dir == project / "store", "data_dir is relative to the project file"
    assert found.campaign == "emberfall", "the project file's other settings apply too"
    assert found.placement.source == "project"
    monkeypatch.setenv("LOREGRAPH_DATA_DIR", str(nowhere / "env"))
    assert load_settings().data_dir == nowhere / "env"
    assert load_settings(data_dir=nowhere / "flag").data_dir == nowhere / "flag"
    monkeypatch.delenv("LOREGRAPH_DATA_DIR")
    monkeypatch.chdir(nowhere / "legacy")
    assert load_settings().data_dir == nowhere / "xdg" / "loregraph"


def test_precedence_through_the_real_cli(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / "sub").mkdir(parents=True)
    (project / "loregraph.toml").write_text('data_dir = "../kept"\n')
    home = tmp_path / "xdg"
    assert where(project / "sub", home)["where"] == str(tmp_path / "kept")
    by_env = where(project / "sub", home, LOREGRAPH_DATA_DIR=str(tmp_path / "env"))
    assert by_env["where"] == str(tmp_path / "env") and "LOREGRAPH_DATA_DIR" in by_env["why"]
    by_flag = where(
        project / "sub", home, "--data-dir", str(tmp_path / "flag"),
        LOREGRAPH_DATA_DIR=str(tmp_path / "env"),
    )  # fmt: skip
    assert by_flag["where"] == str(tmp_path / "flag") and "--data-dir" in by_flag["why"]


def test_a_legacy_store_is_kept_with_a_notice_until_where_init_pins_it(tmp_path: Path) -> None:
    """An existing ``./.loregraph`` is never swapped for an empty per-user store: it is used,
    a one-line notice says how to keep it, ``where --init`` writes the project file, and from
    then on it is found from any folder below with no notice. Nothing is moved or copied."""
    project, home = tmp_path / "old project", tmp_path / "xdg"
    world = make_world(tmp_path)
    project.mkdir()
    legacy = project / ".loregraph"
    ingested = invoke({"LOREGRAPH_DATA_DIR": str(legacy)}, "ingest", str(world), "-c", "cli")
    assert ingested.code == 0, ingested.output
    sub = project / "sessions"
    sub.mkdir()

    listed = loregraph(sub, home, "campaigns")
    assert listed.returncode == 0 and "cli" in listed.stdout, listed.stdout + listed.stderr
    notice = [line for line in listed.stderr.splitlines() if line.startswith("note:")]
    assert len(notice) == 1 and str(legacy) in notice[0] and "where --init" in notice[0]
    assert "note:" not in listed.stdout

    pinned = loregraph(sub, home, "where", "--init")
    assert pinned.returncode == 0, pinned.stderr
    assert (project / "loregraph.toml").read_text().startswith('data_dir = ".loregraph"')
    again = loregraph(sub, home, "campaigns")
    assert again.returncode == 0 and "cli" in again.stdout and "note:" not in again.stderr
    assert where(sub, home)["where"] == str(legacy)
    assert not (home / "loregraph").exists(), "the store was copied to the per-user dir"

    refused = loregraph(sub, home, "where", "--init")
    assert refused.returncode == 1 and "already" in refused.stderr


def test_where_init_keeps_an_existing_project_file(nowhere: Path) -> None:
    (nowhere / ".loregraph").mkdir()
    (nowhere / "loregraph.toml").write_text('campaign = "x"\n[ranking]\ninactive_factor = 0.2\n')
    done = loregraph(nowhere, nowhere / "xdg", "where", "--init")
    assert done.returncode == 0, done.stderr
    settings = loregraph(nowhere, nowhere / "xdg", "where", "--json")
    assert json.loads(settings.stdout)["where"] == str(nowhere / ".loregraph")
    text = (nowhere / "loregraph.toml").read_text()
    assert 'campaign = "x"' in text and "inactive_factor = 0.2" in text


def test_where_names_the_variable_that_chose_the_store(env: dict[str, str]) -> None:
    done = invoke(env, "where")
    assert done.code == 0 and env["LOREGRAPH_DATA_DIR"] in done.output, done.output
    assert "LOREGRAPH_DATA_DIR" in done.output and "new" in done.output


def test_doctor_on_a_fresh_data_dir_says_it_is_new(env: dict[str, str]) -> None:
    done = invoke(env, "doctor")
    assert done.code == 0, done.output
    assert "not healthy" not in done.output and "new" in done.output, done.output
    assert "will be initialised" in done.output or "initialised by" in done.output


def test_doctor_on_the_fresh_per_user_dir_and_an_empty_folder(tmp_path: Path) -> None:
    home = tmp_path / "xdg"
    fresh = loregraph(tmp_path, home, "doctor")
    assert fresh.returncode == 0 and "new" in fresh.stdout, fresh.stdout + fresh.stderr
    assert str(home / "loregraph") in fresh.stdout and "not healthy" not in fresh.stdout
    (tmp_path / "empty").mkdir()
    empty = loregraph(tmp_path, home, "--data-dir", str(tmp_path / "empty"), "doctor")
    assert empty.returncode == 0 and "new" in empty.stdout, empty.stdout + empty.stderr
