"""Every command's summary in a list of commands reads as one sentence: Typer's rich help
keeps a docstring's line breaks there, so without ``help.summary`` a wrapped first paragraph
showed up cut in mid-sentence ("with a chat" / "model configured, ...")."""

from __future__ import annotations

from typing import Any

import typer
from typer.testing import CliRunner

from graphrag_core.surfaces.cli.app import app
from graphrag_core.surfaces.cli.help import summary


def _commands(sub: typer.Typer, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found: list[tuple[tuple[str, ...], Any]] = [(path, c) for c in sub.registered_commands]
    for group in sub.registered_groups:
        if group.typer_instance is not None:
            name = group.name or group.typer_instance.info.name or ""
            found += _commands(group.typer_instance, (*path, str(name)))
    return found


def test_every_command_has_a_one_line_summary() -> None:
    commands = _commands(app)
    assert len(commands) > 20
    for path, command in commands:
        assert command.short_help, (path, command.name)
        assert "\n" not in command.short_help, (path, command.name)


def test_summary_joins_the_first_paragraph_only() -> None:
    assert summary("Ranked entities, with a chat\n  model configured.\n\nMore.") == (
        "Ranked entities, with a chat model configured."
    )
    assert summary(None) is None


def test_the_list_of_commands_shows_a_wrapped_summary_whole() -> None:
    done = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert done.exit_code == 0
    line = next(x for x in done.output.splitlines() if " ask " in x)
    assert "with a chat model configured" in line, line
