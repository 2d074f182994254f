"""Header-aware chunking into contiguous substrings: ``chunk.text == doc.text[start:end]``.

Markdown splits at headings first; a section longer than ``chunk_size`` characters splits at
paragraphs, then sentences, then whitespace, and only as a last resort mid-word. Front matter
never enters a chunk. A heading with no text of its own joins the section after it, so that no
chunk is a bare heading. A world pack gives one chunk per item of its ``entities`` list (more
when the item has secret parts). A PDF splits at page ends and at its headings (outline or
typographic cues, see ``extraction.pdf``), so that each chunk lies within one page and carries
its number; an EPUB likewise at chapter ends and headings (``extraction.epub``). A session
record's chunks carry the session number (``extraction.sessions``).

Visibility: ``gm`` under a GM heading (``GM Notes``, ``DM Notes``, ``Secrets``, see
``extraction.markdown``), in a note whose front matter visibility is not party-visible (see
``extraction.visibility``: unknown values fail closed), and for the secret parts of a world-pack
item: a GM-only item is one ``gm`` chunk; otherwise its ``gm_*`` keys (``gm_notes``,
``gm_aliases``) and its relations with ``visibility: gm`` are ``gm`` chunks of their own and the
text between them ``party`` chunks, so that every chunk stays a contiguous span of the file and
no party chunk holds a secret. ``party`` otherwise.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import yaml

from extraction.frontmatter import split_front_matter
from extraction.markdown import Section, heading_label, sections
from extraction.pdf_layout import page_spans
from extraction.sessions import session_number
from extraction.slugs import slugify
from extraction.visibility import read_visibility
from graphrag_core.input_safety import load_yaml
from graphrag_core.models import Chunk, SourceDocument, Visibility

_SEPARATORS = (
    re.compile(r"\n[ \t]*(?:\r?\n[ \t]*)+"),  # paragraph: a blank line
    re.compile(r"\r?\n(?=[ \t]*(?:\||[-*+>][ \t]|\d+[.)][ \t]))"),  # a table row, list item
    re.compile(r"(?<=[.!?])[\"')\]]*\s+"),  # sentence end
    re.compile(r"\s+"),  # any whitespace
)
_WHITESPACE = re.compile(r"\s")


@dataclass(frozen=True)
class _Piece:
    start: int
    end: int
    heading: str = ""
    gm: bool = False
    page: int | None = None


def chunk_id(path: str, ordinal: int, content_hash: str) -> str:
    return f"{slugify(path)}#{ordinal}-{content_hash[:8]}"


def chunk_document(doc: SourceDocument, *, chunk_size: int, overlap: int = 0) -> list[Chunk]:
    """Chunk one document; empty and whitespace-only pieces are skipped."""
    if chunk_size < 1 or overlap < 0:
        raise ValueError("chunk_size must be positive and overlap not negative")
    if doc.kind == "worldpack":
        pieces = worldpack_pieces(doc.text)
    elif doc.kind in ("markdown", "vault"):
        pieces = _markdown_pieces(doc, chunk_size, overlap)
    elif doc.kind in ("pdf", "epub"):
        pieces = _book_pieces(doc, chunk_size, overlap)
    else:
        pieces = [
            _Piece(s, e) for s, e in split_span(doc.text, 0, len(doc.text), chunk_size, overlap)
        ]
    return _chunks(doc, pieces, session_number(doc))


def _chunks(doc: SourceDocument, pieces: list[_Piece], session: int | None) -> list[Chunk]:
    """Chunks of ``pieces``, each stamped with the session ``doc`` records (if any)."""
    chunks: list[Chunk] = []
    for piece in pieces:
        start, end = _trim(doc.text, piece.start, piece.end)
        if start >= end:
            continue
        text = doc.text[start:end]
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        visibility: Visibility = "gm" if piece.gm else "party"
        chunks.append(
            Chunk(
                id=chunk_id(doc.path, len(chunks), digest),
                source_path=doc.path,
                start=start,
                end=end,
                text=text,
                content_hash=digest,
                heading=piece.heading,
                visibility=visibility,
                session=session,
                page=piece.page,
            )
        )
    return chunks


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _markdown_pieces(doc: SourceDocument, chunk_size: int, overlap: int) -> list[_Piece]:
    front, body = split_front_matter(doc.text, doc.path)
    secret_note = read_visibility(front.get("visibility"))[0] == "gm"
    pieces: list[_Piece] = []
    for section, start in _merged_sections(doc.text, sections(doc.text, body)):
        label = heading_label(section.path)
        gm = secret_note or section.gm
        for low, high in _section_spans(doc.text, start, section, chunk_size, overlap):
            pieces.append(_Piece(low, high, label, gm))
    return pieces


def _book_pieces(doc: SourceDocument, chunk_size: int, overlap: int) -> list[_Piece]:
    """Pieces within one page (EPUB: chapter) each, cut at the book's headings; a PDF
    chunk cites its page."""
    pdf = doc.kind == "pdf"
    return [
        _Piece(low, high, span.heading, page=span.page if pdf else None)
        for span in page_spans(doc)
        for low, high in split_span(doc.text, span.start, span.end, chunk_size, overlap)
    ]


def _section_spans(
    text: str, start: int, section: Section, size: int, overlap: int
) -> list[tuple[int, int]]:
    """Split a section's body so that its heading lines open the first span, never alone."""
    lead = section.heading_end - start
    if section.end - start <= size or lead == 0 or lead >= size // 2:
        return split_span(text, start, section.end, size, overlap)
    spans = split_span(text, section.heading_end, section.end, size - lead, overlap)
    return [(start, spans[0][1]), *spans[1:]]


