"""Names that a note's layout defines, the way a heading does.

Game masters write rosters, manifests and glossaries as layout rather than sentences:

- a Markdown table whose first column is headed by a word for names ("Name", "NPC", "Who",
  "Crew", "Place", "Ship" …): each row's first cell names an entity, and the row describes it
  ("| Imani Okafor | Captain | Owns the Kestrel |");
- a bold term opening a line, before a dash or a colon: ``**The Spindle** — the ring's hub``,
  ``- **Dock 3:** where the haulers unload`` (not a label over a list of names:
  ``**Allies:** the Salt Guild, the Lantern Company``; see :mod:`extraction.labelled_lists`);
- a roster line, a name opening a line before a dash: ``- Mickey Brennan — Lucky's kid
  brother; runs with the Harbour Boys``;
- a definition list's term (a line over one that opens with ``: ``, as in Pandoc, PHP
  Markdown Extra and Obsidian plug-ins): ``The Spindle`` / ``: the docking ring's hub``.

Such a name is an entity even when the prose mentions it once; its type is voted from the
entry's first noun phrase ("Captain", "the docking ring's central hub"), and the entry is its
description. Nothing is invented: a cell or term that is not written as a proper name (all
lower case, a number, a generic label such as "Notes" or "Allies") defines nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from extraction.prose_names import (
    GENERIC_HEADINGS,
    LABEL_WORDS,
    PERSON_TITLES,
    NameSpan,
    name_spans,
)
from extraction.prose_types import entry_type


def _words(*lines: str) -> frozenset[str]:
    return frozenset(" ".join(lines).split())


_TABLE_ROW = re.compile(r"^[ \t]*\|(?P<cells>.*?)\|?[ \t]*$")
_SEPARATOR_CELL = re.compile(r"^\s*:?-{2,}:?\s*$")
_MARKUP = re.compile(r"[*_`]+")
_QUOTES = re.compile(r"[\"“”]")
_QUOTED = re.compile(r"[\"“]([A-Z][\w' -]{0,30}?)[\"”]")
_BULLET = r"^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?"
_BOLD_TERM = re.compile(
    _BULLET + r"(\*\*|__)(?P<name>[^*_\n]{2,80}?)(?P<colon>:?)\1[ \t]*"
    r"(?P<mark>[—–:]|--?(?=[ \t]))?[ \t]*(?P<rest>\S.*)?$"
)
_ROSTER = re.compile(_BULLET + r"(?P<name>[^\n—–]{2,80}?)[ \t]+(?:[—–]|--?)[ \t]+(?P<rest>\S.*)$")
_DEFINITION = re.compile(r"^[ \t]{0,3}:[ \t]+(?P<rest>\S.*)$")
_NAME_HEADERS = _words(
    "name names npc npcs character characters who crew member members person people pc pcs "
    "player place places location locations site sites faction factions group groups "
    "organisation organisations organization organizations item items ship ships vessel vessels "
    "creature creatures monster monsters entity entities contact contacts suspect suspects "
    "callsign call-sign handle title deity deities god gods"
)
_LABELS = _words(
    "allies ally enemies enemy foes foe rivals rival members member leader leaders led head "
    "ruler rulers deity deities patron patrons owner owners location region home lair "
    "status type role class level languages language alignment appearance personality "
    "motivation motivations goal goals wants needs secret secrets hook hooks rumour rumours "
    "rumor rumors notes note tags tag aliases alias known as also see date time when where "
    "who what why how result results outcome reward rewards loot treasure cost price"
)
"""Words that label a line rather than name a thing ("**Allies:** …", "Status: …")."""
_HEADER_TYPES = (
    (
        "NPC",
        "npc npcs character characters who crew member members person people contact "
        "contacts suspect suspects callsign call-sign handle",
    ),
    ("PC", "pc pcs player"),
    ("Location", "place places location locations site sites"),
    (
        "Faction",
        "faction factions group groups organisation organisations organization organizations",
    ),
    ("Item", "item items ship ships vessel vessels"),
    ("Creature", "creature creatures monster monsters"),
    ("Deity", "deity deities god gods"),
)
_HEADER_TYPE = {word: kind for kind, words in _HEADER_TYPES for word in words.split()}
MAX_WORDS = 8


@dataclass(frozen=True)
class LayoutEntry:
    """One name the layout defines: ``span`` as :func:`name_spans` reads it in ``line``
    (its title kept apart), ``entry`` the text that describes it."""

    span: NameSpan
    line: str
    entry: str
    kind: str | None
    nicknames: tuple[str, ...] = ()
    """Its other names: written in quotes inside it ('"Sparks" Ruiz'), or in full as the
    entry's first words ("Lucky Brennan — Seamus Brennan, boss of …")."""


