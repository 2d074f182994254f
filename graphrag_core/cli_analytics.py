"""CLI commands of graph analytics: ``build``, ``communities``, ``community`` (issue 5).

Hooked into :mod:`graphrag_core.cli` by :func:`register`; ``ingest``, ``changelog post`` and
``ask --global`` call :func:`build_after_ingest`, :func:`render_build` and
:func:`render_global` from there."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphrag_core.analytics_models import BuildReport, CommunityView, GlobalAnswer
from graphrag_core.cli_render import RichProgress, one_line
from graphrag_core.models import IngestReport
from graphrag_core.service import LoregraphService

CampaignOpt = Annotated[
    str | None,
    typer.Option("--campaign", "-c", help="Campaign id (default: LOREGRAPH_CAMPAIGN)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print stable JSON instead of a table.")]
PlayerOpt = Annotated[
    bool, typer.Option("--as-player", help="Player-facing: only party-visible summaries.")
]


def run_build(service: LoregraphService, campaign: str, out: Console, err: Console) -> None:
    with RichProgress(err) as progress:
        report = service.build(campaign, progress)
    render_build(out, report)


def build_after_ingest(
    service: LoregraphService, report: IngestReport, out: Console, err: Console
) -> None:
    """The build at the end of ``ingest``, or why there was none."""
    with RichProgress(err) as progress:
        built = service.build_after_ingest(report, progress)
    if built is None:
        out.print("Analytics unchanged: nothing was written, so no rebuild.")
    else:
        render_build(out, built)


def render_build(console: Console, report: BuildReport) -> None:
    clustering = "re-clustered" if report.reclustered else "graph unchanged, clustering kept"
    fallbacks = (
        f", {report.fallbacks} model fallback(s) (extractive, retried next build)"
        if report.fallbacks
        else ""
    )
    console.print(
        f"Built {report.campaign}: {report.communities} GM communities on {report.levels} "
        f"level(s) and {report.party_communities} party communities over {report.entities} "
        f"entities / {report.relations} relations ({clustering}); {report.summaries} "
        f"summaries ({report.resummarised} written anew{fallbacks}, {report.embedded} "
        f"embedded), {report.reused_ids} ids kept, {report.algorithm}, {report.seconds:.2f} s"
    )


def render_communities(console: Console, views: list[CommunityView]) -> None:
    table = Table("id", "v", "level", "parent", "size", "title", "members", "summary")
    for v in views:
        table.add_row(
            v.id,
            str(v.version),
            str(v.level),
            v.parent or "",
            str(v.size),
            v.title,
            one_line(", ".join(v.members), 60),
            one_line(v.findings[0].text if v.findings else v.summary, 80),
        )
    console.print(table)


def render_community(console: Console, view: CommunityView) -> None:
    console.print(f"[bold]{view.id}[/] v{view.version} level {view.level}: {escape(view.title)}")
    console.print(f"parent: {view.parent or '-'}; sub-communities: {', '.join(view.children)}")
    console.print(f"members ({view.size}): {', '.join(view.members)}")
    for f in view.findings:
        cites = ", ".join(f.entity_ids + f.relation_ids + f.change_ids)
        console.print(f"  - {escape(f.text)} [dim]{escape(cites)}[/]")


def render_global(console: Console, answer: GlobalAnswer) -> None:
    """The cited claims (the answer, sentence by sentence), then the summaries used."""
    for claim in answer.claims:
        cites = ", ".join(claim.community_ids + claim.entity_ids + claim.change_ids)
        console.print(f"  - {escape(claim.text)} [dim]{escape(cites)}[/]")
    if answer.note:
        console.print(f"[yellow]note:[/] {escape(answer.note)}")
    for hit in answer.summaries:
        console.print(f"[bold]{hit.community_id}[/] ({hit.score:.2f}) {escape(hit.title)}")


def register(app: typer.Typer) -> None:
    """Add the analytics commands to the ``loregraph`` app."""
    from graphrag_core import cli as base

    @app.command()
    def build(campaign: CampaignOpt = None) -> None:
        """Centrality, hierarchical Leiden communities and one summary per community."""
        with base._service() as (service, settings):
            run_build(service, campaign or settings.campaign, base.out, base.err)

    @app.command()
    def communities(
        campaign: CampaignOpt = None,
        level: Annotated[int | None, typer.Option("--level", "-l", help="Only this level.")] = None,
        as_player: PlayerOpt = False,
        as_json: JsonOpt = False,
    ) -> None:
        """List communities: id, version, level, parent, size, title, members, first finding.

        With --as-player: the party's own communities, clustered from what players may see."""
        with base._service() as (service, settings):
            views = service.communities(
                campaign or settings.campaign, as_player=as_player, level=level
            )
            if as_json:
                base.out.print_json(json.dumps([v.model_dump(mode="json") for v in views]))
            else:
                render_communities(base.out, views)

    @app.command()
    def community(
        community_id: Annotated[str, typer.Argument(help="A community id, e.g. c-0-1.")],
        campaign: CampaignOpt = None,
        as_player: PlayerOpt = False,
        as_json: JsonOpt = False,
    ) -> None:
        """One community with its summary, findings and sub-communities."""
        with base._service() as (service, settings):
            view = service.community(
                community_id, campaign or settings.campaign, as_player=as_player
            )
            if as_json:
                base.out.print_json(view.model_dump_json())
            else:
                render_community(base.out, view)
