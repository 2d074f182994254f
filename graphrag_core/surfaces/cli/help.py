"""How ``--help`` reads: arguments by upper-case name (``loregraph ask QUESTION``, not
``{question}``), and flags without a type (``--json``, not ``--json <bool>``).

Typer draws a required argument as ``{name}`` and every option with its type, flags included.
``PlainHelpCommand`` and ``PlainHelpGroup`` adjust that; ``apply`` gives them to every command
and group of an app that uses Typer's default class. It also gives every command a one-line
short help (its docstring's first paragraph, line breaks removed): in its list of commands,
Typer's rich help keeps the docstring's line breaks, which cut a summary in mid-sentence.
"""

from __future__ import annotations

import inspect
import re
from typing import Any, TypeVar

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.models import DefaultPlaceholder

P = TypeVar("P")


def _plain(params: list[P]) -> list[P]:
    for param in params:
        if isinstance(param, TyperArgument) and param.metavar is None and param.name:
            param.metavar = param.name.upper()
        elif isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""  # a flag takes no value: show no type
    return params


_REQUIRED = re.compile(r"^\{([^{}]*)\}(\.\.\.)?$")


def _usage(pieces: list[str]) -> list[str]:
    """``{NAME}`` and ``{NAMES}...`` become ``NAME`` and ``NAMES...``."""
    return [_REQUIRED.sub(r"\1\2", piece) for piece in pieces]


class _PlainHelp:
    """Plain help and usage; mixed in before Typer's command or group class, whose methods
    these wrap (Typer's click is private, so the base is typed ``Any``)."""

    def get_params(self, ctx: Any) -> Any:
        base: Any = super()
        return _plain(base.get_params(ctx))

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        base: Any = super()
        return _usage(base.collect_usage_pieces(ctx))


class PlainHelpCommand(_PlainHelp, TyperCommand):
    """A Typer command with plain help."""


class PlainHelpGroup(_PlainHelp, TyperGroup):
    """A Typer group with plain help."""


def apply(app: typer.Typer) -> None:
    """Give the plain-help classes to every command and sub-app of ``app`` that uses Typer's
    default class."""
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):
            command.cls = PlainHelpCommand
        if command.short_help is None:
            command.short_help = summary(command.help or _doc(command.callback))
    for group in app.registered_groups:
        sub: Any = group.typer_instance
        if sub is None:
            continue
        if _default(group.cls) and _default(sub.info.cls):
            sub.info.cls = PlainHelpGroup
        apply(sub)


def _default(cls: object) -> bool:
    return cls is None or cls is TyperGroup or isinstance(cls, DefaultPlaceholder)


def summary(help_text: str | None) -> str | None:
    """The first paragraph of ``help_text`` on one line (None when there is none)."""
    if not help_text:
        return None
    first = inspect.cleandoc(help_text).partition("\f")[0].split("\n\n")[0]
    return " ".join(first.split()) or None


def _doc(callback: object) -> str | None:
    return inspect.getdoc(callback) if callback is not None else None
