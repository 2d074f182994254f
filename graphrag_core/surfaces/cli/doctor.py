"""``loregraph doctor``: which store is configured, whether it answers, its version, its
migrations and indexes. The checks are the health service's; this module renders them."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from graphrag_core.errors import LoregraphError
from graphrag_core.models import StoreHealth
from graphrag_core.surfaces.cli.common import cli_settings, fail, out
from graphrag_core.wiring import check_store_health

app = typer.Typer()


@app.command()
def doctor(
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Which store is configured, is it reachable, its version, are its migrations applied
    and its indexes present, online and of the embedder's vector dimension."""
    try:
        settings = cli_settings()
    except LoregraphError as exc:
        raise fail(exc) from exc
    health = check_store_health(settings)
    if as_json:
        out.print_json(json.dumps({**health.model_dump(mode="json"), "healthy": health.healthy}))
    else:
        _render_health(health)
    if not health.healthy:
        raise typer.Exit(1)


def _render_health(health: StoreHealth) -> None:
    mark = "[green]yes[/]" if health.reachable else "[red]no[/]"
    out.print(f"store:      {health.kind} at {health.where}")
    out.print(f"reachable:  {mark}")
    if health.reachable:
        out.print(f"version:    {health.version}")
        applied, expected = len(health.migrations_applied), len(health.migrations_expected)
        out.print(f"migrations: {applied} of {expected} applied")
        missing = ", ".join(health.indexes_missing)
        out.print(f"indexes:    {'all present' if not missing else 'missing: ' + missing}")
    for problem in health.problems:
        out.print(f"[red]problem:[/] {problem}")
    out.print("[green]healthy[/]" if health.healthy else "[red]not healthy[/]")
