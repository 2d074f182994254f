"""Questions about the world: ``ask`` (ranked entities and passages) and ``entities/{name}``.
A player key is always answered as for players; a recap key reads nothing here."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graphrag_core.models import AskResult, EntityView
from graphrag_core.surfaces.http.auth import ScopeDep, ServiceDep

router = APIRouter(tags=["query"])

PlayerQ = Annotated[
    bool, Query(description="Player-facing: never show GM-only content (forced for players).")
]
AsOfQ = Annotated[
    int | None,
    Query(ge=0, le=1_000_000, description="The world as of this session."),
]


@router.get("/campaigns/{campaign}/ask", summary="Ranked entities and passages for a question")
def ask(
    where: ScopeDep,
    service: ServiceDep,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="The question.")],
    as_player: PlayerQ = False,
    as_of: AsOfQ = None,
    historical: Annotated[
        bool | None, Query(description="Force history mode (true) or current state (false).")
    ] = None,
    k: Annotated[int, Query(ge=1, le=100, description="How many results.")] = 10,
) -> AskResult:
    return service.ask(
        q,
        where.campaign,
        as_player=where.audience(as_player),
        historical=historical,
        as_of_session=as_of,
        k=k,
    )


@router.get("/campaigns/{campaign}/entities/{name}", summary="One entity, by name, alias or id")
def entity(
    where: ScopeDep,
    service: ServiceDep,
    name: str,
    as_player: PlayerQ = False,
    as_of: AsOfQ = None,
) -> EntityView:
    return service.entity(
        name, where.campaign, as_player=where.audience(as_player), as_of_session=as_of
    )
