"""``/campaigns/{campaign}/changesets``: post a session's change set (GM or recap; idempotent:
the same content again is a ``duplicate``, other content for a posted session is 409 with the
difference unless ``?amend=true``), list the posted ones, and withdraw a revision (GM or
recap; append-only: the withdrawal is itself a recorded revision)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Response
from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.errors import ChangelogConflictError, WithdrawalError
from graphrag_core.models import ChangeSetRecord
from graphrag_core.services.changelog import PostResult
from graphrag_core.services.withdrawal import WithdrawResult
from graphrag_core.surfaces.http.auth import Scope, ScopeDep, ServiceDep
from graphrag_core.surfaces.http.problems import ApiError

router = APIRouter(tags=["changesets"])

_EXAMPLE = {
    "session_id": 12,
    "title": "The fall of the Red Oak",
    "entity_updates": [{"entity": "Red Oak Tavern", "status": "destroyed"}],
}


class WithdrawRequest(BaseModel):
    """Which revision of the session to withdraw, from when, and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    revision: int | None = Field(
        default=None, ge=1, description="The revision to withdraw; default: the latest live one."
    )
    at_session: int | None = Field(
        default=None,
        ge=0,
        description="The session from which the withdrawal holds (as_of views before it still "
        "show the changes); default: the campaign's latest posted session.",
    )
    note: str = Field(default="", max_length=2000, description="Why it is withdrawn.")


@router.post(
    "/campaigns/{campaign}/changesets",
    status_code=201,
    summary="Post a session change set (201 stored, 200 duplicate, 409 conflict)",
    responses={200: {"description": "Already stored: nothing changed", "model": PostResult}},
)
def post_changeset(
    where: ScopeDep,
    service: ServiceDep,
    response: Response,
    changeset: Annotated[
        dict[str, Any],
        Body(
            description="The change set, as `loregraph changelog post` reads it from a file.",
            examples=[_EXAMPLE],
        ),
    ],
    amend: Annotated[
        bool, Query(description="Post a correction superseding the session's earlier revision.")
    ] = False,
    source: Annotated[
        str, Query(max_length=200, description="The name recorded as the change set's source.")
    ] = "http",
) -> PostResult:
    where.require("gm", "recap")
    try:
        done = service.post_and_rebuild(changeset, where.campaign, source_name=source, amend=amend)
    except ChangelogConflictError as exc:  # say what is stored and how the post differs
        raise _conflict(where, service.changesets(where.campaign), changeset, exc) from exc
    if done.post.action == "duplicate":
        response.status_code = 200
    return done.post


def _conflict(
    where: Scope,
    records: list[ChangeSetRecord],
    changeset: dict[str, Any],
    exc: ChangelogConflictError,
) -> ApiError:
    """The 409: a recap key does not learn the GM-only updates stored for the session."""
    session = changeset.get("session_id")
    stored = tuple(r for r in records if r.session_id == session)
    difference = exc.difference
    if difference is None:
        return ApiError(409, "changelog-conflict", str(exc), stored)
    difference = difference.for_gm(where.caller.role == "gm")
    return ApiError(409, "changelog-conflict", difference.message(), stored, difference)


@router.get("/campaigns/{campaign}/changesets", summary="The posted change sets, in order")
def list_changesets(where: ScopeDep, service: ServiceDep) -> list[ChangeSetRecord]:
    where.require("gm", "recap")
    return service.changesets(where.campaign)


@router.post(
    "/campaigns/{campaign}/changesets/{session}/withdraw",
    status_code=201,
    summary="Withdraw a posted revision (201 recorded, 404 never posted, 409 already withdrawn)",
)
def withdraw_changeset(
    where: ScopeDep,
    service: ServiceDep,
    session: Annotated[int, Path(ge=0, description="The session whose change set to withdraw.")],
    request: Annotated[WithdrawRequest | None, Body()] = None,
) -> WithdrawResult:
    where.require("gm", "recap")
    asked = request or WithdrawRequest()
    by = f"http {where.caller.role} key"
    if where.caller.key_id is not None:
        by += f" {where.caller.key_id}"
    try:
        done = service.withdraw(
            where.campaign,
            session,
            revision=asked.revision,
            at_session=asked.at_session,
            note=asked.note,
            by=by,
        )
    except WithdrawalError as exc:
        if exc.missing:
            raise ApiError(404, "unknown-changeset", str(exc)) from exc
        raise
    return done.withdrawal
