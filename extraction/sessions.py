"""Session records: which session a source (a recap, session notes) is the record of.

A source is the record of session N when, first match wins:

1. its YAML front matter says so: ``session: 7`` (or ``session: "07"``);
2. its first heading (Markdown) or first line (plain text) opens with ``Session 7``
   (``# Session 7 — The Drowned Mill``, ``Session #7``, ``Session no. 7``);
3. its file name says so: ``session-07.md``, ``Session 7 - the mill.md``,
   ``2024-05-01_session_12.txt``, ``s07-recap.md``.

Its chunks carry the number (``Chunk.session``): the campaign view derives from them in which
sessions each entity was mentioned, which the entity view shows and the ranker's recency reads.
World packs are never session records.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from extraction.frontmatter import split_front_matter
from graphrag_core.errors import SourceError
from graphrag_core.models import SourceDocument

_TITLE = re.compile(r"session\s*(?:#|no\.?|number)?\s*0*(\d{1,6})(?!\d)", re.IGNORECASE)
_FIRST_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*\r?$", re.MULTILINE)
_FILE_SESSION = re.compile(r"(?:^|[\s_.-])session[\s_.-]*0*(\d{1,6})(?!\d)", re.IGNORECASE)
_FILE_SHORT = re.compile(r"^s0*(\d{1,6})(?:[\s_.-]|$)", re.IGNORECASE)
_FRONT_KEYS = ("session", "session_number", "session_id")


def session_number(doc: SourceDocument) -> int | None:
    """The session ``doc`` is the record of, or ``None`` when it is not a session record."""
    if doc.kind == "worldpack":
        return None
    found = _from_front_matter(doc) or _from_title(doc) or _from_file_name(doc.path)
    return found if found else None


def _from_front_matter(doc: SourceDocument) -> int | None:
    if doc.kind not in ("markdown", "vault"):
        return None
    try:
        front, _ = split_front_matter(doc.text, doc.path)
    except SourceError:
        return None  # the chunker reports invalid front matter; no session then
    return next((n for key in _FRONT_KEYS if (n := _number(front.get(key))) is not None), None)


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip()) or None
    return None


def _from_title(doc: SourceDocument) -> int | None:
    """``Session 7`` opening the first Markdown heading, or a text's first non-blank line."""
    if doc.kind in ("markdown", "vault"):
        heading = _FIRST_HEADING.search(doc.text)
        title = heading.group(1) if heading else ""
    else:
        title = next((line for line in doc.text.splitlines() if line.strip()), "")
    match = _TITLE.match(title.strip())
    return int(match.group(1)) or None if match else None


def _from_file_name(path: str) -> int | None:
    stem = PurePosixPath(path).stem
    match = _FILE_SESSION.search(stem) or _FILE_SHORT.match(stem)
    return int(match.group(1)) or None if match else None
