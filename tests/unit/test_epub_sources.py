"""EPUB sourcebooks: chapters in spine order, markup dropped, headings kept, chunks within one
chapter and without a page; DRM and empty books are errors naming the file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from extraction.chunking import chunk_document
from extraction.sources import load_document
from graphrag_core.errors import SourceError
from tests.pdf_books import write_epub

CHAPTERS = [
    "<h1>The Copper Kettle</h1><p>The Copper Kettle is an inn with <em>six</em> beds.</p>"
    "<p>Its keeper,\n  Hob Tarrow, serves eel pie &amp; cider.</p>",
    "<h1>Kettlebridge</h1><h2>The Tollhouse</h2><p>Reeve Alda Brandt governs from here.</p>"
    "<script>ignored()</script>",
]


def test_an_epub_reads_in_spine_order_with_headings(tmp_path: Path) -> None:
    doc = load_document(write_epub(tmp_path / "book.epub", CHAPTERS), tmp_path)
    assert doc.kind == "epub" and len(doc.pages) == 2
    assert doc.text.startswith("Kettlebridge\nThe Tollhouse\nReeve Alda Brandt governs")
    assert "Its keeper, Hob Tarrow, serves eel pie & cider." in doc.text
    assert "ignored" not in doc.text and "margin" not in doc.text
    assert [(level, title) for _, level, title in doc.outline] == [
        (1, "Kettlebridge"), (2, "The Tollhouse"), (1, "The Copper Kettle"),
    ]  # fmt: skip
    chunks = chunk_document(doc, chunk_size=2000)
    assert [c.heading for c in chunks] == [
        "Kettlebridge", "Kettlebridge > The Tollhouse", "The Copper Kettle",
    ]  # fmt: skip
    assert all(c.page is None and c.text == doc.text[c.start : c.end] for c in chunks)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: write_epub(p, CHAPTERS, drm=True), "DRM-protected"),
        (lambda p: write_epub(p, ["<p> </p>"]), "holds no text"),
        (lambda p: p.write_bytes(b"PK\x03\x04 not a zip"), "not a readable EPUB"),
    ],
)
def test_a_book_without_readable_text_is_an_error(
    tmp_path: Path, make: Callable[[Path], object], reason: str
) -> None:
    make(tmp_path / "book.epub")
    with pytest.raises(SourceError, match=reason):
        load_document(tmp_path / "book.epub", tmp_path)
