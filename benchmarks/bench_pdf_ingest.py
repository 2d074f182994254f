"""How long a PDF sourcebook takes: a generated text PDF of ``--pages`` pages (default 300,
~2 KB of prose and a heading per page, written with fpdf2) read with pypdf, chunked, and
ingested into a fresh embedded FalkorDB with the real embedding model.

Run: ``python benchmarks/bench_pdf_ingest.py [--pages 300]``.

Reported: the time to write the PDF (not part of ingest), to read it (text, pages and
font-size headings), to run the offline extraction over it, and the whole ``ingest`` (read,
extract, embed, write) with the embedding model already loaded; and a check that every chunk
is a contiguous substring of the text pypdf extracts from the page it cites.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests package: tests/pdf_books.py writes the PDF

from pypdf import PdfReader  # noqa: E402

from extraction.offline import extract  # noqa: E402
from extraction.sources import load_document  # noqa: E402
from graphrag_core.config import IngestSettings  # noqa: E402
from graphrag_core.models import Chunk  # noqa: E402
from graphrag_core.settings import Settings  # noqa: E402
from graphrag_core.wiring import open_service  # noqa: E402
from tests.pdf_books import lore_pages, write_book  # noqa: E402


def _timed(label: str, started: float) -> float:
    seconds = time.perf_counter() - started
    print(f"{label:<40} {seconds:8.2f} s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        books = Path(tmp) / "books"
        books.mkdir()
        started = time.perf_counter()
        book = write_book(books / "sourcebook.pdf", lore_pages(args.pages))
        _timed(f"write {args.pages}-page PDF (fpdf2)", started)
        print(f"{'PDF size':<40} {book.stat().st_size / 1e6:8.2f} MB")
        started = time.perf_counter()
        doc = load_document(book, books)
        _timed("read (pypdf text, pages, headings)", started)
        print(f"{'text extracted':<40} {len(doc.text) / 1e6:8.2f} MB, {len(doc.outline)} headings")
        started = time.perf_counter()
        ingest = IngestSettings()
        extraction = extract([doc], chunk_size=ingest.chunk_size, overlap=ingest.chunk_overlap)
        _timed("offline extraction (chunks, entities)", started)
        _check_citations(book, extraction.chunks)
        settings = Settings(data_dir=Path(tmp) / "data")
        with open_service(settings) as service:
            started = time.perf_counter()
            service.embedder.embed(["warm up"])
            _timed("load the embedding model (not counted)", started)
            started = time.perf_counter()
            report = service.ingest(books, "bench")
            seconds = _timed("ingest (read, extract, embed, write)", started)
        print(f"{'chunks / embedded':<40} {report.chunks:>8} / {report.embedded}")
        print(f"{'throughput':<40} {len(doc.text) / 1e6 / (seconds / 60):8.2f} MB/min")


def _check_citations(book: Path, chunks: Sequence[Chunk]) -> None:
    pages = [page.extract_text() for page in PdfReader(book).pages]
    honest = sum(1 for c in chunks if c.page and c.text in pages[c.page - 1])
    print(f"{'chunks within their cited page':<40} {honest:>8} / {len(chunks)}")


if __name__ == "__main__":
    main()
