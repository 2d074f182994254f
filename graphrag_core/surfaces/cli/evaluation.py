"""``loregraph eval``: the evaluation harness's command (the use case is in the service)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from graphrag_core.errors import LoregraphError, SourceError
from graphrag_core.services.evaluation import parse_questions
from graphrag_core.surfaces.cli.common import CampaignOpt, JsonOpt, cli_service, fail, out
from ranking.eval_models import EvalReport, Figures

app = typer.Typer()

_COLUMNS = ("P@5", "nP@5", "MRR@10", "halluc.", "as-of acc.", "p50 ms", "p95 ms", "n")


def _cells(f: Figures) -> list[str]:
    def share(value: float | None) -> str:
        return "–" if value is None else f"{value:.3f}"

    return [
        share(f.p_at_5),
        share(f.np_at_5),
        share(f.mrr_at_10),
        share(f.hallucination_rate),
        share(f.as_of_accuracy),
        f"{f.latency_p50_ms:.1f}",
        f"{f.latency_p95_ms:.1f}",
        str(f.questions),
    ]


def render_eval(console: Console, report: EvalReport) -> None:
    """One row per system (overall), one per system and question type, then the ratios."""
    table = Table("system", *_COLUMNS, title=f"eval: {report.campaign}")
    for system in report.systems:
        table.add_row(f"[bold]{system.name}[/]", *_cells(system.overall))
    for system in report.systems:
        for kind, figures in system.by_type.items():
            table.add_row(f"{system.name} · {kind}", *_cells(figures))
    console.print(table)
    for baseline, ratio in report.ratios.items():
        parts = ", ".join(f"{m} {'–' if v is None else f'{v:.2f}×'}" for m, v in ratio.items())
        console.print(f"ranker vs {baseline}: {parts}")


@app.command("eval")
def eval_(
    questions: Annotated[Path, typer.Argument(help="Question file (YAML or JSON).")],
    campaign: CampaignOpt = None,
    report_file: Annotated[
        Path, typer.Option("--out", "-o", help="Where to write the JSON report.")
    ] = Path("eval-report.json"),
    as_json: JsonOpt = False,
) -> None:
    """P@5, nP@5, MRR@10, hallucination rate, as-of accuracy and latency of the ranker
    against a semantic-only and a BM25-only baseline, over labelled questions."""
    try:
        parsed = parse_questions(read_text(questions), str(questions))
    except LoregraphError as exc:
        raise fail(exc) from exc
    with cli_service() as (service, _):
        report = service.evaluate(parsed, campaign)
    report_file.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    if as_json:
        out.print_json(report.model_dump_json())
        return
    render_eval(out, report)
    out.print(f"[dim]report written to {report_file}[/]")


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceError(str(path), f"cannot read it ({exc.strerror})") from None
