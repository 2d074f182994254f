"""Questions about the world: ``ask`` (ranked entities and passages, or ``--global`` from
the community summaries) and ``campaigns``."""

from __future__ import annotations

from typing import Annotated

import typer

from graphrag_core.surfaces.cli import render
from graphrag_core.surfaces.cli.analytics_render import render_global
from graphrag_core.surfaces.cli.common import (
    AsOfOpt,
    CampaignOpt,
    JsonOpt,
    PlayerOpt,
    cli_service,
    err,
    out,
)

app = typer.Typer()
campaign_app = typer.Typer(help="Manage campaigns: delete a stray one.", no_args_is_help=True)


@campaign_app.command("delete")
def campaign_delete(
    name: Annotated[str, typer.Argument(help="The campaign to delete.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete a campaign and everything stored for it (graph, changelog, analytics, ingest
    manifests); other campaigns are not touched. Asks first unless --yes."""
    if not yes and not typer.confirm(
        f"Delete campaign {name!r} and everything stored for it? This cannot be undone"
    ):
        err.print("Nothing deleted.")
        raise typer.Exit(1)
    with cli_service() as (service, _):
        service.delete_campaign(name)
    out.print(f"Deleted campaign {name!r}.")


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="Your question, in plain words.")],
    campaign: CampaignOpt = None,
    as_player: PlayerOpt = False,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
    historical: Annotated[
        bool | None,
        typer.Option(
            "--historical/--current", help="Force history mode (no demotion) or current-state mode."
        ),
    ] = None,
    k: Annotated[
        int | None,
        typer.Option(
            "-k", min=1, max=100, help="How many results (--global: summaries; default 10 / 5)."
        ),
    ] = None,
    global_: Annotated[
        bool,
        typer.Option("--global", help="A broad question: answer from community summaries."),
    ] = False,
) -> None:
    """Ranked entities and passages with effective status, score and citations."""
    with cli_service() as (service, settings):
        if global_:
            answer = service.ask_global(
                question, campaign or settings.campaign, as_player=as_player, k=k
            )
            if as_json:
                out.print_json(answer.model_dump_json())
            else:
                render_global(out, answer)
            return
        result = service.ask(
            question,
            campaign or settings.campaign,
            as_player=as_player,
            historical=historical,
            as_of_session=as_of,
            k=k or 10,
        )
        if as_json:
            out.print_json(result.model_dump_json())
        else:
            render.render_ask(out, result)


@app.command()
def campaigns() -> None:
    """List the campaigns in the store."""
    with cli_service() as (service, _):
        for name in service.campaigns():
            out.print(name)
