"""The FastAPI application: routers, problem handlers, one log line per request.

``create_app(service, keys)`` serves one resident :class:`LoregraphService` (model and campaign
views stay warm between requests); ``extra_routers`` and ``mounts`` let other surfaces (the web
page, the MCP endpoint) join the same server."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from fastapi import APIRouter, FastAPI, Request, Response
from starlette.types import ASGIApp

from graphrag_core.services.keys import KeyRing
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.http import jobs as jobs_routes
from graphrag_core.surfaces.http.problems import Problem, install, make_problem, respond
from graphrag_core.surfaces.http.routes import (
    agents,
    analytics,
    campaigns,
    changesets,
    evaluation,
    health,
    ingest,
    query,
)

logger = logging.getLogger("loregraph.http")

MAX_BODY = 8 * 1024 * 1024
"""The largest request body but an upload's, in bytes."""

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    campaigns.router,
    ingest.router,
    changesets.router,
    query.router,
    agents.router,
    analytics.router,
    evaluation.router,
    jobs_routes.router,
)

_PROBLEMS: dict[int | str, dict[str, object]] = {
    code: {"model": Problem, "description": text, "content": {"application/problem+json": {}}}
    for code, text in (
        (400, "Bad request"),
        (401, "No or bad API key"),
        (403, "The key's role may not do this"),
        (404, "Unknown campaign, entity, community or job"),
        (409, "Conflict"),
        (422, "Invalid input, naming the field"),
    )
}


def create_app(
    service: LoregraphService,
    keys: KeyRing,
    *,
    extra_routers: Sequence[APIRouter] = (),
    mounts: Sequence[tuple[str, ASGIApp]] = (),
) -> FastAPI:
    """The API serving ``service``, authorising with ``keys``."""
    app = build_api(extra_routers, mounts)
    app.state.service = service
    app.state.keys = keys
    app.state.jobs = jobs_routes.Jobs()
    app.router.add_event_handler("shutdown", app.state.jobs.close)
    return app


def build_api(
    extra_routers: Sequence[APIRouter] = (), mounts: Sequence[tuple[str, ASGIApp]] = ()
) -> FastAPI:
    """The routes and handlers without a service: enough for the OpenAPI document."""
    app = FastAPI(
        title="loregraph",
        summary="What is true in your campaign world right now, and what matters.",
        version="0.1.0",
        responses=_PROBLEMS,
    )
    install(app)
    for router in (*ROUTERS, *extra_routers):
        app.include_router(router)
    for path, sub in mounts:
        app.mount(path, sub)
    app.middleware("http")(_log_and_limit)
    return app


async def _log_and_limit(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    started = time.perf_counter()
    response = _too_large(request) or await call_next(request)
    took = (time.perf_counter() - started) * 1000
    who = request.headers.get("authorization", "") or request.headers.get("x-api-key", "")
    logger.info(
        "%s %s %d %.1fms%s",
        request.method,
        request.url.path,
        response.status_code,
        took,
        " (keyed)" if who else "",
    )
    return response


def _too_large(request: Request) -> Response | None:
    """A 413 for a body over the limit (uploads may be larger: they stream to disk)."""
    limit = MAX_BODY * 8 if request.url.path.endswith("/ingest") else MAX_BODY
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        problem = make_problem(413, "too-large", f"the request body passes {limit} bytes")
        return respond(problem)
    return None


__all__ = ["create_app"]
