"""``loregraph mcp``: the MCP server for agents, over stdio."""

from __future__ import annotations

from typing import Annotated

import typer

from graphrag_core.errors import LoregraphError
from graphrag_core.services.llm_use_cases import check_campaign
from graphrag_core.surfaces.cli.common import CampaignOpt, cli_service, fail
from graphrag_core.surfaces.mcp.access import Access, parse_role
from graphrag_core.surfaces.mcp.server import build_mcp_server

app = typer.Typer()


@app.command("mcp")
def mcp_stdio(
    campaign: CampaignOpt = None,
    role: Annotated[
        str,
        typer.Option(
            "--role",
            help="gm (everything), player (never GM-only content) or recap (posts and "
            "withdraws change sets, reads nothing).",
        ),
    ] = "player",
) -> None:
    """Serve the MCP tools (preview, expand, context, entity, ask; post_changeset and
    withdraw_changeset only for the recap role) over stdio, for one campaign and role; the
    agent cannot choose either."""
    try:
        chosen = parse_role(role)
    except LoregraphError as exc:
        raise fail(exc) from exc
    with cli_service() as (service, settings):
        try:
            access = Access(check_campaign(campaign or settings.campaign), chosen)
        except LoregraphError as exc:
            raise fail(exc) from exc
        build_mcp_server(service, access).run("stdio")
