"""``loregraph doctor``: which store is configured, whether it answers, its version, its
migrations and indexes. The checks are the health service's; this module renders them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from graphrag_core.errors import ConfigError, LoregraphError
from graphrag_core.models import StoreHealth
from graphrag_core.services.health import store_location
from graphrag_core.settings import PROJECT_FILE, Settings
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
    fresh = section.kind == "falkordb-embedded" and not holds_a_store(section.data_dir)
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


def holds_a_store(data_dir: Path) -> bool:
    """Whether the embedded engine has written anything in ``data_dir`` yet."""
    return (data_dir / "appendonlydir").is_dir() or (data_dir / "dump.rdb").is_file()


@app.command()
def where(
    as_json: Annotated[bool, typer.Option("--json", help="Print it as JSON.")] = False,
    init: Annotated[
        bool,
        typer.Option(
            "--init",
            help="Keep this store for this project: write its data_dir to loregraph.toml (the "
            "nearest one, or a new one next to a legacy .loregraph, or here).",
        ),
    ] = False,
) -> None:
    """Which store the commands use here, and why (--data-dir, LOREGRAPH_DATA_DIR, data_dir in
    the nearest loregraph.toml, a legacy .loregraph found here or above, or the per-user
    default)."""
    try:
        settings = cli_settings()
        written = _pin(settings) if init else None
    except LoregraphError as exc:
        raise fail(exc) from exc
    section = settings.store_section()
    embedded = section.kind == "falkordb-embedded"
    place = str(section.data_dir.resolve()) if embedded else store_location(section)
    held = not embedded or holds_a_store(section.data_dir)
    state = "exists" if held else "new (nothing there yet)"
    if as_json:
        report = {"kind": section.kind, "where": place, "why": settings.data_dir_origin}
        project = settings.placement.project_file
        extra = {"state": state, "project_file": str(project.resolve()) if project else None}
        out.print_json(json.dumps({**report, **extra, "written": written}))
        return
    out.print(f"store:    {section.kind} at {place}")
    if embedded:
        out.print(f"data dir: {settings.data_dir_origin}")
        out.print(f"state:    {state}")
    if written:
        out.print(f"wrote:    {written} (data_dir); this store is used from that folder and below")


def _pin(settings: Settings) -> str:
    """Write the data dir in use to a project file, so it no longer depends on where the
    command runs; returns the file written. Nothing moves: the store stays where it is."""
    placement = settings.placement
    if placement.source == "project":
        raise ConfigError(f"{placement.origin} already; nothing to write")
    target = placement.project_file
    if target is None:
        folder = settings.data_dir.parent if placement.source == "legacy" else Path.cwd()
        target = folder / PROJECT_FILE
    folder = target.resolve().parent
    data_dir = settings.data_dir.resolve()
    value = str(data_dir.relative_to(folder)) if data_dir.is_relative_to(folder) else str(data_dir)
    line = f"data_dir = {json.dumps(value)}  # written by `loregraph where --init`\n"
    before = target.read_text(encoding="utf-8") if target.is_file() else ""
    try:
        target.write_text(line + before, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write {target}: {exc.strerror}; write it by hand") from None
    return str(target.resolve())


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
