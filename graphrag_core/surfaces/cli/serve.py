"""``loregraph serve``: one resident HTTP server on the configured store (model and campaign
views stay warm), and ``loregraph keys create|list|revoke``: who may call it.

The server writes ``<data_dir>/serve.json`` (its URL and pid) while it runs, shuts down
cleanly on SIGTERM or Ctrl-C (closing the service and so the store), and logs one line per
request. Bound to anything but loopback it refuses to start unless API keys exist."""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from graphrag_core.errors import ConfigError, LoregraphError
from graphrag_core.services.keys import ROLES, KeyRing, Role, create_key, read_keys, revoke_key
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.cli.common import cli_service, cli_settings, fail, out

app = typer.Typer()
keys_app = typer.Typer(help="API keys of the HTTP server: create, list, revoke.")
logger = logging.getLogger("loregraph.serve")

SERVE_FILE = "serve.json"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_binding(host: str, keys: KeyRing) -> str:
    """How requests are authorised on ``host``; a ConfigError when that would be nobody."""
    if keys.configured:
        return "API keys required"
    if not is_loopback(host):
        raise ConfigError(
            f"refusing to listen on {host} without API keys: anyone who can reach it could read "
            "and change every campaign; create keys with `loregraph keys create --campaign C "
            "--role gm`, or listen on 127.0.0.1"
        )
    return "no API keys: loopback only, every request is the local GM's"


@contextmanager
def serve_file(data_dir: Path, url: str) -> Iterator[Path]:
    """``serve.json`` (URL, pid) in the data dir while the server runs."""
    path = data_dir / SERVE_FILE
    data_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"url": url, "pid": os.getpid()}), encoding="utf-8")
    tmp.replace(path)
    try:
        yield path
    finally:
        with suppress(FileNotFoundError):
            path.unlink()


@contextmanager
def _signals_end_the_loop() -> Iterator[None]:
    """uvicorn stops on SIGTERM/SIGINT, then raises the signal again under the handlers it
    found; these record it and return, so the service and its store close before exiting."""
    seen: list[int] = []
    handled = (signal.SIGTERM, signal.SIGINT)
    before = {sig: signal.signal(sig, lambda s, _f: seen.append(s)) for sig in handled}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _warm(service: LoregraphService) -> None:
    """Load the model, the token counter's tables and every campaign's GM and player views
    before the first request."""
    started = time.perf_counter()
    service.embedder.embed(["warm up"])
    if service.token_counter is not None:  # preview and context count every item's tokens
        service.token_counter.count("warm up")
    campaigns = service.campaigns()
    for campaign in campaigns:
        for as_player in (False, True):
            service.view(campaign, as_player=as_player)
    took = time.perf_counter() - started
    logger.info("warmed the model and %d campaign(s) in %.1f s", len(campaigns), took)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8765,
) -> None:
    """Run the HTTP API (OpenAPI at /docs), the game master's page (/web) and the MCP
    endpoint (/mcp) on the configured store, warm, until SIGTERM."""
    import uvicorn

    from graphrag_core.surfaces.http.app import create_app  # FastAPI loads only for serve
    from graphrag_core.surfaces.web.mounted import page_and_mcp

    logging.getLogger("loregraph").setLevel(logging.INFO)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    try:
        keys = KeyRing(cli_settings().data_dir)
        mode = check_binding(host, keys)
    except LoregraphError as exc:
        raise fail(exc) from exc
    with cli_service() as (service, settings):
        _warm(service)
        url = f"http://{host}:{port}"
        extra = page_and_mcp(service, keys, campaign=settings.campaign, host=host)
        api = create_app(service, keys, extra_routers=extra.routers, mounts=extra.mounts)
        config = uvicorn.Config(api, host=host, port=port, log_config=None, access_log=False)
        with serve_file(settings.data_dir, url), _signals_end_the_loop():
            logger.info("loregraph serve on %s (store %s; %s)", url, settings.data_dir, mode)
            uvicorn.Server(config).run()
        logger.info("loregraph serve stopped; store closed")


@keys_app.command("create")
def keys_create(
    campaign: Annotated[str, typer.Option("--campaign", "-c", help="The key's campaign.")],
    role: Annotated[str, typer.Option(help="gm, player or recap.")],
    label: Annotated[str, typer.Option(help="A note to tell keys apart.")] = "",
) -> None:
    """Create a key; it is printed once and stored only hashed."""
    if role not in ROLES:
        raise typer.BadParameter(f"use one of: {', '.join(ROLES)}", param_hint="--role")
    role_: Role = role
    try:
        record, key = create_key(cli_settings().data_dir, campaign, role_, datetime.now(UTC), label)
    except LoregraphError as exc:
        raise fail(exc) from exc
    out.print(key)
    out.print(
        f"[dim]id {record.id}: {record.role} key for campaign {record.campaign!r}; it is not "
        "shown again[/]",
        highlight=False,
    )


@keys_app.command("list")
def keys_list() -> None:
    """The keys (id, campaign, role, created, label); never their secrets."""
    try:
        records = read_keys(cli_settings().data_dir)
    except LoregraphError as exc:
        raise fail(exc) from exc
    for r in records:
        out.print(f"{r.id}  {r.campaign}  {r.role}  {r.created_at}  {r.label}", highlight=False)


@keys_app.command("revoke")
def keys_revoke(key_id: Annotated[str, typer.Argument(help="The key's id (keys list).")]) -> None:
    """Revoke a key: a running server refuses it from its next request."""
    try:
        record = revoke_key(cli_settings().data_dir, key_id)
    except LoregraphError as exc:
        raise fail(exc) from exc
    out.print(f"revoked {record.id} ({record.role} key for {record.campaign!r})")
