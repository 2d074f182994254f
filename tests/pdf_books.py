"""Real books for the PDF and EPUB tests and benchmarks/bench_pdf_ingest.py: text PDFs written
with fpdf2 (a dev dependency: pypdf reads PDFs but cannot lay out text), EPUBs zipped by hand."""

from __future__ import annotations

import zipfile
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


def write_epub(path: Path, chapters: Sequence[str], *, drm: bool = False) -> Path:
    """An EPUB 3 of XHTML ``chapters`` (bodies), in a zip as readers expect it."""
    container = (
        '<?xml version="1.0"?><container version="1.0" '
        'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
        '<rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
        "</rootfiles></container>"
    )
    items = "".join(
        f'<item id="c{n}" href="text/c{n}.xhtml" media-type="application/xhtml+xml"/>'
        for n in range(len(chapters))
    )
    spine = "".join(f'<itemref idref="c{n}"/>' for n in reversed(range(len(chapters))))
    package = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
        f"<manifest>{items}</manifest><spine>{spine}</spine></package>"
    )
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/epub+zip")
        book.writestr("META-INF/container.xml", container)
        book.writestr("OEBPS/book.opf", package)
        if drm:
            book.writestr("META-INF/encryption.xml", "<encryption/>")
        for n, body in enumerate(chapters):
            xhtml = (
                '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Book</title>'
                f"<style>p {{ margin: 0 }}</style></head><body>{body}</body></html>"
            )
            book.writestr(f"OEBPS/text/c{n}.xhtml", xhtml)
    return path
