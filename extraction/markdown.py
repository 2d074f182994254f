"""Markdown structure: ATX headings, the sections they open, and ``[[wiki-links]]``.

A section runs from its heading line to the next heading of any level; its ``path`` is the
chain of enclosing headings (``("Torven Blackwater", "GM Notes")``). A section is secret
(``gm``) when any heading on its path contains the word ``GM`` or ``DM`` (upper case, also
``GMs``/``DM's``), or, in any case, ``secret(s)``, ``spoiler(s)``, ``game master``, ``dungeon
master``, ``gm notes``/``dm notes`` or ``gm-only``/``dm-only``; not a GM named only to be
denied ("not the GM's").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*\r?$", re.MULTILINE)
_FENCE = re.compile(r"^[ \t]*(```|~~~)", re.MULTILINE)
_GM_WORD = re.compile(r"\b(?:GM|DM)s?\b")
_SECRET_WORD = re.compile(
    r"\b(?:secrets?|spoilers?|(?:game|dungeon)[ -]?masters?|(?:gm|dm)[ -]?(?:only|notes?)"
    r"|(?:keeper|referee|storyteller|narrator|judge|mc)(?:['’]?s)?[ -]+(?:only|notes?|eyes|"
    r"info(?:rmation)?|secrets?)|(?:behind|for)\s+the\s+(?:screen|keeper|referee|storyteller|"
    r"narrator)|not\s+for\s+(?:the\s+)?players)\b",
    re.IGNORECASE,
)
"""Other games' names for the game master: Call of Cthulhu's Keeper, the referee, the
storyteller, the narrator, the judge, the MC ("Keeper's Notes", "Referee only")."""
_WIKI_LINK = re.compile(r"!?\[\[([^\]\|#\n]*)(?:#([^\]\|\n]*))?(?:\|([^\]\n]*))?\]\]")


@dataclass(frozen=True)
class Section:
    """``text[start:end]`` is the section, heading line included."""

    start: int
    end: int
    path: tuple[str, ...]
    gm: bool
    heading_end: int
    """Offset just past the heading line (== ``start`` for the untitled lead section)."""


@dataclass(frozen=True)
class WikiLink:
    target: str
    shown: str
    start: int
    end: int


_NOT_THE_GMS = re.compile(
    r"\b(?:not|non|no)\b[\s-]+(?:(?:for|by|from)\s+)?(?:the\s+|a\s+|our\s+)?(?:GM|DM)(?:['’]?s)?\b",
    re.IGNORECASE,
)
"""A GM named only to be denied: "(players' page — opinions ours, not the GM's)", "non-GM"."""


def is_gm_heading(title: str) -> bool:
    """Whether a heading marks GM-only content ("GM Notes", "DM Notes", "Secrets", "A secret
    door", "Spoilers", "For the Game Master", "Keeper's Notes", "Behind the Screen"); a GM
    named only to be denied ("the players' page, not the GM's") marks nothing."""
    title = _NOT_THE_GMS.sub(" ", title)
    return bool(_GM_WORD.search(title) or _SECRET_WORD.search(title))


def unwrapped(text: str) -> str:
    """``text`` with each soft line break (inside a paragraph, not before a heading, list item,
    quote, table row or definition (": …"), nor after a heading) read as a space; offsets are
    kept."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines[:-1]):
        following = lines[i + 1].lstrip()
        soft = (
            line.strip()
            and not line.lstrip().startswith("#")
            and following
            and not re.match(r"(?:[#>|*+\-]|\d+[.)]|:\s)", following)
        )
        out.append(line + (" " if soft else "\n"))
    out.append(lines[-1])
    return "".join(out)


def heading_label(path: tuple[str, ...]) -> str:
    return " > ".join(path)


def sections(text: str, start: int = 0) -> list[Section]:
    """Split ``text[start:]`` at its headings; the lead text before the first heading, if
    any, is an untitled section."""
    headings = list(_headings(text, start))
    first = headings[0][0] if headings else len(text)
    result = [Section(start, first, (), False, start)] if first > start else []
    stack: list[tuple[int, str]] = []
    for index, (pos, line_end, level, title) in enumerate(headings):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        end = headings[index + 1][0] if index + 1 < len(headings) else len(text)
        path = tuple(name for _, name in stack)
        gm = any(is_gm_heading(name) for name in path)
        result.append(Section(pos, end, path, gm, min(line_end + 1, end)))
    return result


def _headings(text: str, start: int) -> Iterator[tuple[int, int, int, str]]:
    """(line start, line end, level, title) of each heading outside fenced code blocks."""
    fenced = _fenced_ranges(text, start)
    for match in _HEADING.finditer(text, start):
        if any(low <= match.start() < high for low, high in fenced):
            continue
        yield match.start(), match.end(), len(match.group(1)), match.group(2).strip()


def _fenced_ranges(text: str, start: int) -> list[tuple[int, int]]:
    marks = [match.start() for match in _FENCE.finditer(text, start)]
    pairs = zip(marks[0::2], [*marks[1::2], len(text)][: len(marks[0::2])], strict=True)
    return list(pairs)


def wiki_links(text: str, start: int = 0, end: int | None = None) -> list[WikiLink]:
    """``[[Target]]``, ``[[Target|shown]]``, ``[[Target#heading]]`` and ``[[folder/Target]]``
    links in ``text[start:end]``; the target is the note name without folder or heading."""
    links = []
    for match in _WIKI_LINK.finditer(text, start, len(text) if end is None else end):
        target = match.group(1).strip().rsplit("/", 1)[-1].strip()
        if target.lower().endswith(".md"):
            target = target[:-3]
        if target:
            shown = (match.group(3) or "").strip() or target
            links.append(WikiLink(target, shown, match.start(), match.end()))
    return links


def strip_links(text: str) -> str:
    """Replace each wiki-link by the text it shows."""
    return _WIKI_LINK.sub(lambda m: (m.group(3) or m.group(1)).strip().rsplit("/", 1)[-1], text)
