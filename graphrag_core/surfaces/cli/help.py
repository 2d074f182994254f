"""How ``--help`` reads: arguments by upper-case name (``loregraph ask QUESTION``, not
``{question}``), and flags without a type (``--json``, not ``--json <bool>``).

Typer draws a required argument as ``{name}`` and every option with its type, flags included.
``PlainHelpCommand`` and ``PlainHelpGroup`` adjust that; ``apply`` gives them to every command
and group of an app that uses Typer's default class.
"""

from __future__ import annotations

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
    for group in app.registered_groups:
        sub: Any = group.typer_instance
        if sub is None:
            continue
        if _default(group.cls) and _default(sub.info.cls):
            sub.info.cls = PlainHelpGroup
        apply(sub)


def _default(cls: object) -> bool:
    return cls is None or cls is TyperGroup or isinstance(cls, DefaultPlaceholder)
