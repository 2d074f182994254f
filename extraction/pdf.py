"""PDF sourcebooks: a text PDF read into a ``SourceDocument`` of kind ``pdf``.

The document's text is each page's extracted text (pypdf), pages joined by a blank line;
``pages`` holds the offset where each page starts, so a chunk cut inside one page cites it
(``book.pdf p. 47``) and its text is a contiguous substring of that page's text. Headings come
from the PDF's outline (bookmarks) when it has one, else from typographic cues: short lines set
in a font clearly larger than the body text's (the size most characters use), their level by
size. A heading is placed where its title occurs on its page (the page start when it does not).

A PDF without a text layer (a scan) is an error naming the file, never an empty source; so is a
PDF that cannot be read or that is encrypted with a password.
"""

from __future__ import annotations

import io
import math
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pypdf import PdfReader
from pypdf.errors import PdfReadWarning, PyPdfError

from graphrag_core.errors import SourceError
from graphrag_core.models import SourceDocument

PAGE_SEPARATOR = "\n\n"
HEADING_RATIO = 1.15
"""A line counts as a heading when its font is at least this much larger than the body's."""
_MAX_HEADING_CHARS = 100
_MAX_LEVELS = 3
NO_TEXT_LAYER = (
    "this PDF has no text layer ({pages} page(s), no extractable text: a scanned book?); "
    "run OCR on it first (e.g. `ocrmypdf book.pdf book-ocr.pdf`) and ingest the result"
)


@dataclass(frozen=True)
class _Run:
    """A piece of text drawn in one font size on one page."""

    page: int
    text: str
    size: float


def load_pdf(raw: bytes, rel: str, sha256: str) -> SourceDocument:
    """Read a text PDF; raise ``SourceError`` naming ``rel`` when there is no text to read."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdfReadWarning)
        try:
            reader = _open(raw, rel)
            texts, runs = _page_texts(reader)
            outline = _outline_entries(reader)
        except (PyPdfError, OSError, ValueError, KeyError, TypeError) as exc:
            raise SourceError(rel, f"not a readable PDF: {exc}") from exc
    if not any(text.strip() for text in texts):
        raise SourceError(rel, NO_TEXT_LAYER.format(pages=len(texts)))
    starts = _page_starts(texts)
    text = PAGE_SEPARATOR.join(texts)
    found = outline or _typographic_headings(runs)
    headings = _placed(found, texts, starts)
    return SourceDocument(
        path=rel, kind="pdf", sha256=sha256, text=text, pages=tuple(starts), outline=headings
    )


def _open(raw: bytes, rel: str) -> PdfReader:
    reader = PdfReader(io.BytesIO(raw))
    if reader.is_encrypted and not reader.decrypt(""):
        raise SourceError(rel, "the PDF is encrypted with a password; save a decrypted copy")
    return reader


def _page_texts(reader: PdfReader) -> tuple[list[str], list[_Run]]:
    texts: list[str] = []
    runs: list[_Run] = []
    for number, page in enumerate(reader.pages, start=1):

        def visit(text: str, cm: Any, tm: Any, font: Any, size: Any, page_no: int = number) -> None:
            if text.strip() and size:
                scale = math.hypot(float(tm[2]), float(tm[3])) or 1.0
                runs.append(_Run(page_no, text.strip(), round(float(size) * scale, 1)))

        texts.append(page.extract_text(visitor_text=visit).strip())
    return texts, runs


def _page_starts(texts: Sequence[str]) -> list[int]:
    starts, offset = [], 0
    for text in texts:
        starts.append(offset)
        offset += len(text) + len(PAGE_SEPARATOR)
    return starts


def _outline_entries(reader: PdfReader) -> list[tuple[int, int, str]]:
    """(page from 1, level from 1, title) of every outline entry, in document order."""
    found: list[tuple[int, int, str]] = []

    def walk(items: Sequence[Any], level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            index = reader.get_destination_page_number(item)
            title = str(item.title or "").strip()
            if title and index is not None and index >= 0:
                found.append((index + 1, min(level, _MAX_LEVELS), title))

    walk(reader.outline, 1)
    return found


def _typographic_headings(runs: Sequence[_Run]) -> list[tuple[int, int, str]]:
    """(page, level, title) of the short runs set clearly larger than the body text."""
    weights = Counter[float]()
    for run in runs:
        weights[run.size] += len(run.text)
    if not weights:
        return []
    body = weights.most_common(1)[0][0]
    large = [r for r in runs if r.size >= body * HEADING_RATIO and _heading_like(r.text)]
    sizes = sorted({r.size for r in large}, reverse=True)
    return [(r.page, min(sizes.index(r.size) + 1, _MAX_LEVELS), r.text) for r in large]


def _heading_like(text: str) -> bool:
    return len(text) <= _MAX_HEADING_CHARS and any(c.isalpha() for c in text)


def _placed(
    found: Sequence[tuple[int, int, str]], texts: Sequence[str], starts: Sequence[int]
) -> tuple[tuple[int, int, str], ...]:
    """Each heading as (offset in the document, level, title), where its title first occurs
    on its page after the previous heading of that page (else the page start)."""
    placed: list[tuple[int, int, str]] = []
    cursor: dict[int, int] = {}
    for page, level, title in found:
        if not 1 <= page <= len(texts):
            continue
        text = texts[page - 1]
        at = text.lower().find(title.lower(), cursor.get(page, 0))
        offset = at if at >= 0 else cursor.get(page, 0)
        cursor[page] = offset + (len(title) if at >= 0 else 0)
        placed.append((starts[page - 1] + offset, level, title))
    return tuple(sorted(placed, key=lambda h: h[0]))
