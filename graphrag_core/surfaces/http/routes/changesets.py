"""``/campaigns/{campaign}/changesets``: post a session's change set (GM or recap; idempotent:
the same content again is a ``duplicate``, other content for a posted session is 409 unless
``?amend=true``) and list the posted ones."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Response

from graphrag_core.errors import ChangelogConflictError
from graphrag_core.models import ChangeSetRecord
from graphrag_core.services.changelog import PostResult
from graphrag_core.surfaces.http.auth import ScopeDep, ServiceDep
from graphrag_core.surfaces.http.problems import ApiError

router = APIRouter(tags=["changesets"])

_EXAMPLE = {
    "session_id": 12,
    "title": "The fall of the Red Oak",
    "entity_updates": [{"entity": "Red Oak Tavern", "status": "destroyed"}],
}


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
    except ChangelogConflictError as exc:  # say what is stored, to compare with the post
        session = changeset.get("session_id")
        stored = [r for r in service.changesets(where.campaign) if r.session_id == session]
        raise ApiError(409, "changelog-conflict", str(exc), tuple(stored)) from exc
    if done.post.action == "duplicate":
        response.status_code = 200
    return done.post


@router.get("/campaigns/{campaign}/changesets", summary="The posted change sets, in order")
def list_changesets(where: ScopeDep, service: ServiceDep) -> list[ChangeSetRecord]:
    where.require("gm", "recap")
    return service.changesets(where.campaign)
