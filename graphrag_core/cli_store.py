"""Store commands of the ``loregraph`` CLI: ``migrate`` (copy campaigns between stores) and
``doctor`` (``cli_doctor``: is the configured store reachable and ready). Hooked in by
``register``."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.console import Console
from rich.table import Table

from graphrag_core.cli_doctor import doctor, root_settings
from graphrag_core.errors import ConfigError, LoregraphError, StoreError
from graphrag_core.settings import Settings, StoreSettings
from graphrag_core.store_migration import PartReport, copy_campaign, vector_dimension
from graphrag_core.stores.uris import redact
from graphrag_core.wiring import StoreSettingNames, build_store, check_store_section

StoreKind = Literal["falkordb-embedded", "falkordb", "neo4j"]
_ANY_DIMENSION = 384  # the source of a copy is only read: reads do not depend on it
_TARGET = StoreSettingNames(
    kind="--to {}",
    falkordb_url="--to-url",
    neo4j_uri="--to-neo4j-uri",
    neo4j_user="--to-neo4j-user",
    neo4j_password="--to-neo4j-password or LOREGRAPH_TO_NEO4J_PASSWORD",  # noqa: S106 (a name)
    neo4j_database="--to-neo4j-database",
)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def _target(
    kind: StoreKind, settings: Settings, url: str | None, data_dir: Path | None, **neo4j: str | None
) -> StoreSettings:
    fields = {key: value for key, value in neo4j.items() if value is not None}
    section = StoreSettings(
        kind=kind,
        data_dir=data_dir or settings.data_dir,
        graph_name=settings.graph_name,
        falkordb_url=url,
        startup_timeout_s=settings.startup_timeout_s,
        **fields,
    )
    if _identity(section) == _identity(settings.store_section()):
        raise ConfigError("the target is the configured store itself: name another one")
    return check_store_section(section, _TARGET)


def _identity(section: StoreSettings) -> tuple[str, ...]:
    """What tells one store from another: not a timeout, a user or a password."""
    if section.kind == "falkordb-embedded":
        return (section.kind, str(section.data_dir.resolve()), section.graph_name)
    if section.kind == "falkordb":
        return (section.kind, redact(section.falkordb_url or ""), section.graph_name)
    return (section.kind, section.neo4j_uri or "", section.neo4j_database)


def migrate(
    ctx: typer.Context,
    to: Annotated[StoreKind, typer.Option("--to", help="The kind of the target store.")],
    to_url: Annotated[
        str | None, typer.Option(help="Target FalkorDB server URL: redis://host:6379.")
    ] = None,
    to_data_dir: Annotated[
        Path | None, typer.Option(help="Target data dir (embedded target).")
    ] = None,
    to_neo4j_uri: Annotated[
        str | None, typer.Option(help="Target Neo4j URI: bolt:// or neo4j:// (+s, +ssc).")
    ] = None,
    to_neo4j_user: Annotated[str | None, typer.Option(help="Target Neo4j user.")] = None,
    to_neo4j_password: Annotated[
        str | None, typer.Option(envvar="LOREGRAPH_TO_NEO4J_PASSWORD", help="Target password.")
    ] = None,
    to_neo4j_database: Annotated[str | None, typer.Option(help="Target Neo4j database.")] = None,
    campaign: Annotated[
        str | None, typer.Option("--campaign", "-c", help="Campaign to copy.")
    ] = None,
    all_campaigns: Annotated[bool, typer.Option("--all", help="Copy every campaign.")] = False,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="Delete the campaign on the target first (a target that diverged: moved "
            "there, played, moved back).",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Copy campaigns from the configured store to another and verify counts and checksums.

    Safe to run again after an interruption: every write is an idempotent upsert.

    A target that already holds another version of the campaign needs --replace."""
    try:
        settings = root_settings(ctx)
        target_section = _target(
            to, settings, to_url, to_data_dir,
            neo4j_uri=to_neo4j_uri, neo4j_user=to_neo4j_user,
            neo4j_password=to_neo4j_password, neo4j_database=to_neo4j_database,
        )  # fmt: skip
        reports = _run_migration(settings, target_section, campaign, all_campaigns, replace)
    except LoregraphError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1) from exc
    _render_migration(reports, as_json)
    if not all(report.ok for report in reports):
        raise typer.Exit(2)


def _run_migration(
    settings: Settings,
    target_section: StoreSettings,
    campaign: str | None,
    every: bool,
    replace: bool,
) -> list[PartReport]:
    source = build_store(settings.store_section(), _ANY_DIMENSION)
    try:
        names = _campaigns(source.list_campaigns(), campaign or settings.campaign, every)
        target = build_store(target_section, vector_dimension(source, names, _ANY_DIMENSION))
        try:
            target.migrate()
            return [
                report
                for name in names
                for report in copy_campaign(source, target, name, replace=replace)
            ]
        finally:
            target.close()
    finally:
        source.close()


def _campaigns(present: list[str], campaign: str, every: bool) -> list[str]:
    """The campaigns to copy: all, or the one named, which must exist."""
    if not present:
        raise StoreError("the configured store holds no campaign: nothing to copy")
    if every:
        return present
    if campaign not in present:
        raise ConfigError(
            f"the configured store holds no campaign {campaign!r}; it holds "
            f"{', '.join(present)}. Name one with --campaign, or copy them all with --all."
        )
    return [campaign]


def _units(units: dict[str, int]) -> str:
    return ", ".join(f"{count} {unit}" for unit, count in units.items())


def _render_migration(reports: list[PartReport], as_json: bool) -> None:
    if as_json:
        out.print_json(json.dumps([{**r.model_dump(), "ok": r.ok} for r in reports]))
    else:
        out.print(_migration_table(reports))
    if not all(r.ok for r in reports):
        err.print(
            "[red]the target differs from the source.[/] If the copy was interrupted, run the "
            "same command again. If the target held this campaign before and it changed "
            "since, run it again with --replace (deletes the campaign on the target first)."
        )


def _migration_table(reports: list[PartReport]) -> Table:
    table = Table("campaign", "part", "moved", "checksum (sha256)", "")
    for r in reports:
        shown = r.source_checksum[:16]
        moved = _units(r.source_units)
        if not r.ok:
            shown += f" ≠ {r.target_checksum[:16]}"
            moved += f" (target: {_units(r.target_units)})"
        table.add_row(
            r.campaign, r.part, moved, shown, "[green]ok[/]" if r.ok else "[red]MISMATCH[/]"
        )
    return table


def register(app: typer.Typer) -> None:
    # The Neo4j driver logs each failed routing attempt at ERROR; the CLI's own error says the
    # same once, with what to do, so the duplicate stays off the terminal.
    logging.getLogger("neo4j.pool").setLevel(logging.CRITICAL)
    app.command()(migrate)
    app.command()(doctor)
