"""EPUB sourcebooks: the chapters of an EPUB, in reading order, as one ``SourceDocument``.

An EPUB is a zip holding XHTML chapters; ``META-INF/container.xml`` names the package file,
whose spine gives their order. Each chapter's text is its XHTML with the markup dropped (a
paragraph, list item, heading or line break ends a line; spaces inside a line collapsed), and
``h1``–``h3`` become the document's headings. Chapters are joined by a blank line and their
starts recorded in ``pages``, so that no chunk spans two chapters (an EPUB has no pages: its
chunks carry no page number). A DRM-protected EPUB, or one with no text, is an error naming it.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from html.parser import HTMLParser
from xml.etree import ElementTree

from extraction.pdf import PAGE_SEPARATOR
from graphrag_core.errors import SourceError
from graphrag_core.models import SourceDocument

_BLOCKS = frozenset(
    {"p", "div", "li", "br", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "section"}
)
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3}
_SKIPPED = frozenset({"script", "style", "head", "title"})
_SPACES = re.compile(r"[ \t\r\n\f\v]+")


class _Chapter(HTMLParser):
    """Plain text and headings of one XHTML chapter."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.headings: list[tuple[int, int, str]] = []  # (line index, level, title)
        self._line: list[str] = []
        self._skip = 0
        self._heading: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skip += 1
        elif tag in _BLOCKS:
            self._end_line()
            self._heading = _HEADINGS.get(tag, self._heading)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCKS:
            self._end_line()

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._line.append(data)

    def _end_line(self) -> None:
        line = _SPACES.sub(" ", "".join(self._line)).strip()
        self._line = []
        if line:
            if self._heading is not None:
                self.headings.append((len(self.lines), self._heading, line))
            self.lines.append(line)
        self._heading = None

    def text(self) -> tuple[str, list[tuple[int, int, str]]]:
        """The chapter's text and its headings as (offset, level, title)."""
        self._end_line()
        offsets, at = [], 0
        for line in self.lines:
            offsets.append(at)
            at += len(line) + 1
        return "\n".join(self.lines), [(offsets[i], lvl, t) for i, lvl, t in self.headings]


def load_epub(raw: bytes, rel: str, sha256: str) -> SourceDocument:
    """Read an EPUB; raise ``SourceError`` naming ``rel`` when it has no text to read."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as book:
            if "META-INF/encryption.xml" in book.namelist():
                raise SourceError(rel, "the EPUB is DRM-protected (encrypted); use a DRM-free copy")
            chapters = [_chapter(book.read(name).decode("utf-8")) for name in _spine(book)]
    except (
        zipfile.BadZipFile,
        KeyError,
        StopIteration,
        ElementTree.ParseError,
        UnicodeDecodeError,
    ) as exc:
        raise SourceError(rel, f"not a readable EPUB: {exc}") from exc
    chapters = [(text, heads) for text, heads in chapters if text.strip()]
    if not chapters:
        raise SourceError(rel, "the EPUB holds no text")
    starts, outline, offset = [], [], 0
    for text, heads in chapters:
        starts.append(offset)
        outline += [(offset + at, level, title) for at, level, title in heads]
        offset += len(text) + len(PAGE_SEPARATOR)
    text = PAGE_SEPARATOR.join(text for text, _ in chapters)
    return SourceDocument(
        path=rel, kind="epub", sha256=sha256, text=text, pages=tuple(starts), outline=tuple(outline)
    )


def _chapter(xhtml: str) -> tuple[str, list[tuple[int, int, str]]]:
    parser = _Chapter()
    parser.feed(xhtml)
    parser.close()
    return parser.text()


def _spine(book: zipfile.ZipFile) -> list[str]:
    """The chapter files in reading order."""
    # ElementTree resolves no external entities, and the expat it ships with (>= 2.4.1) caps
    # entity expansion (billion laughs); the package files are small XML by specification.
    container = ElementTree.fromstring(book.read("META-INF/container.xml"))  # noqa: S314
    rootfile = next(e for e in container.iter() if e.tag.endswith("rootfile"))
    package_path = rootfile.attrib["full-path"]
    package = ElementTree.fromstring(book.read(package_path))  # noqa: S314
    folder = posixpath.dirname(package_path)
    items = {e.attrib["id"]: e.attrib["href"] for e in package.iter() if e.tag.endswith("item")}
    order = [e.attrib["idref"] for e in package.iter() if e.tag.endswith("itemref")]
    return [posixpath.normpath(posixpath.join(folder, items[i])) for i in order if i in items]
