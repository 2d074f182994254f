"""Real text PDFs for the PDF tests and benchmarks/bench_pdf_ingest.py, written with fpdf2 (a dev
dependency: pypdf reads PDFs but cannot lay out text)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fpdf import FPDF

Page = tuple[str, str]
"""(heading, body) of one page; an empty heading draws none."""


def write_book(
    path: Path, pages: Sequence[Page], *, outline: bool = False, heading_size: int = 18
) -> Path:
    """A PDF with one page per item: the heading in a large font (and, with ``outline``, a
    bookmark to it), then the body in 11 pt."""
    pdf = FPDF()
    pdf.set_auto_page_break(False)
    for heading, body in pages:
        pdf.add_page()
        if heading and outline:
            pdf.start_section(heading)
        if heading:
            pdf.set_font("Helvetica", size=heading_size)
            pdf.cell(text=heading)
            pdf.ln(12)
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(w=0, text=body)
    pdf.output(str(path))
    return path


def write_scan(path: Path, pages: int = 2) -> Path:
    """A PDF without a text layer, as a scanner makes it: only drawings on its pages."""
    pdf = FPDF()
    for _ in range(pages):
        pdf.add_page()
        pdf.rect(20, 20, 170, 250, style="F")
    pdf.output(str(path))
    return path


def lore_pages(count: int) -> list[Page]:
    """``count`` pages of varied sourcebook prose, a heading on each."""
    places = ("Kettlebridge", "the Copper Kettle", "the Tollhouse", "the Slow River", "Fenwatch")
    pages = []
    for n in range(count):
        place = places[n % len(places)]
        body = " ".join(
            f"Entry {n}.{k}: travellers say that {place} keeps its lamps lit until the bells of "
            f"the {k}th hour, and that the reeve's clerks write every toll in a green ledger."
            for k in range(1, 14)
        )
        pages.append((f"Chapter {n + 1}: {place.title()}", body))
    return pages
