"""Context for agents: ``preview`` (cheap items with stable handles and their cost to
expand), ``expand`` (chosen handles, never over the token budget) and ``context`` (a preview
plus the best expansions that fit, as one block). A player key is always answered as for
players; a recap key reads nothing here."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query
from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.surfaces.http.auth import ScopeDep, ServiceDep
from graphrag_core.surfaces.http.routes.query import AsOfQ, PlayerQ, PresetQ
from ranking.context.models import ContextBlock, ExpandResult, Preview

router = APIRouter(tags=["agents"])

Question = Annotated[str, Query(min_length=1, max_length=2000, description="The question.")]


class ExpandRequest(BaseModel):
    """The handles to expand (from a preview) and the token budget they must fit."""

    model_config = ConfigDict(extra="forbid")

    handles: list[str] = Field(min_length=1, max_length=100, description="e:…, c:… or p:…")
    budget: int = Field(ge=1, le=200_000, description="Tokens the result may use at most.")


@router.get("/campaigns/{campaign}/preview", summary="Ranked items with handles and costs")
def preview(
    where: ScopeDep,
    service: ServiceDep,
    q: Question,
    k: Annotated[int, Query(ge=1, le=100, description="How many items.")] = 20,
    as_player: PlayerQ = False,
    as_of: AsOfQ = None,
    preset: PresetQ = None,
) -> Preview:
    return service.preview(
        q, where.campaign, k=k, as_player=where.audience(as_player), as_of_session=as_of,
        preset=preset,
    )  # fmt: skip


@router.post("/campaigns/{campaign}/expand", summary="Expand handles within a token budget")
def expand(
    where: ScopeDep,
    service: ServiceDep,
    request: Annotated[ExpandRequest, Body()],
    as_player: PlayerQ = False,
    as_of: AsOfQ = None,
) -> ExpandResult:
    return service.expand(
        request.handles,
        where.campaign,
        budget=request.budget,
        as_player=where.audience(as_player),
        as_of_session=as_of,
    )


@router.get("/campaigns/{campaign}/context", summary="Preview plus expansions, one block")
def context(
    where: ScopeDep,
    service: ServiceDep,
    q: Question,
    budget: Annotated[int, Query(ge=100, le=200_000, description="Token budget.")] = 6000,
    k: Annotated[int, Query(ge=1, le=100, description="Items previewed.")] = 20,
    as_player: PlayerQ = False,
    as_of: AsOfQ = None,
    preset: PresetQ = None,
) -> ContextBlock:
    return service.context(
        q,
        where.campaign,
        budget=budget,
        k=k,
        as_player=where.audience(as_player),
        as_of_session=as_of,
        preset=preset,
    )
