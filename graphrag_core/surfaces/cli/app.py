"""The ``loregraph`` command line: the root app, mounting one sub-app per command group.

Each group module (``ingest``, ``changelog``, ``query``, ``entity``, ``recap``, ``analytics``,
``store``, ``doctor``, ``demo``) holds a Typer app of its commands and imports only
:mod:`.common`, :mod:`.render` and the services; this module mounts them, one way
(``add_typer``), and nothing imports it back."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from graphrag_core.surfaces.cli import (
    agent_context,
    analytics,
    changelog,
    demo,
    doctor,
    entity,
    evaluation,
    help,
    ingest,
    mcp,
    query,
    recap,
    serve,
    shell,
    store,
)
from graphrag_core.surfaces.cli.common import root

app = typer.Typer(
    cls=help.PlainHelpGroup,
    help="loregraph: what is true in your campaign world right now, and what matters.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


@app.callback()
def main(
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            envvar="LOREGRAPH_CONFIG",
            metavar="FILE",
            help="TOML config file (default: the nearest loregraph.toml, here or above).",
        ),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            metavar="DIR",
            help="The embedded store's data dir (wins over LOREGRAPH_DATA_DIR and "
            "loregraph.toml; default: the per-user data dir). `loregraph where` shows it.",
        ),
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log what happens.")] = False,
) -> None:
    root.config = config
    root.data_dir = data_dir
    root.verbose = verbose
    root.notice_shown = False
    level = logging.INFO if verbose else logging.WARNING
    logging.basicConfig(level=level)
    logging.getLogger("bm25s").setLevel(level)  # bm25s sets itself to DEBUG
    # The Neo4j driver logs each failed routing attempt at ERROR; the CLI's own error says the
    # same once, with what to do, so the duplicate stays off the terminal.
    logging.getLogger("neo4j.pool").setLevel(logging.CRITICAL)


# Top-level commands (merged into the root), then the named groups.
for group in (
    ingest.app,
    query.app,
    agent_context.app,
    analytics.app,
    evaluation.app,
    store.app,
    doctor.app,
    demo.app,
    serve.app,
    shell.app,
    mcp.app,
):
    app.add_typer(group)
app.add_typer(changelog.app, name="changelog")
app.add_typer(query.campaign_app, name="campaign")
app.add_typer(entity.app, name="entity")
app.add_typer(recap.app, name="recap")
app.add_typer(serve.keys_app, name="keys")
help.apply(app)
