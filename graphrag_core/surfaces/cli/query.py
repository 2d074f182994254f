"""Questions about the world: ``ask`` (ranked entities and passages, or ``--global`` from
the community summaries) and ``campaigns``."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from graphrag_core.services import answers
from graphrag_core.services.service import LoregraphService
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


class Preset(StrEnum):
    """The weight presets of ``ask --preset`` (``ranking.presets``)."""

    current_state = "current_state"
    historical = "historical"
    lore = "lore"


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
    preset: Annotated[
        Preset | None,
        typer.Option(
            "--preset",
            help="Weight preset: current_state, historical or lore (default: from the question).",
        ),
    ] = None,
    write_answer: Annotated[
        bool,
        typer.Option(
            "--answer/--no-answer",
            help="With a chat model configured: write a short cited answer first (default).",
        ),
    ] = True,
) -> None:
    """Ranked entities and passages with effective status, score and citations; with a chat
    model configured, a short answer first whose every sentence cites a handle."""
    with cli_service() as (service, settings):
        if write_answer and service.can_answer and not global_:
            _answer(service, question, campaign or settings.campaign, as_player, as_of, as_json)
            if as_json:
                return
        if global_:
            answer = service.ask_global(
                question, campaign or settings.campaign, as_player=as_player, k=k,
                as_of_session=as_of,
            )  # fmt: skip
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
            preset=preset.value if preset else None,
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


def _answer(
    service: LoregraphService,
    question: str,
    campaign: str,
    as_player: bool,
    as_of: int | None,
    as_json: bool,
) -> None:
    """Stream the cited answer (text), or print it whole (JSON)."""
    events = service.answer_events(question, campaign, as_player=as_player, as_of_session=as_of)
    if as_json:
        out.print_json(answers.final_answer(events).model_dump_json())
        return
    for event in events:
        if event.kind == "token":
            out.print(event.text, end="", markup=False, highlight=False)
        elif event.kind == "complete" and event.answer is not None:
            dropped = len(event.answer.dropped)
            note = f" ({dropped} uncited sentence(s) dropped)" if dropped else ""
            out.print(f"\n[dim]— {event.answer.model}{note}[/]\n")
