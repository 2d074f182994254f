"""``loregraph doctor``: which store is configured, whether it answers, its version, its
migrations and indexes (present, online, of the embedder's vector dimension), each problem with
what to do. Never a password in the report, and never a crash: every failure is a problem."""

from __future__ import annotations

import json
from typing import Annotated
from urllib.parse import urlsplit

import typer
from rich.console import Console

from graphrag_core.errors import LoregraphError
from graphrag_core.models import StoreHealth
from graphrag_core.settings import Settings, StoreSettings, load_settings
from graphrag_core.stores.uris import redact
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
        settings = load_settings(ctx.find_root().params.get("config"))
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
    secrets = [s for s in (section.neo4j_password, _url_password(section.falkordb_url)) if s]

    def scrub(text: str) -> str:
        for secret in secrets:
            text = text.replace(secret, "***")
        return text

    return health.model_copy(
        update={"where": scrub(health.where), "problems": tuple(map(scrub, health.problems))}
    )


def _url_password(url: str | None) -> str | None:
    try:
        return urlsplit(url).password if url else None
    except ValueError:
        return None


def _raw_health(settings: Settings, section: StoreSettings) -> StoreHealth:
    """Any failure is a problem in the report, never a crash."""
    try:
        store = build_store(section, build_embedder(settings).dimension)
    except Exception as exc:  # doctor reports every failure, a vendor's too
        return StoreHealth(
            kind=section.kind, where=_where(section), reachable=False, problems=(_why(exc),)
        )
    try:
        return store.health()
    except Exception as exc:
        return StoreHealth(
            kind=section.kind, where=_where(section), reachable=False, problems=(_why(exc),)
        )
    finally:
        store.close()


def _why(exc: Exception) -> str:
    if isinstance(exc, LoregraphError):
        return str(exc)
    return f"unexpected {type(exc).__name__}: {exc}"


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
