"""``loregraph changelog post|list``: session change sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from graphrag_core.services.changelog import read_changeset_text
from graphrag_core.surfaces.cli import render
from graphrag_core.surfaces.cli.analytics_render import render_build
from graphrag_core.surfaces.cli.common import CampaignOpt, JsonOpt, cli_service, err, out

app = typer.Typer(help="Post and list session change sets.", no_args_is_help=True)


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
    if as_json:
        out.print_json(done.post.model_dump_json())
    else:
        render.render_post(out, done.post)
    if done.build is not None:
        render_build(err if as_json else out, done.build)


@app.command("list")
def changelog_list(campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """List the posted change sets of a campaign."""
    with cli_service() as (service, settings):
        records = service.changesets(campaign or settings.campaign)
    if as_json:
        out.print_json(json.dumps([r.model_dump(mode="json") for r in records]))
        return
    for r in records:
        out.print(
            f"session {r.session_id} r{r.revision}: {r.change_count} change(s) "
            f"from {r.source} at {r.posted_at} {r.title}"
        )
