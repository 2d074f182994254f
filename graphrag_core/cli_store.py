"""Store commands of the ``loregraph`` CLI: ``migrate`` (copy campaigns between stores) and
``doctor`` (is the configured store reachable and ready). Hooked in by ``register``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.console import Console
from rich.table import Table

from graphrag_core.errors import ConfigError, LoregraphError, StoreError
from graphrag_core.models import StoreHealth
from graphrag_core.settings import Settings, StoreSettings, load_settings
from graphrag_core.store_migration import PartReport, copy_campaign, vector_dimension
from graphrag_core.wiring import build_store

StoreKind = Literal["falkordb-embedded", "falkordb", "neo4j"]
_ANY_DIMENSION = 384  # reads and health checks do not depend on the vector dimension
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def _settings(ctx: typer.Context) -> Settings:
    config = ctx.find_root().params.get("config")
    return load_settings(config)


def _target(
    kind: StoreKind, settings: Settings, url: str | None, data_dir: Path | None, **neo4j: str | None
) -> StoreSettings:
    fields = {key: value for key, value in neo4j.items() if value is not None}
    section = StoreSettings(
        kind=kind,
        data_dir=data_dir or settings.data_dir,
        graph_name=settings.graph_name,
        falkordb_url=url,
        **fields,
    )
    if section == settings.store_section():
        raise ConfigError("the target is the configured store itself: name another one")
    return section


def migrate(
    ctx: typer.Context,
    to: Annotated[StoreKind, typer.Option("--to", help="The kind of the target store.")],
    to_url: Annotated[str | None, typer.Option(help="Target FalkorDB server URL.")] = None,
    to_data_dir: Annotated[
        Path | None, typer.Option(help="Target data dir (embedded target).")
    ] = None,
    to_neo4j_uri: Annotated[str | None, typer.Option(help="Target Neo4j URI.")] = None,
    to_neo4j_user: Annotated[str | None, typer.Option(help="Target Neo4j user.")] = None,
    to_neo4j_password: Annotated[
        str | None, typer.Option(envvar="LOREGRAPH_TO_NEO4J_PASSWORD", help="Target password.")
    ] = None,
    to_neo4j_database: Annotated[str | None, typer.Option(help="Target Neo4j database.")] = None,
    campaign: Annotated[
        str | None, typer.Option("--campaign", "-c", help="Campaign to copy.")
    ] = None,
    all_campaigns: Annotated[bool, typer.Option("--all", help="Copy every campaign.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Copy campaigns from the configured store to another and verify counts and checksums.

    Safe to run again after an interruption: every write is an idempotent upsert."""
    try:
        settings = _settings(ctx)
        target_section = _target(
            to, settings, to_url, to_data_dir,
            neo4j_uri=to_neo4j_uri, neo4j_user=to_neo4j_user,
            neo4j_password=to_neo4j_password, neo4j_database=to_neo4j_database,
        )  # fmt: skip
        reports = _run_migration(settings, target_section, campaign, all_campaigns)
    except LoregraphError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1) from exc
    _render_migration(reports, as_json)
    if not all(report.ok for report in reports):
        raise typer.Exit(2)


def _run_migration(
    settings: Settings, target_section: StoreSettings, campaign: str | None, every: bool
) -> list[PartReport]:
    source = build_store(settings.store_section(), _ANY_DIMENSION)
    try:
        names = source.list_campaigns() if every else [campaign or settings.campaign]
        if not names:
            raise StoreError("the configured store holds no campaign: nothing to copy")
        target = build_store(target_section, vector_dimension(source, names, _ANY_DIMENSION))
        try:
            target.migrate()
            return [report for name in names for report in copy_campaign(source, target, name)]
        finally:
            target.close()
    finally:
        source.close()


def _render_migration(reports: list[PartReport], as_json: bool) -> None:
    if as_json:
        rows = [{**r.model_dump(), "ok": r.ok} for r in reports]
        out.print_json(json.dumps(rows))
        return
    table = Table("campaign", "part", "source", "target", "checksum (sha256)", "")
    for r in reports:
        same = r.source_checksum == r.target_checksum
        shown = (
            r.source_checksum[:16]
            if same
            else f"{r.source_checksum[:16]} ≠ {r.target_checksum[:16]}"
        )
        table.add_row(
            r.campaign, r.part, str(r.source_count), str(r.target_count), shown,
            "[green]ok[/]" if r.ok else "[red]MISMATCH[/]",
        )  # fmt: skip
    out.print(table)
    if not all(r.ok for r in reports):
        err.print(
            "[red]the target differs from the source.[/] Run the same command again; if the "
            "target held this campaign before, delete it there first and copy again."
        )


def doctor(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Which store is configured, is it reachable, its version, are its indexes in place."""
    try:
        section = _settings(ctx).store_section()
    except LoregraphError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1) from exc
    health = _health(section)
    if as_json:
        out.print_json(json.dumps({**health.model_dump(mode="json"), "healthy": health.healthy}))
    else:
        _render_health(health)
    if not health.healthy:
        raise typer.Exit(1)


def _health(section: StoreSettings) -> StoreHealth:
    try:
        store = build_store(section, _ANY_DIMENSION)
    except LoregraphError as exc:
        where = section.neo4j_uri or section.falkordb_url or str(section.data_dir)
        return StoreHealth(kind=section.kind, where=where, reachable=False, problems=(str(exc),))
    try:
        return store.health()
    finally:
        store.close()


def _render_health(health: StoreHealth) -> None:
    mark = "[green]yes[/]" if health.reachable else "[red]no[/]"
    out.print(f"store:      {health.kind} at {health.where}")
    out.print(f"reachable:  {mark}")
    if health.reachable:
        out.print(f"version:    {health.version}")
        applied, expected = len(health.migrations_applied), len(health.migrations_expected)
        out.print(f"migrations: {applied} of {expected} applied")
        out.print(f"indexes:    {'all present' if not health.indexes_missing else 'missing'}")
    for problem in health.problems:
        out.print(f"[red]problem:[/] {problem}")
    out.print("[green]healthy[/]" if health.healthy else "[red]not healthy[/]")


def register(app: typer.Typer) -> None:
    app.command()(migrate)
    app.command()(doctor)
