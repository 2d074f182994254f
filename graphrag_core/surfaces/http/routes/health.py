"""``/health`` (is the server up; no key needed) and ``/doctor`` (the store's health, GM)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from graphrag_core.models import StoreHealth
from graphrag_core.surfaces.http.auth import CallerDep, ServiceDep
from graphrag_core.surfaces.http.problems import ApiError

router = APIRouter(tags=["health"])


class Alive(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    status: str = "ok"


@router.get("/health", summary="Whether the server answers")
def health() -> Alive:
    return Alive()


@router.get("/doctor", summary="The store's health report, as `loregraph doctor` (GM)")
def doctor(who: CallerDep, service: ServiceDep) -> StoreHealth:
    if who.role != "gm":
        raise ApiError(403, "forbidden", f"a {who.role} key may not do this (needs a gm key)")
    return service.store_health()
