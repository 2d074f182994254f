"""Who is calling, and what they may do (see :mod:`graphrag_core.services.keys`).

With no key configured the server only runs on loopback and every request is the local game
master's. Otherwise every request carries a key (``Authorization: Bearer <key>`` or
``X-API-Key: <key>``): none or a bad one is 401, another campaign than the key's is 404 (as
if it did not exist), a role that may not do it is 403. A player key is always served as
``--as-player``, whatever the request asks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Request

from graphrag_core.services.keys import KeyRing, Role
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.http.problems import ApiError

CAMPAIGN_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"


@dataclass(frozen=True)
class Caller:
    role: Role
    campaign: str | None
    """The key's campaign; None for the local game master (no keys configured)."""
    key_id: str | None = None


@dataclass(frozen=True)
class Scope:
    """A request's campaign, checked against its caller."""

    campaign: str
    caller: Caller

    @property
    def scoped(self) -> bool:
        """Whether the caller holds a key (so answers name no other campaign)."""
        return self.caller.campaign is not None

    def require(self, *roles: Role) -> None:
        if self.caller.role not in roles:
            allowed = " or ".join(roles)
            raise ApiError(
                403,
                "forbidden",
                f"a {self.caller.role} key may not do this (needs a {allowed} key for "
                f"campaign {self.campaign!r})",
            )

    def audience(self, as_player: bool) -> bool:
        """Whether to answer as for players: always for a player key; recap keys read no
        world content at all."""
        self.require("gm", "player")
        return as_player or self.caller.role == "player"


def service_of(request: Request) -> LoregraphService:
    service: LoregraphService = request.app.state.service
    return service


def _presented(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return request.headers.get("x-api-key") or None


def caller(request: Request) -> Caller:
    keys: KeyRing = request.app.state.keys
    if not keys.configured:
        return Caller("gm", None)
    presented = _presented(request)
    if presented is None:
        raise ApiError(
            401, "unauthorized", "no API key: send 'Authorization: Bearer <key>' (see "
            "`loregraph keys create`)",
        )  # fmt: skip
    record = keys.check(presented)
    if record is None:
        raise ApiError(401, "unauthorized", "the API key is not valid (unknown or revoked)")
    request.state.scoped = True
    return Caller(record.role, record.campaign, record.id)


CampaignPath = Annotated[
    str,
    Path(
        pattern=CAMPAIGN_PATTERN,
        description="Campaign id: 1-64 lowercase letters, digits, '-' or '_'.",
    ),
]


def scope(campaign: CampaignPath, who: Annotated[Caller, Depends(caller)]) -> Scope:
    if who.campaign is not None and who.campaign != campaign:
        raise ApiError(404, "unknown-campaign", f"campaign {campaign!r} not found")
    return Scope(campaign, who)


ScopeDep = Annotated[Scope, Depends(scope)]
CallerDep = Annotated[Caller, Depends(caller)]
ServiceDep = Annotated[LoregraphService, Depends(service_of)]
