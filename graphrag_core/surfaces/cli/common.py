"""What every command group of the CLI shares: the consoles, the common options, the root
options (``--config``, ``--data-dir``, ``--verbose``) and opening the service. Every group
imports this module; none imports another group or the root app, so the CLI has no import cycle."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from graphrag_core.errors import LoregraphError
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings, load_settings
from graphrag_core.wiring import open_service

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

CampaignOpt = Annotated[
    str | None,
    typer.Option(
        "--campaign", "-c", help="Campaign id (default: LOREGRAPH_CAMPAIGN or 'default')."
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print stable JSON instead of a table.")]
PlayerOpt = Annotated[
    bool, typer.Option("--as-player", help="Player-facing: never show GM-only content.")
]
AsOfOpt = Annotated[
    int | None,
    typer.Option("--as-of", help="The world as of this session (changes after it are ignored)."),
]


@dataclass
class RootOptions:
    """The root command's options, set by its callback before any command runs."""

    config: Path | None = None
    data_dir: Path | None = None
    verbose: bool = False
    notice_shown: bool = False
    """Whether the data dir's notice (a legacy store) was printed in this command yet."""


root = RootOptions()


def cli_settings() -> Settings:
    """The settings, read with the root command's ``--config`` and ``--data-dir``; the data
    dir's notice (a legacy ``.loregraph`` in use) goes to stderr once per command."""
    overrides = {} if root.data_dir is None else {"data_dir": root.data_dir}
    settings = load_settings(root.config, **overrides)
    if settings.placement.notice and not root.notice_shown:
        root.notice_shown = True
        err.print(settings.placement.notice, markup=False, highlight=False)
    return settings


def fail(exc: LoregraphError) -> typer.Exit:
    """Print ``exc`` as the one-line error it is; the caller raises the returned exit."""
    err.print(f"[red]error:[/] {exc}")
    return typer.Exit(1)


@contextmanager
def cli_service() -> Iterator[tuple[LoregraphService, Settings]]:
    """The service on the configured store, closed on exit; a loregraph error is printed
    as one line and exits 1."""
    try:
        settings = cli_settings()
        with open_service(settings) as service:
            yield service, settings
    except LoregraphError as exc:
        raise fail(exc) from exc
