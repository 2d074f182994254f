"""What an agent reads under a token budget: ``preview``, ``expand`` and ``context``
(the service's functions; the HTTP and MCP surfaces call the same ones)."""

from __future__ import annotations

from typing import Annotated

import typer

from graphrag_core.surfaces.cli.common import (
    AsOfOpt,
    CampaignOpt,
    JsonOpt,
    PlayerOpt,
    cli_service,
    out,
)

app = typer.Typer()

BudgetOpt = Annotated[
    int, typer.Option("--budget", min=0, help="Most tokens of the output (o200k_base count).")
]


def _print(markdown: str, json_text: str, as_json: bool) -> None:
    if as_json:
        out.print_json(json_text)
    else:
        out.print(markdown, markup=False, highlight=False)


@app.command()
def preview(
    question: Annotated[str, typer.Argument(help="Your question, in plain words.")],
    campaign: CampaignOpt = None,
    k: Annotated[int, typer.Option("-k", min=1, max=100, help="How many items.")] = 20,
    as_player: PlayerOpt = False,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A cheap look: entities, communities and passages with handles and expansion costs."""
    with cli_service() as (service, settings):
        shown = service.preview(
            question, campaign or settings.campaign, k=k, as_player=as_player, as_of_session=as_of
        )
        _print(shown.markdown, shown.model_dump_json(), as_json)


@app.command()
def expand(
    handles: Annotated[list[str], typer.Argument(help="Handles from `preview`: e:, c:, p:.")],
    budget: BudgetOpt = 2000,
    campaign: CampaignOpt = None,
    as_player: PlayerOpt = False,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Full summaries, cited facts, recent changes and excerpts, trimmed to the budget."""
    with cli_service() as (service, settings):
        result = service.expand(
            handles,
            campaign or settings.campaign,
            budget=budget,
            as_player=as_player,
            as_of_session=as_of,
        )
        _print(result.markdown, result.model_dump_json(), as_json)


@app.command()
def context(
    question: Annotated[str, typer.Argument(help="Your question, in plain words.")],
    budget: BudgetOpt = 6000,
    campaign: CampaignOpt = None,
    k: Annotated[int, typer.Option("-k", min=1, max=100, help="Preview items.")] = 20,
    as_player: PlayerOpt = False,
    as_of: AsOfOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The preview plus the best expansions that fit: one cited block for a prompt."""
    with cli_service() as (service, settings):
        block = service.context(
            question,
            campaign or settings.campaign,
            budget=budget,
            k=k,
            as_player=as_player,
            as_of_session=as_of,
        )
        _print(block.markdown, block.model_dump_json(), as_json)
