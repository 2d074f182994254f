"""``loregraph doctor``: which store is configured, whether it answers, its version, its
migrations and indexes (present, online, of the embedder's vector dimension), each problem with
what to do. Never a password in the report, and never a crash: every failure is a problem."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

from graphrag_core.errors import LoregraphError
from graphrag_core.models import StoreHealth
from graphrag_core.settings import Settings, StoreSettings, load_settings
from graphrag_core.stores.uris import password_of, redact
from graphrag_core.wiring import build_embedder, build_store

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def doctor(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Which store is configured, is it reachable, its version, are its migrations applied
    and its indexes present, online and of the embedder's vector dimension."""
    try:
        settings = root_settings(ctx)
    except LoregraphError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1) from exc
    health = _health(settings)
    if as_json:
        out.print_json(json.dumps({**health.model_dump(mode="json"), "healthy": health.healthy}))
    else:
        _render_health(health)
    if not health.healthy:
        raise typer.Exit(1)


def root_settings(ctx: typer.Context) -> Settings:
    """The settings, read with the root command's ``--config`` (for the store commands)."""
    return load_settings(ctx.find_root().params.get("config"))


def _where(section: StoreSettings) -> str:
    """Where the store is, without its password."""
    if section.kind == "falkordb-embedded":
        return str(section.data_dir)
    if section.kind == "falkordb":
        url = section.falkordb_url
        return redact(url) if url else "not configured (set LOREGRAPH_FALKORDB_URL)"
    uri = section.neo4j_uri
    return redact(uri) if uri else "not configured (set LOREGRAPH_NEO4J_URI)"


def _health(settings: Settings) -> StoreHealth:
    """The store's health report, without any password in it."""
    section = settings.store_section()
    health = _raw_health(settings, section)
    secrets = [s for s in (section.neo4j_password, password_of(section.falkordb_url)) if s]

    def scrub(text: str) -> str:
        for secret in secrets:
            text = text.replace(secret, "***")
        return text

    return health.model_copy(
        update={"where": scrub(health.where), "problems": tuple(map(scrub, health.problems))}
    )


def _raw_health(settings: Settings, section: StoreSettings) -> StoreHealth:
    """Any failure is a problem in the report, never a crash."""
    try:
        store = build_store(section, build_embedder(settings).dimension)
    except Exception as exc:  # doctor reports every failure, a vendor's too
        return _unreachable(section, exc)
    try:
        return store.health()
    except Exception as exc:
        return _unreachable(section, exc)
    finally:
        store.close()


def _unreachable(section: StoreSettings, exc: Exception) -> StoreHealth:
    why = str(exc) if isinstance(exc, LoregraphError) else f"unexpected {type(exc).__name__}: {exc}"
    return StoreHealth(kind=section.kind, where=_where(section), reachable=False, problems=(why,))


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
