"""Communities, broad (global) questions and the analytics build (a job)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from graphrag_core.analytics_models import CommunityView, GlobalAnswer
from graphrag_core.surfaces.http.auth import ScopeDep, ServiceDep
from graphrag_core.surfaces.http.jobs import Job, JobsDep
from graphrag_core.surfaces.http.routes.query import PlayerQ

router = APIRouter(tags=["analytics"])


@router.get("/campaigns/{campaign}/communities", summary="The communities, with summaries")
def communities(
    where: ScopeDep,
    service: ServiceDep,
    as_player: PlayerQ = False,
    level: Annotated[int | None, Query(ge=0, le=100)] = None,
) -> list[CommunityView]:
    return service.communities(where.campaign, as_player=where.audience(as_player), level=level)


@router.get("/campaigns/{campaign}/communities/{community_id}", summary="One community")
def community(
    where: ScopeDep, service: ServiceDep, community_id: str, as_player: PlayerQ = False
) -> CommunityView:
    return service.community(community_id, where.campaign, as_player=where.audience(as_player))


@router.get("/campaigns/{campaign}/global", summary="A broad question, from community summaries")
def ask_global(
    where: ScopeDep,
    service: ServiceDep,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="The question.")],
    as_player: PlayerQ = False,
    k: Annotated[int | None, Query(ge=1, le=100, description="How many summaries.")] = None,
) -> GlobalAnswer:
    return service.ask_global(q, where.campaign, as_player=where.audience(as_player), k=k)


@router.post(
    "/campaigns/{campaign}/build",
    status_code=202,
    summary="Rebuild the analytics (GM): a job to poll or stream",
)
def build(where: ScopeDep, service: ServiceDep, jobs: JobsDep) -> Job:
    where.require("gm")
    return jobs.submit(
        "build", where.campaign, lambda p: service.build(where.campaign, p), scoped=where.scoped
    )
