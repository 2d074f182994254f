"""Analytics commands: ``build``, ``communities``, ``community``."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from graphrag_core.surfaces.cli.analytics_render import (
    render_communities,
    render_community,
    run_build,
)
from graphrag_core.surfaces.cli.common import AsOfOpt, CampaignOpt, JsonOpt, cli_service, err, out

app = typer.Typer()

PartyOpt = Annotated[
    bool, typer.Option("--as-player", help="Player-facing: only party-visible summaries.")
]


@app.command()
def build(campaign: CampaignOpt = None) -> None:
    """Centrality, hierarchical Leiden communities and one summary per community."""
    with cli_service() as (service, settings):
        run_build(service, campaign or settings.campaign, out, err)


@app.command()
def communities(
    campaign: CampaignOpt = None,
    level: Annotated[int | None, typer.Option("--level", "-l", help="Only this level.")] = None,
    as_player: PartyOpt = False,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List communities: id, version, level, parent, size, title, members, first finding.

    With --as-player: the party's own communities, clustered from what players may see."""
    with cli_service() as (service, settings):
        views = service.communities(
            campaign or settings.campaign, as_player=as_player, level=level, as_of_session=as_of
        )
        if as_json:
            out.print_json(json.dumps([v.model_dump(mode="json") for v in views]))
        else:
            render_communities(out, views)


@app.command()
def community(
    community_id: Annotated[str, typer.Argument(help="A community id, e.g. c-0-1.")],
    campaign: CampaignOpt = None,
    as_player: PartyOpt = False,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """One community with its summary, findings and sub-communities."""
    with cli_service() as (service, settings):
        view = service.community(
            community_id, campaign or settings.campaign, as_player=as_player, as_of_session=as_of
        )
        if as_json:
            out.print_json(view.model_dump_json())
        else:
            render_community(out, view)
