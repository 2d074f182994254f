"""PDF sourcebooks: real PDFs written in the test, read with pypdf. Pages are kept, each chunk
is a contiguous substring of one page's extracted text and carries its number, headings come
from the outline or from font sizes, and a PDF without a text layer is an error."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from extraction.chunking import chunk_document
from extraction.sources import discover, load_document
from graphrag_core.errors import SourceError
from tests.pdf_books import write_book, write_scan

PAGES = [
    ("Kettlebridge", "Kettlebridge is a mill town on the Slow River, governed by Reeve Alda "
                     "Brandt from the Tollhouse. " * 6),
    ("The Copper Kettle", "The Copper Kettle is an inn with six beds. Its keeper, Hob Tarrow, "
                          "serves eel pie to travellers."),
    ("", "Wenna Marsh is a gnome apothecary who sells remedies by the ford."),
]  # fmt: skip


def _page_texts(path: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(path).pages]


def test_a_text_pdf_keeps_its_pages_and_each_chunk_lies_within_one(tmp_path: Path) -> None:
    book = write_book(tmp_path / "book.pdf", PAGES)
    doc = load_document(book, tmp_path)
    assert (doc.kind, doc.path, len(doc.pages)) == ("pdf", "book.pdf", 3)
    chunks = chunk_document(doc, chunk_size=200)
    assert len(chunks) > 3 and {c.page for c in chunks} == {1, 2, 3}
    pages = _page_texts(book)
    for chunk in chunks:
        assert chunk.text == doc.text[chunk.start : chunk.end]
        assert chunk.page is not None and chunk.text in pages[chunk.page - 1]
    kettle = [c for c in chunks if "eel pie" in c.text]
    assert [c.page for c in kettle] == [2]


def test_headings_come_from_font_sizes_without_an_outline(tmp_path: Path) -> None:
    doc = load_document(write_book(tmp_path / "book.pdf", PAGES), tmp_path)
    assert [(level, title) for _, level, title in doc.outline] == [
        (1, "Kettlebridge"), (1, "The Copper Kettle"),
    ]  # fmt: skip
    headings = {c.page: c.heading for c in chunk_document(doc, chunk_size=2000)}
    assert headings == {1: "Kettlebridge", 2: "The Copper Kettle", 3: "The Copper Kettle"}


def test_the_outline_gives_headings_when_there_is_one(tmp_path: Path) -> None:
    pages = [("Gazetteer", "Places of the vale."), ("Inns", "The Copper Kettle has six beds.")]
    book = write_book(tmp_path / "book.pdf", pages, outline=True, heading_size=11)
    doc = load_document(book, tmp_path)
    assert [title for _, _, title in doc.outline] == ["Gazetteer", "Inns"]
    assert doc.text[doc.outline[1][0] :].startswith("Inns")
    assert [c.heading for c in chunk_document(doc, chunk_size=2000)] == ["Gazetteer", "Inns"]


def test_a_pdf_without_a_text_layer_is_an_error_naming_it(tmp_path: Path) -> None:
    write_scan(tmp_path / "scan.pdf", pages=3)
    with pytest.raises(SourceError) as caught:
        load_document(tmp_path / "scan.pdf", tmp_path)
    assert caught.value.path == "scan.pdf"
    assert "no text layer" in caught.value.reason and "3 page(s)" in caught.value.reason
    assert "OCR" in caught.value.reason


def test_a_broken_pdf_is_an_error_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\nthis is not a PDF body\n")
    with pytest.raises(SourceError, match="not a readable PDF"):
        load_document(tmp_path / "broken.pdf", tmp_path)


def test_pdfs_are_discovered_beside_markdown(tmp_path: Path) -> None:
    write_book(tmp_path / "Book.PDF", PAGES[:1])
    (tmp_path / "notes.md").write_text("# Notes\n")
    assert [p.name for p in discover(tmp_path)] == ["Book.PDF", "notes.md"]
