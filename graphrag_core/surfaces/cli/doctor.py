"""``loregraph doctor``: which store is configured, whether it answers, its version, its
migrations and indexes. The checks are the health service's; this module renders them."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from graphrag_core.errors import LoregraphError
from graphrag_core.models import StoreHealth
from graphrag_core.services.health import store_location
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
    section = settings.store_section()
    fresh = section.kind == "falkordb-embedded" and not section.data_dir.exists()
    health = check_store_health(settings)
    fresh = fresh and health.reachable and not health.migrations_applied
    if as_json:
        report = {**health.model_dump(mode="json"), "healthy": health.healthy or fresh}
        out.print_json(json.dumps({**report, "new": fresh}))
    elif fresh:
        out.print(f"store:      {health.kind} at {section.data_dir.resolve()}")
        out.print(f"data dir:   {settings.data_dir_origin or 'as configured'}")
        out.print(
            "[green]new[/]: nothing stored here yet; the store is initialised by the first "
            "command that writes (ingest, changelog post)"
        )
    else:
        _render_health(health)
    if not (health.healthy or fresh):
        raise typer.Exit(1)


@app.command()
def where(
    as_json: Annotated[bool, typer.Option("--json", help="Print it as JSON.")] = False,
) -> None:
    """Which store the commands use here, and why (a variable, the config file, a .loregraph
    found in this folder or one above it, or the default)."""
    try:
        settings = cli_settings()
    except LoregraphError as exc:
        raise fail(exc) from exc
    section = settings.store_section()
    embedded = section.kind == "falkordb-embedded"
    place = str(section.data_dir.resolve()) if embedded else store_location(section)
    state = "exists" if not embedded or section.data_dir.exists() else "new (nothing there yet)"
    if as_json:
        report = {"kind": section.kind, "where": place, "why": settings.data_dir_origin}
        out.print_json(json.dumps({**report, "state": state}))
        return
    out.print(f"store:    {section.kind} at {place}")
    if embedded:
        out.print(f"data dir: {settings.data_dir_origin}")
        out.print(f"state:    {state}")


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