def layout_entries(
    text: str, common: frozenset[str], carried: tuple[str, int] | None = None
) -> tuple[list[LayoutEntry], tuple[str, int] | None]:
    """Every name that ``text``'s tables, bold terms and roster lines define, in order; and
    the names table ``text`` ends inside, if any, as (first header cell, number of columns):
    the next chunk of the same source may go on with its rows (pass it back as ``carried``).
    A chunk may cut a row: a row with fewer cells than its header defines nothing."""
    lines = text.rstrip("\n").split("\n")
    found: list[LayoutEntry] = []
    index, still_open = 0, None
    while index < len(lines):
        if _TABLE_ROW.match(lines[index]):
            end = index
            while end < len(lines) and _TABLE_ROW.match(lines[end]):
                end += 1
            header = _header(lines[index : index + 2])
            first = index + 2 if header else index
            fragments = all("|" in line for line in lines[:index])  # a cut row before
            header = header or (carried if fragments else None)
            if header is not None:
                found += _rows(lines[first:end], header, common)
            still_open = header if end == len(lines) else None
            index = end
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        entry = (
            _term(lines[index], common)
            or _roster(lines[index], common)
            or _definition(lines[index], following, common)
        )
        if entry is not None:
            found.append(entry)
        index += 1
    return found, still_open


def _cells(line: str) -> list[str]:
    match = _TABLE_ROW.match(line)
    return [cell.strip() for cell in match.group("cells").split("|")] if match else []


def _header(rows: list[str], any_first: bool = False) -> tuple[str, int] | None:
    """(first cell, number of cells) of a table's header (two rows: the header and its
    separator) when its first cell is a word for names (any word, with ``any_first``)."""
    if len(rows) < 2 or not all(_SEPARATOR_CELL.match(c) for c in _cells(rows[1]) if c):
        return None
    header = [_plain(cell).casefold() for cell in _cells(rows[0])]
    named = any_first or (header and header[0] in _NAME_HEADERS)
    return (header[0], len(header)) if header and named else None


def _rows(rows: list[str], header: tuple[str, int], common: frozenset[str]) -> list[LayoutEntry]:
    """The entries of a names table's whole rows."""
    found = []
    word, columns = header
    for row in rows:
        cells = _cells(row)
        if len(cells) < columns:
            continue
        rest = "; ".join(plain for cell in cells[1:] if (plain := _plain(cell)))
        entry = _name_entry(cells[0], rest, common, _HEADER_TYPE.get(word))
        if entry is not None:
            found.append(entry)
    return found


def _term(line: str, common: frozenset[str]) -> LayoutEntry | None:
    match = _BOLD_TERM.match(line)
    if match is None or not (match.group("colon") or match.group("mark")):
        return None
    rest = _plain(match.group("rest") or "")
    dash = re.match(r"[—–-]", match.group("mark") or "") is not None
    if not rest or (not dash and _a_list(rest)):
        return None  # "**Allies:** the Salt Guild, the Lantern Company" labels a list
    return _name_entry(match.group("name"), rest, common)


def _roster(line: str, common: frozenset[str]) -> LayoutEntry | None:
    match = _ROSTER.match(line)
    if match is None:
        return None
    return _name_entry(match.group("name"), _plain(match.group("rest")), common)


def _definition(line: str, following: str, common: frozenset[str]) -> LayoutEntry | None:
    """A definition list's term: a line of its own over a line opening with ": "."""
    match = _DEFINITION.match(following)
    if match is None or not line.strip():
        return None
    return _name_entry(line.strip(), _plain(match.group("rest")), common)


def _a_list(rest: str) -> bool:
    """Whether a labelled line's text is a list of names rather than a description: every
    comma- or "and"-separated item opens with a capital or "the"."""
    items = [i.strip() for i in re.split(r",|;|\band\b", rest) if i.strip()]
    return all(re.match(r"(?:the\s+)?[A-Z0-9]", item) for item in items)


