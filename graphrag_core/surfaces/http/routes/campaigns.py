"""``/campaigns``: list the campaigns a caller may see; delete one (GM, with confirmation)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict

from graphrag_core.surfaces.http.auth import CallerDep, ScopeDep, ServiceDep
from graphrag_core.surfaces.http.problems import ApiError

router = APIRouter(tags=["campaigns"])


class Campaigns(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    campaigns: tuple[str, ...]


class Deleted(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    campaign: str
    deleted: bool


@router.get("/campaigns", summary="The campaigns in the store (a key sees its own)")
def list_campaigns(who: CallerDep, service: ServiceDep) -> Campaigns:
    names = service.campaigns()
    if who.campaign is not None:
        names = [n for n in names if n == who.campaign]
    return Campaigns(campaigns=tuple(names))


@router.delete(
    "/campaigns/{campaign}",
    summary="Delete a campaign and everything in it (GM; ?confirm=<campaign>)",
)
def delete_campaign(
    where: ScopeDep,
    service: ServiceDep,
    confirm: Annotated[
        str | None, Query(description="The campaign's id again, to confirm the deletion.")
    ] = None,
) -> Deleted:
    where.require("gm")
    if confirm != where.campaign:
        raise ApiError(
            400,
            "unconfirmed",
            f"query.confirm: deleting campaign {where.campaign!r} removes everything in it; "
            f"repeat its id as ?confirm={where.campaign} to confirm",
        )
    service.delete_campaign(where.campaign)
    return Deleted(campaign=where.campaign, deleted=True)
