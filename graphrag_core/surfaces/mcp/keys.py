"""Bearer keys → :class:`Access`, for the MCP endpoint and the web page under ``serve``.

Works with any key ring that says whether keys are configured and checks a presented key (the
HTTP surface's ``KeyRing``): with no key configured, ``serve`` runs on loopback only and every
caller is the local game master of the default campaign."""

from __future__ import annotations

from typing import Protocol

from graphrag_core.surfaces.mcp.access import Access, parse_role


class KeyRecord(Protocol):
    @property
    def campaign(self) -> str: ...

    @property
    def role(self) -> str: ...


class KeyChecker(Protocol):
    @property
    def configured(self) -> bool: ...

    def check(self, presented: str) -> KeyRecord | None: ...


def key_access(keys: KeyChecker, presented: str, default_campaign: str) -> Access | None:
    """The access ``presented`` grants: None for a missing or unknown key."""
    if not keys.configured:
        return Access(default_campaign, "gm")
    record = keys.check(presented) if presented else None
    if record is None:
        return None
    return Access(record.campaign, parse_role(record.role))


def presented_key(authorization: str, api_key: str = "") -> str:
    """The key of an ``Authorization: Bearer KEY`` header, else of ``X-API-Key``."""
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return api_key.strip()