def _merged_sections(text: str, found: list[Section]) -> list[tuple[Section, int]]:
    """Pair each section with the offset its chunks start at: a heading-only section is
    carried into the next one."""
    merged: list[tuple[Section, int]] = []
    carry: int | None = None
    for index, section in enumerate(found):
        bare = not text[section.heading_end : section.end].strip()
        if bare and section.path and index + 1 < len(found):
            carry = section.start if carry is None else carry
            continue
        merged.append((section, section.start if carry is None else carry))
        carry = None
    return merged


def split_span(
    text: str, start: int, end: int, size: int, overlap: int = 0
) -> list[tuple[int, int]]:
    """Cover ``text[start:end]`` with spans of at most ``size`` characters (plus ``overlap``
    characters reaching back into the previous span), cut at the coarsest boundary that fits."""
    spans = _split(text, start, end, size, 0)
    if overlap <= 0:
        return spans
    return [spans[0], *(_with_overlap(text, start, s, e, overlap) for s, e in spans[1:])]


def _with_overlap(text: str, floor: int, start: int, end: int, overlap: int) -> tuple[int, int]:
    """Move ``start`` back by up to ``overlap`` characters, to just after a whitespace."""
    back = max(floor, start - overlap)
    match = _WHITESPACE.search(text, back, start)
    return (match.end() if match else start), end


def _split(text: str, start: int, end: int, size: int, level: int) -> list[tuple[int, int]]:
    if end - start <= size:
        return [(start, end)]
    if level == len(_SEPARATORS):
        return [(low, min(low + size, end)) for low in range(start, end, size)]
    units: list[tuple[int, int]] = []
    for low, high in _units(text, start, end, _SEPARATORS[level]):
        if high - low > size:
            units.extend(_split(text, low, high, size, level + 1))
        else:
            units.append((low, high))
    return _pack(units, size)


def _units(text: str, start: int, end: int, separator: re.Pattern[str]) -> list[tuple[int, int]]:
    """The spans between separator matches; each separator stays with the unit before it."""
    units: list[tuple[int, int]] = []
    low = start
    for match in separator.finditer(text, start, end):
        if match.end() > low and match.start() > low:
            units.append((low, match.end()))
            low = match.end()
    if low < end:
        units.append((low, end))
    return units


