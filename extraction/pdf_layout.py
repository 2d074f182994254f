"""The spans a PDF document is chunked in: each within one page, cut at the PDF's headings.

``page_spans`` reads what ``extraction.pdf`` recorded on the document (page starts, headings
placed in the text) and gives, in order, every span between consecutive page starts and
heading offsets, with its page number and heading path (``Chapter 2 > The Copper Kettle``).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from graphrag_core.models import SourceDocument


@dataclass(frozen=True)
class PageSpan:
    """``text[start:end]`` lies on page ``page`` (from 1), under heading path ``heading``."""

    start: int
    end: int
    page: int
    heading: str


def page_spans(doc: SourceDocument) -> list[PageSpan]:
    pages = list(doc.pages) or [0]
    cuts = sorted({*pages, *(offset for offset, _, _ in doc.outline)})
    headings = sorted(doc.outline)
    spans: list[PageSpan] = []
    path: list[tuple[int, str]] = []
    taken = 0
    for index, low in enumerate(cuts):
        high = cuts[index + 1] if index + 1 < len(cuts) else len(doc.text)
        while taken < len(headings) and headings[taken][0] <= low:
            _, level, title = headings[taken]
            path = [*(p for p in path if p[0] < level), (level, title)]
            taken += 1
        if high > low:
            label = " > ".join(title for _, title in path)
            spans.append(PageSpan(low, high, bisect_right(pages, low), label))
    return spans