def _name_entry(
    written: str, rest: str, common: frozenset[str], kind: str | None = None
) -> LayoutEntry | None:
    """The entry when ``written`` is, as a whole, one proper name (a title may lead it, a
    nickname in quotes may stand inside it)."""
    name = _plain(written)
    words = name.split()
    if not words or len(words) > MAX_WORDS or not any(w[:1].isupper() for w in words):
        return None
    if all(w.casefold().strip(".:") in _LABELS | GENERIC_HEADINGS | LABEL_WORDS for w in words):
        return None
    spans = name_spans(name, common)
    if len(spans) != 1:
        return None
    span = _unquoted(spans[0], written)
    title_start = name.find(span.title) if span.title else span.start
    if name[: min(title_start, span.start)].strip(" '\"").casefold() not in ("", "the"):
        return None
    if name[span.end :].strip(" .:"):
        return None  # "Dock 3 crew" is not written as one name
    if len(span.name.split()) == 1 and span.name.casefold() in common and not span.title:
        return None  # a common word capitalised ("Separately", "Notes")
    line = f"{name} — {rest}" if rest else name
    nicknames = [n for n in _QUOTED.findall(written) if n != span.name]
    full = _full_name(span, rest, common)
    if full is not None:
        nicknames.append(full.name)
        kind = kind or ("NPC" if full.title.casefold() in PERSON_TITLES else None)
    kind = (entry_type(rest) if rest else None) or kind
    return LayoutEntry(span, line, rest, kind, tuple(nicknames))


def _unquoted(span: NameSpan, written: str) -> NameSpan:
    """'Dov "Sparks" Leclerc' is the name "Dov Leclerc" with the nickname "Sparks": a word
    quoted inside a name is no part of it; nor is one before a full name ('"Cuckoo" Imani
    Okafor' is Imani Okafor), though one before a surname alone stays ('"Sparks" Ruiz')."""
    words = span.name.split()
    for nickname in _QUOTED.findall(written):
        inner = nickname.split()
        at = next((i for i in range(1, len(words) - 1) if words[i : i + len(inner)] == inner), 0)
        if at and at + len(inner) < len(words):
            name = " ".join(words[:at] + words[at + len(inner) :])
            return replace(span, name=name, nickname=nickname)
        if words[: len(inner)] == inner and len(words) - len(inner) >= 2:
            return replace(span, name=" ".join(words[len(inner) :]), nickname=nickname)
    return span


def _full_name(span: NameSpan, rest: str, common: frozenset[str]) -> NameSpan | None:
    """The name an entry opens with when it is the same one written in full: "Lucky Brennan —
    Seamus Brennan, boss of …", "Doc Petrie — Dr Harold Petrie, struck off …" (the last word
    shared, the first clause nothing but the name)."""
    clause = re.split(r"[,;:(]", rest, maxsplit=1)[0].strip()
    spans = name_spans(clause, common)
    if len(spans) != 1 or clause[spans[0].end :].strip(" ."):
        return None
    full = spans[0]
    title_start = clause.find(full.title) if full.title else full.start
    if clause[: min(title_start, full.start)].strip():
        return None
    same = full.name.split()[-1] == span.name.split()[-1] and full.name != span.name
    return full if same else None


def _plain(text: str) -> str:
    return " ".join(_QUOTES.sub("", _MARKUP.sub("", text)).split())


_CATEGORY_HEADERS = _words("type types kind kinds class category categories role roles status")
"""Column headers over category values ("| Type |" over "Monster", "Bystanders (faith)"): a
cell under one classifies its row, it names nothing (a capitalised "Bystanders" is no faction)."""


def category_cells_blanked(text: str) -> str:
    """``text`` with the cells under a category column (:data:`_CATEGORY_HEADERS`) of each
    table blanked out up to their first comma, semicolon or bracket, offsets kept: the prose's
    names are read from the rest."""
    lines = text.split("\n")
    blanked: set[int] = set()
    for index, line in enumerate(lines):
        if not _TABLE_ROW.match(line) or not _header(lines[index : index + 2], any_first=True):
            continue
        header = [_plain(cell).casefold() for cell in _cells(line)]
        columns = {i for i, word in enumerate(header) if i and word in _CATEGORY_HEADERS}
        row = index + 2
        while columns and row < len(lines) and _TABLE_ROW.match(lines[row]):
            lines[row] = _blank_cells(lines[row], columns)
            blanked.add(row)
            row += 1
    return "\n".join(lines) if blanked else text


def _blank_cells(line: str, columns: set[int]) -> str:
    """Blank each cell's category, its first clause: "Owner, the Slag Pit" keeps the place."""
    parts = line.split("|")
    lead = 1 if line.lstrip().startswith("|") else 0
    for column in columns:
        at = column + lead
        if at < len(parts) - (1 if line.rstrip().endswith("|") else 0):
            head = re.split(r"[,;(]", parts[at], maxsplit=1)[0]
            parts[at] = " " * len(head) + parts[at][len(head) :]
    return "|".join(parts)
