"""``loregraph changelog post|list|withdraw``: session change sets."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from pydantic import BaseModel
from rich.console import Console

from graphrag_core.analytics_models import BuildReport
from graphrag_core.services.changelog import read_changeset_text
from graphrag_core.surfaces.cli import render
from graphrag_core.surfaces.cli.analytics_render import render_build
from graphrag_core.surfaces.cli.common import CampaignOpt, JsonOpt, cli_service, err, out

M = TypeVar("M", bound=BaseModel)

app = typer.Typer(help="Post, list and withdraw session change sets.", no_args_is_help=True)


@app.command("post")
def changelog_post(
    file: Annotated[Path, typer.Argument(help="A session change set, JSON or YAML.")],
    campaign: CampaignOpt = None,
    amend: Annotated[
        bool, typer.Option("--amend", help="Post a correction superseding an earlier revision.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Validate and store a session's changes (append-only; posting twice changes nothing).

    When their impact schedules or forces a rebuild, the analytics are rebuilt at once, with
    progress, and the build is reported.

    Entities are named by id, name or alias; a name the campaign does not know is resolved
    when exactly one entity of the declared type has the same words up to extra words and
    plurals ("Garran the Eel" → Garran), and the post says so; otherwise it is refused with
    the candidates."""
    with cli_service() as (service, settings), render.RichProgress(err) as progress:
        done = service.post_and_rebuild(
            read_changeset_text(file),
            campaign or settings.campaign,
            source_name=file.name,
            amend=amend,
            progress=progress,
        )
    _print_outcome(done.post, render.render_post, done.build, as_json)


@app.command("list")
def changelog_list(campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """List the posted change sets of a campaign, withdrawals and withdrawn revisions marked."""
    with cli_service() as (service, settings):
        records = service.changesets(campaign or settings.campaign)
    if as_json:
        out.print_json(json.dumps([r.model_dump(mode="json") for r in records]))
        return
    for line in render.changeset_lines(records):
        out.print(line, markup=False, highlight=False)


@app.command("withdraw")
def changelog_withdraw(
    session: Annotated[int, typer.Argument(help="The session whose change set to withdraw.")],
    revision: Annotated[
        int | None,
        typer.Option("--revision", "-r", help="The revision to withdraw (default: the latest)."),
    ] = None,
    campaign: CampaignOpt = None,
    at_session: Annotated[
        int | None,
        typer.Option(
            "--at-session",
            help="The session from which the withdrawal holds; --as-of views before it still "
            "show the changes (default: the campaign's latest posted session).",
        ),
    ] = None,
    note: Annotated[str, typer.Option("--note", help="Why it is withdrawn.")] = "",
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Withdraw a posted change set (append-only: the withdrawal is itself recorded, as a new
    revision of the session; `--as-of` views before it still show the old state). Post the
    session again to restore it. Asks first unless --yes."""
    which = f"revision {revision}" if revision is not None else "the latest revision"
    if not yes and not typer.confirm(f"Withdraw {which} of session {session}?"):
        err.print("Nothing withdrawn.")
        raise typer.Exit(1)
    with cli_service() as (service, settings), render.RichProgress(err) as progress:
        done = service.withdraw(
            campaign or settings.campaign,
            session,
            revision=revision,
            at_session=at_session,
            note=note,
            progress=progress,
        )
    _print_outcome(done.withdrawal, render.render_withdraw, done.build, as_json)


def _print_outcome(
    result: M, show: Callable[[Console, M], None], build: BuildReport | None, as_json: bool
) -> None:
    """A post's or a withdrawal's result (JSON or text), then the rebuild it triggered, if
    any (on stderr under ``--json``, so stdout stays one JSON document)."""
    if as_json:
        out.print_json(result.model_dump_json())
    else:
        show(out, result)
    if build is not None:
        render_build(err if as_json else out, build)
