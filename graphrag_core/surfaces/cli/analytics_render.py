"""How the CLI draws the analytics: build reports, communities, global answers; and the
build that follows an ingest or a command, with its progress bar."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphrag_core.analytics_models import BuildReport, CommunityView, GlobalAnswer
from graphrag_core.models import IngestReport
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.cli.render import RichProgress, one_line


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
