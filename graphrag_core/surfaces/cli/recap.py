"""``loregraph recap draft``: a changelog proposed from a session recap, for review."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from graphrag_core.surfaces.cli.common import CampaignOpt, cli_service, out
from graphrag_core.surfaces.cli.render import print_ledger

app = typer.Typer(help="Draft a changelog from a session recap.", no_args_is_help=True)


@app.command("draft")
def recap_draft(
    transcript: Annotated[Path, typer.Argument(help="A session transcript or recap (text).")],
    session: Annotated[int, typer.Option("--session", min=1, help="The session number.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Draft file (default: session-N.yaml).")
    ] = None,
    campaign: CampaignOpt = None,
    offline: Annotated[
        bool,
        typer.Option(
            "--offline", help="Use the offline patterns even when an LLM model is configured."
        ),
    ] = False,
) -> None:
    """Propose a changelog (deaths, destructions, attitudes, items changing hands) for the
    game master to review, then post with `loregraph changelog post`. Without an LLM model
    configured (or with --offline), deterministic patterns propose the deaths, destructions,
    disappearances and betrayals the recap states about the campaign's known entities."""
    with cli_service() as (service, settings):
        target = output or Path(f"session-{session}.yaml")
        draft = service.draft_recap(
            transcript, campaign or settings.campaign, session, target, offline=offline
        )
        out.print(f"Drafted {draft.proposed} change(s) to {target} "
                      f"({len(draft.skipped)} skipped, listed in the file); "
                      f"review it, then: loregraph changelog post {target}")  # fmt: skip
        for line in draft.skipped:
            out.print(f"  skipped: {escape(line)}")
        print_ledger(out, draft.ledger)
