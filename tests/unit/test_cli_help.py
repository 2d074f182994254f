"""``--help`` reads plainly: upper-case argument names, no type on flags, no RST markup, and
``entity --help`` documents ``entity NAME``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from graphrag_core.surfaces.cli.app import app

COMMANDS = [
    ["ask"], ["ingest"], ["entity"], ["entity", "show"], ["entity", "split"], ["changelog", "post"],
    ["communities"], ["demo"], [],
]  # fmt: skip


def _help(*command: str) -> str:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_has_no_bool_metavars_braces_or_rst(command: list[str]) -> None:
    text = _help(*command)
    assert "<bool>" not in text
    assert "{" not in text and "}" not in text
    assert "``" not in text


def test_arguments_are_named_in_upper_case() -> None:
    assert "ask [OPTIONS] QUESTION" in _help("ask")
    assert "ingest [OPTIONS] PATH" in _help("ingest")
    assert "ENTITY NAMES..." in _help("entity", "split")


def test_entity_help_documents_entity_name() -> None:
    text = " ".join(_help("entity").split())
    assert "loregraph entity NAME" in text
    assert "NAME | COMMAND" in text
