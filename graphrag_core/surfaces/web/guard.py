"""Who may use the web page's JSON endpoints under ``serve``: the game master of the campaign
asked for. The page sends the key typed in its header as ``Authorization: Bearer KEY``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import Header, HTTPException, Query

from graphrag_core.surfaces.mcp.access import Access
from graphrag_core.surfaces.mcp.keys import KeyChecker, key_access, presented_key


def gm_guard(keys: KeyChecker, default_campaign: str) -> Callable[..., Access | None]:
    """A FastAPI dependency admitting a GM key of the campaign in ``?c=``, returning its
    access (None: no key configured, the local game master of every campaign): no or an
    unknown key is a 401, another role a 403, another campaign a 404."""

    def guard(
        authorization: Annotated[str, Header()] = "",
        x_api_key: Annotated[str, Header()] = "",
        c: Annotated[str | None, Query()] = None,
    ) -> Access | None:
        if not keys.configured:
            return None
        access = key_access(keys, presented_key(authorization, x_api_key), default_campaign)
        if access is None:
            raise HTTPException(
                401, "the web page needs a game master's API key (see `loregraph keys create`)"
            )
        if access.role != "gm":
            raise HTTPException(403, f"a {access.role} key may not use the game master's page")
        if c is not None and c != access.campaign:
            raise HTTPException(404, f"campaign {c!r} not found")
        return access

    return guard
