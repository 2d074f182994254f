"""Errors as RFC 7807 problem details (``application/problem+json``), in one place.

Every :class:`~graphrag_core.errors.LoregraphError` keeps the plain message the CLI prints as
``detail``; the status comes from the first class of :data:`STATUS` it is an instance of
(most specific first). Bad input is a 4xx naming the field; a 500 is only ever a bug."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from graphrag_core.errors import (
    AnalyticsError,
    ChangelogConflictError,
    ChangelogError,
    ChatModelError,
    ChatModelRateLimitError,
    ChatModelRequestError,
    ChatModelUnavailableError,
    ConfigError,
    ExtractionError,
    LoregraphError,
    RequestError,
    SourceError,
    StoreError,
    StoreUnavailableError,
    UnknownCampaignError,
    UnknownEntityError,
    WithdrawalError,
)
from graphrag_core.models import ChangeSetDifference, ChangeSetRecord

logger = logging.getLogger(__name__)

MEDIA_TYPE = "application/problem+json"

# (error class, HTTP status, problem slug), most specific first.
STATUS: tuple[tuple[type[LoregraphError], int, str], ...] = (
    (UnknownCampaignError, 404, "unknown-campaign"),
    (UnknownEntityError, 404, "unknown-entity"),
    (ChangelogConflictError, 409, "changelog-conflict"),
    (WithdrawalError, 409, "withdrawal-refused"),
    (ChangelogError, 422, "invalid-changeset"),
    (SourceError, 422, "invalid-source"),
    (RequestError, 400, "bad-request"),
    (ConfigError, 400, "not-configured"),
    (AnalyticsError, 409, "analytics-unavailable"),
    (StoreUnavailableError, 503, "store-unavailable"),
    (ChatModelUnavailableError, 503, "chat-model-unavailable"),
    (ChatModelRateLimitError, 503, "chat-model-rate-limited"),
    (ChatModelRequestError, 502, "chat-model-rejected"),
    (ChatModelError, 502, "chat-model-failed"),
    (ExtractionError, 502, "extraction-failed"),
    (StoreError, 500, "store-failed"),
    (LoregraphError, 500, "error"),
)

_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request too large",
    415: "Unsupported media type",
    422: "Invalid input",
    500: "Internal error",
    502: "Upstream failure",
    503: "Unavailable",
}


class FieldError(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str = Field(description="Where: body.session_id, query.k, path.campaign, ...")
    message: str


class Problem(BaseModel):
    """An RFC 7807 problem: ``detail`` is the message the CLI prints for the same error."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str = Field(description="urn:loregraph:<slug>, one per kind of failure.")
    title: str
    status: int
    detail: str
    errors: tuple[FieldError, ...] = Field(
        default=(), description="Per-field errors of invalid input."
    )
    stored: tuple[ChangeSetRecord, ...] = Field(
        default=(),
        description="On a change-set conflict: the session's stored revisions, to compare.",
    )
    difference: ChangeSetDifference | None = Field(
        default=None,
        description="On a change-set conflict: what the post differs in from the stored "
        "latest revision, per update (plain words in `summary`).",
    )


class ApiError(Exception):
    """A failure the HTTP surface itself raises (no key, wrong role, bad upload)."""

    def __init__(
        self,
        status: int,
        slug: str,
        detail: str,
        stored: tuple[ChangeSetRecord, ...] = (),
        difference: ChangeSetDifference | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.detail = detail
        self.stored = stored
        self.difference = difference


def problem_of(exc: LoregraphError) -> Problem:
    """The problem ``exc`` maps to."""
    status, slug = next((s, slug) for cls, s, slug in STATUS if isinstance(exc, cls))
    return make_problem(status, slug, str(exc))


def make_problem(
    status: int, slug: str, detail: str, errors: tuple[FieldError, ...] = ()
) -> Problem:
    title = _TITLES.get(status, "Error")
    return Problem(
        type=f"urn:loregraph:{slug}", title=title, status=status, detail=detail, errors=errors
    )


def respond(problem: Problem, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse(
        problem.model_dump(mode="json", exclude_defaults=False),
        status_code=problem.status,
        media_type=MEDIA_TYPE,
        headers=headers,
    )


def _field(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc)


def _validation(exc: RequestValidationError) -> Problem:
    errors = tuple(
        FieldError(field=_field(tuple(e.get("loc", ()))), message=str(e.get("msg", "invalid")))
        for e in exc.errors()
    )
    detail = "; ".join(f"{e.field}: {e.message}" for e in errors) or "invalid request"
    return make_problem(422, "invalid-input", detail, errors)


def scoped_problem(exc: LoregraphError, scoped: bool) -> Problem:
    """``exc``'s problem; a keyed (``scoped``) caller never learns other campaigns' names."""
    if isinstance(exc, UnknownCampaignError) and scoped:
        detail = f"campaign {exc.campaign!r} holds nothing yet; ingest sources into it first"
        return make_problem(404, "unknown-campaign", detail)
    return problem_of(exc)


def install(app: FastAPI) -> None:
    """Register the handlers that turn every failure into a problem response."""

    async def loregraph_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, LoregraphError)
        problem = scoped_problem(exc, getattr(request.state, "scoped", False))
        if problem.status >= 500:
            logger.error("%s %s failed: %s", request.method, request.url.path, exc)
        return respond(problem)

    async def api_problem(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        problem = make_problem(exc.status, exc.slug, exc.detail)
        extra = {"stored": exc.stored, "difference": exc.difference}
        return respond(problem.model_copy(update=extra), headers)

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return respond(_validation(exc))

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        slug = _TITLES.get(exc.status_code, "error").lower().replace(" ", "-")
        return respond(make_problem(exc.status_code, slug, str(exc.detail)), exc.headers)

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("%s %s: unexpected error", request.method, request.url.path)
        detail = f"unexpected {type(exc).__name__}; the server log has the details"
        return respond(make_problem(500, "internal-error", detail))

    app.add_exception_handler(LoregraphError, loregraph_error)
    app.add_exception_handler(ApiError, api_problem)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, unexpected)
