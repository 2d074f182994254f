"""``loregraph eval``: the evaluation harness's command (the use case is in the service)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from graphrag_core.errors import LoregraphError, SourceError
from graphrag_core.services.evaluation import parse_questions
from graphrag_core.surfaces.cli.common import CampaignOpt, JsonOpt, cli_service, fail, out
from ranking.eval_models import EvalReport, Figures

app = typer.Typer()

_BY_TYPE = ("P@5", "nP@5", "MRR@10", "hall.", "as-of")
_OVERALL = (*_BY_TYPE, "p50 ms", "p95 ms")
_METRICS = {"p_at_5": "P@5", "np_at_5": "nP@5", "mrr_at_10": "MRR@10", "as_of_accuracy": "as-of"}
_LEGEND = "hall. = hallucination rate, as-of = as-of accuracy; – = no question of that kind"


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _quality(f: Figures) -> list[str]:
    return [_share(v) for v in (f.p_at_5, f.np_at_5, f.mrr_at_10)] + [
        _share(f.hallucination_rate),
        _share(f.as_of_accuracy),
    ]


def _table(title: str, names: tuple[str, ...], figures: tuple[str, ...]) -> Table:
    """Names never wrap or shorten ("semantic-only", "current_state"): the table fits 80
    columns because it has no vertical rules and the per-type rows leave latency to JSON."""
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in names:
        table.add_column(name, no_wrap=True)
    for column in figures:
        table.add_column(column, justify="right", no_wrap=True)
    return table


def render_eval(console: Console, report: EvalReport) -> None:
    """One row per system (overall), then per question type one row per system (quality
    figures; the JSON report has every figure for every type), then the ratios."""
    count = report.systems[0].overall.questions if report.systems else 0
    overall = _table(f"eval: {report.campaign} ({count} questions)", ("system",), _OVERALL)
    for system in report.systems:
        f = system.overall
        latency = [f"{f.latency_p50_ms:.1f}", f"{f.latency_p95_ms:.1f}"]
        overall.add_row(f"[bold]{system.name}[/]", *_quality(f), *latency)
    console.print(overall)
    kinds = sorted({kind for system in report.systems for kind in system.by_type})
    by_type = _table("by question type", ("type (n)", "system"), _BY_TYPE)
    for kind in kinds:
        rows = [(s.name, s.by_type[kind]) for s in report.systems if kind in s.by_type]
        for index, (name, figures) in enumerate(rows):
            label = f"{kind} ({figures.questions})" if index == 0 else ""
            by_type.add_row(label, name, *_quality(figures), end_section=index == len(rows) - 1)
    if kinds:
        console.print(by_type)
    for baseline, ratio in report.ratios.items():
        parts = ", ".join(
            f"{_METRICS.get(m, m)} {'–' if v is None else f'{v:.2f}×'}" for m, v in ratio.items()
        )
        console.print(f"ranker vs {baseline}: {parts}")
    console.print(f"[dim]{_LEGEND}[/]")


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
    if report.unresolved:
        names = ", ".join(report.unresolved)
        out.print(
            f"[yellow]warning:[/] {len(report.unresolved)} label(s) name no entity of "
            f"{report.campaign} and count as misses: {names} (`loregraph entity NAME` shows "
            "what a name resolves to)"
        )
    out.print(f"[dim]report written to {report_file}[/]")


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceError(str(path), f"cannot read it ({exc.strerror})") from None
