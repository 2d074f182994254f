"""``loregraph migrate``: copy campaigns between stores and verify counts and checksums. The
copy is the store-copy service's; this module parses the target and renders the report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from graphrag_core.config import StoreKind, StoreSettings
from graphrag_core.errors import ConfigError, LoregraphError
from graphrag_core.services.store_copy import PartReport, store_identity
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.common import cli_settings, err, fail, out
from graphrag_core.wiring import StoreSettingNames, check_store_section, copy_between_stores

_TARGET = StoreSettingNames(
    kind="--to {}",
    falkordb_url="--to-url",
    neo4j_uri="--to-neo4j-uri",
    neo4j_user="--to-neo4j-user",
    neo4j_password="--to-neo4j-password or LOREGRAPH_TO_NEO4J_PASSWORD",  # noqa: S106 (a name)
    neo4j_database="--to-neo4j-database",
)
app = typer.Typer()


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
    if store_identity(section) == store_identity(settings.store_section()):
        raise ConfigError("the target is the configured store itself: name another one")
    return check_store_section(section, _TARGET)


@app.command()
def migrate(
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
        settings = cli_settings()
        target_section = _target(
            to, settings, to_url, to_data_dir,
            neo4j_uri=to_neo4j_uri, neo4j_user=to_neo4j_user,
            neo4j_password=to_neo4j_password, neo4j_database=to_neo4j_database,
        )  # fmt: skip
        reports = copy_between_stores(
            settings, target_section, campaign or settings.campaign, all_campaigns, replace
        )
    except LoregraphError as exc:
        raise fail(exc) from exc
    _render_migration(reports, as_json)
    if not all(report.ok for report in reports):
        raise typer.Exit(2)


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
