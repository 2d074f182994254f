"""The text table of ``loregraph eval`` fits an 80-column terminal with every name whole."""

from __future__ import annotations

from rich.console import Console

from graphrag_core.surfaces.cli.evaluation import render_eval
from ranking.eval_models import EvalReport, Figures, SystemReport


def _figures(n: int, hallucination: float | None) -> Figures:
    return Figures(
        questions=n,
        p_at_5=0.2271,
        np_at_5=0.745,
        mrr_at_10=0.7403,
        hallucination_rate=hallucination,
        as_of_accuracy=None,
        latency_p50_ms=14.2,
        latency_p95_ms=116.6,
    )


def _report() -> EvalReport:
    systems = tuple(
        SystemReport(
            name=name,
            overall=_figures(59, 0.0),
            by_type={"current_state": _figures(11, 0.5), "relationship": _figures(11, None)},
        )
        for name in ("ranker", "semantic-only", "bm25-only")
    )
    ratios = {"semantic-only": {"mrr_at_10": 1.29, "as_of_accuracy": None}}
    return EvalReport(campaign="caldergap", systems=systems, ratios=ratios)


def test_eval_table_fits_80_columns_without_shortening_a_name() -> None:
    console = Console(width=80, record=True, color_system=None)
    render_eval(console, _report())
    text = console.export_text()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text.count("semantic-only") >= 3  # overall and both types
    assert "current_state (11)" in text
    assert "0.227" in text and "116.6" in text
    assert "ranker vs semantic-only: MRR@10 1.29×, as-of –" in text
