"""``loregraph ingest``: sources into the campaign graph, with the LLM extractor's dry run
and ledger when a model is configured, then the analytics build."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.cli import render
from graphrag_core.surfaces.cli.analytics_render import build_after_ingest
from graphrag_core.surfaces.cli.common import CampaignOpt, cli_service, err, out

app = typer.Typer()
_said_offline = False


@app.command()
def ingest(
    path: Annotated[Path, typer.Argument(help="A folder (the campaign's sources) or one file.")],
    campaign: CampaignOpt = None,
    no_build: Annotated[
        bool, typer.Option("--no-build", help="Skip the analytics build after ingest.")
    ] = False,
    extractor: Annotated[
        str, typer.Option(help="offline, or llm (needs LOREGRAPH_LLM_MODEL).")
    ] = "offline",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="With --extractor llm: estimate, call nothing.")
    ] = False,
    retry_failed: Annotated[
        bool,
        typer.Option(
            "--retry-failed",
            help="With --extractor llm: ask again for chunks whose output was unusable in an "
            "earlier run (otherwise an unchanged chunk is never paid for twice).",
        ),
    ] = False,
) -> None:
    """Ingest Markdown, text, an Obsidian-style vault and YAML world packs.

    Unchanged files are skipped, changed ones replaced, removed ones withdrawn (folder ingest).
    A single file inside an ingested folder keeps its place in the campaign. A broken file is
    reported and its last good content kept. Writes a manifest per run. Then runs
    'loregraph build' unless --no-build (or nothing changed and the analytics exist)."""
    with cli_service() as (service, settings):
        use_llm = wants_llm(service, extractor, err)
        if dry_run:
            _dry_run(service, path, campaign or settings.campaign, use_llm, retry_failed)
            return
        with render.RichProgress(err) as progress:
            report = service.ingest(
                path, campaign or settings.campaign, progress,
                use_llm=use_llm, retry_failed=retry_failed,
            )  # fmt: skip
        render.render_ingest(out, report)
        render.render_ledger(out, report)
        if not no_build:
            build_after_ingest(service, report, out, err)
    if report.failures:
        raise typer.Exit(3)


def wants_llm(service: LoregraphService, extractor: str, err: Console) -> bool:
    """Whether to extract with the LLM; says once when none is configured."""
    global _said_offline
    if extractor not in ("offline", "llm"):
        raise typer.BadParameter("use 'offline' or 'llm'", param_hint="--extractor")
    if extractor == "llm" and service.llm is None:
        if not _said_offline:
            err.print(
                "[yellow]no LLM model configured[/] (LOREGRAPH_LLM_MODEL): "
                "using the offline extractor"
            )
            _said_offline = True
        return False
    return extractor == "llm"


def _dry_run(
    service: LoregraphService, path: Path, campaign: str, use_llm: bool, retry_failed: bool
) -> None:
    """Print what an LLM extraction would send and cost; no call is made."""
    if not use_llm:
        out.print("dry run: the offline extractor makes no LLM calls and costs nothing.")
        return
    plan = service.estimate_llm(path, campaign, retry_failed=retry_failed)
    cost = f"${plan.cost_usd:.4f}" if plan.priced else "unknown (model not in the price table)"
    how = "exact" if plan.exact else "estimate: not an OpenAI model"
    out.print(f"dry run for model [bold]{plan.model}[/] (no call made)")
    out.print(f"  chunks:                      {plan.chunks} ({plan.cached} cached, free)")
    out.print(f"  LLM calls:                   {plan.calls} (extraction and gleaning; repair "
              "rounds and arbitration happen only when needed and are not counted)")  # fmt: skip
    out.print(f"  prompt tokens ({how}, {plan.encoding}, with chat framing and schema): "
              f"{plan.prompt_tokens}")  # fmt: skip
    out.print(f"  expected completion tokens:  {plan.completion_tokens}")
    out.print(f"  estimated cost:              {cost}")
