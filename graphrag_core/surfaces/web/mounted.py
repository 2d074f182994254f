"""What ``loregraph serve`` adds to the HTTP API for the other two surfaces: the game
master's page (a router) and the MCP endpoint (an app mounted at ``/mcp``), both behind the
same keys."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter
from starlette.types import ASGIApp

from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.mcp.keys import KeyChecker
from graphrag_core.surfaces.mcp.server import key_lookup, mcp_http_app
from graphrag_core.surfaces.web.guard import gm_guard
from graphrag_core.surfaces.web.routes import web_router


@dataclass(frozen=True)
class Mounted:
    routers: tuple[APIRouter, ...]
    mounts: tuple[tuple[str, ASGIApp], ...]


def page_and_mcp(
    service: LoregraphService, keys: KeyChecker, *, campaign: str, host: str = "127.0.0.1"
) -> Mounted:
    """The page (opening on ``campaign``, GM keys only) and ``/mcp`` (any key; with no key
    configured, the local game master of ``campaign``); ``host`` is the address served, for
    the MCP transport's DNS-rebinding check. Pass to ``create_app(service, keys,
    extra_routers=m.routers, mounts=m.mounts)``."""
    return Mounted(
        routers=(web_router(service, campaign=campaign, guard=gm_guard(keys, campaign)),),
        mounts=(("/mcp", mcp_http_app(service, key_lookup(keys, campaign), host=host)),),
    )
