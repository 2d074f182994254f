"""Bad configuration gives a one-line error naming the key or variable and what to do, exit
code 1 and no traceback; nothing starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphrag_core.surfaces.cli.app import app


def _run(tmp_path: Path, *args: str, **env: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, list(args), env={"LOREGRAPH_DATA_DIR": str(tmp_path / "data"), **env}
    )
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.output


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_unknown_key_in_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "loregraph.toml").write_text("bogus = 1\n[ranking]\ninactive_factr = 0.2\n")
    code, output = _run(tmp_path, "campaigns")
    assert code == 1
    assert "loregraph.toml: key 'bogus' is not a setting" in output
    assert "key 'ranking.inactive_factr' is not a setting" in output and "inactive_factor" in output
    assert "Traceback" not in output


def test_bad_value_in_the_environment(tmp_path: Path) -> None:
    code, output = _run(tmp_path, "campaigns", LOREGRAPH_RANKING__INACTIVE_FACTOR="abc")
    assert code == 1
    assert "LOREGRAPH_RANKING__INACTIVE_FACTOR='abc'" in output
    assert "fix or unset that variable" in output


def test_bad_value_in_the_config_file(tmp_path: Path) -> None:
    (tmp_path / "custom.toml").write_text('store = "sqlite"\n')
    code, output = _run(tmp_path, "--config", "custom.toml", "campaigns")
    assert code == 1
    assert "custom.toml: store = 'sqlite'" in output and "falkordb-embedded" in output


def test_a_missing_config_file_is_an_error(tmp_path: Path) -> None:
    code, output = _run(tmp_path, "--config", "nope.toml", "campaigns")
    assert code == 1
    assert "config file nope.toml does not exist" in output
    assert not (tmp_path / "data").exists() and not (tmp_path / ".loregraph").exists()


def test_malformed_toml(tmp_path: Path) -> None:
    (tmp_path / "loregraph.toml").write_text('campaign = "unclosed\n')
    code, output = _run(tmp_path, "doctor")
    assert code == 1
    assert "loregraph.toml: invalid TOML" in output and "fix the syntax" in output