def _pack(units: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """Greedily join consecutive units while the joined span stays within ``size``."""
    packed: list[tuple[int, int]] = []
    for low, high in units:
        if packed and high - packed[-1][0] <= size:
            packed[-1] = (packed[-1][0], high)
        else:
            packed.append((low, high))
    return packed


def worldpack_pieces(text: str) -> list[_Piece]:
    """Pieces of each item of the top-level ``entities`` list, headed by the item's name: the
    item's secret parts (see ``_secret_spans``) are ``gm`` pieces, the text between them
    ``party`` pieces, each a contiguous span of the file."""
    root = yaml.compose(text)
    data = load_yaml(text)
    items = data.get("entities") if isinstance(data, dict) else None
    if not isinstance(root, yaml.MappingNode) or not isinstance(items, list):
        return []
    nodes = next((v for k, v in root.value if k.value == "entities"), None)
    if not isinstance(nodes, yaml.SequenceNode):
        return []
    pieces: list[_Piece] = []
    for node, item in zip(nodes.value, items, strict=True):
        start = text.rfind("\n", 0, node.start_mark.index) + 1
        end = _drop_trailing_comments(text, start, node.end_mark.index)
        name = str(item.get("name", "")) if isinstance(item, dict) else ""
        if _is_secret(_value(node, "visibility")):
            pieces.append(_Piece(start, end, name, True))
            continue
        pieces += _split_item(text, start, end, _secret_spans(text, node), name)
    return pieces


def _split_item(
    text: str, start: int, end: int, secrets: list[tuple[int, int]], name: str
) -> list[_Piece]:
    """The item ``text[start:end]`` cut at its secret spans (whole lines, merged)."""
    pieces: list[_Piece] = []
    cursor = start
    for low, high in _merge_spans(secrets):
        low, high = max(low, cursor), min(high, end)
        if low > cursor and not _structural(text[cursor:low]):
            pieces.append(_Piece(cursor, low, name))
        if high > low:
            pieces.append(_Piece(low, high, name, True))
        cursor = max(cursor, high)
    if cursor < end and not _structural(text[cursor:end]):
        pieces.append(_Piece(cursor, end, name))
    return pieces


def _secret_spans(text: str, item: yaml.Node) -> list[tuple[int, int]]:
    """Whole-line spans of an item's secret parts: every ``gm_*`` key (``gm_notes``,
    ``gm_aliases``) with its value, and every relation whose visibility is not ``party``."""
    if not isinstance(item, yaml.MappingNode):
        return []
    spans: list[tuple[int, int]] = []
    for key, value in item.value:
        name = str(key.value).strip().casefold()
        if name.startswith(("gm_", "gm-")) and not _empty(value):
            spans.append(_lines(text, key.start_mark.index, value.end_mark.index))
        elif name == "relations" and isinstance(value, yaml.SequenceNode):
            spans += [
                _lines(text, rel.start_mark.index, rel.end_mark.index)
                for rel in value.value
                if _is_secret(_value(rel, "visibility"))
            ]
    return spans


def _empty(node: yaml.Node) -> bool:
    if isinstance(node, yaml.ScalarNode):
        return not str(node.value).strip()
    return isinstance(node, yaml.SequenceNode | yaml.MappingNode) and not node.value


def _value(node: yaml.Node, key: str) -> str | None:
    """The scalar under ``key`` in a mapping node (``None`` when absent)."""
    if not isinstance(node, yaml.MappingNode):
        return None
    for k, v in node.value:
        if k.value == key and isinstance(v, yaml.ScalarNode):
            return str(v.value)
    return None


def _is_secret(visibility: str | None) -> bool:
    return visibility is not None and read_visibility(visibility)[0] == "gm"


def _lines(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` widened to whole lines (a block node's end mark may lie past the
    indentation of the next line, so trailing whitespace is dropped first)."""
    low = text.rfind("\n", 0, start) + 1
    while end > start and text[end - 1].isspace():
        end -= 1
    newline = text.find("\n", end)
    return low, len(text) if newline < 0 else newline + 1


def _merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for low, high in sorted(spans):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
        else:
            merged.append((low, high))
    return merged


_BARE_KEY = re.compile(r"^\s*(?:-\s*)?[\w-]+:\s*(?:#.*)?$")


def _structural(text: str) -> bool:
    """Only blank lines, comments and bare keys (``relations:``): nothing to cite."""
    return all(
        not line.strip() or line.lstrip().startswith("#") or _BARE_KEY.match(line)
        for line in text.splitlines()
    )


def _drop_trailing_comments(text: str, start: int, end: int) -> int:
    """End of the item without the blank and comment lines that trail it."""
    lines = text[start:end].splitlines(keepends=True)
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
        lines.pop()
    return start + sum(len(line) for line in lines)
