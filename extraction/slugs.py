"""Canonical slugs and name normalisation, for names in any script.

``slugify`` makes ids (``"Merchants' Guild"`` → ``merchants-guild``, ``"Торвен Чёрный"`` →
``торвен-чёрный``, ``"🐉 Dragon Inn"`` → ``🐉-dragon-inn``); ``normalise_name`` makes the key two
spellings of one name share (``"The  Red Oak"`` and ``"red oak"``).

Both fold only what spells one name two ways: letter case, compatibility forms (full-width
``Ｔ``, ligatures: NFKC), apostrophes, and the accents of *Latin* letters (``Café`` = ``Cafe``,
as GMs type them). Every other letter, digit, mark and non-ASCII symbol is kept: ``й`` is not
``и``, ``ø`` is not ``o``, ``🐉`` is not ``🔥``, so different names never share an id or a key.
A name with nothing left to slug (``"---"``) gets ``name-`` plus a hash of the name.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

_APOSTROPHES = re.compile(r"['’‘`]")
_SPACES = re.compile(r"\s+")
_LEADING_THE = re.compile(r"^the\s+")
_JOINERS = frozenset("\u200c\u200d")  # zero-width (non-)joiner: part of emoji and Indic names


def fold_latin_accents(text: str) -> str:
    """NFKC text with the combining accents of Latin letters dropped (``é`` → ``e``); accents
    of other scripts stay (``й``, ``ά``)."""
    kept: list[str] = []
    latin_base = False
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char):
            if latin_base:
                continue
        else:
            latin_base = char.isascii() and char.isalpha()
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept))


def _slug_char(char: str) -> bool:
    """Letters, digits and marks of any script; non-ASCII symbols (emoji) and joiners."""
    if char.isascii():
        return char.isalnum()
    category = unicodedata.category(char)
    return char.isalnum() or category[0] in "MS" or char in _JOINERS


def slugify(name: str) -> str:
    """Lowercase slug: Latin accents folded, apostrophes dropped, other runs of separators
    turned into one ``-``, no ``-`` at either end; ``""`` only for a blank name."""
    folded = fold_latin_accents(_APOSTROPHES.sub("", name)).lower()
    words: list[str] = []
    word: list[str] = []
    for char in [*folded, " "]:
        if _slug_char(char):
            word.append(char)
        elif word:
            words.append("".join(word))
            word = []
    if words:
        return "-".join(words)
    stripped = name.strip()
    return f"name-{hashlib.sha256(stripped.encode()).hexdigest()[:10]}" if stripped else ""


_ABBREVIATED_TITLE = re.compile(
    r"\b(mr|mrs|ms|dr|st|mt|jr|sr|prof|rev|fr|capt|col|lt|sgt|gen|insp|det|supt|cmdr|cpl)\.(?=\s)"
)
"""A title's full stop before the name it heads: "Mr. Blue" and "Mr Blue" are one name."""


def normalise_name(text: str) -> str:
    """The matching key of a name: casefolded, Latin accents folded, apostrophes dropped,
    whitespace collapsed, a leading ``the`` removed, the full stop of an abbreviated title
    dropped ("Ms. Gray" is "Ms Gray")."""
    folded = fold_latin_accents(_APOSTROPHES.sub("", text)).casefold()
    collapsed = _SPACES.sub(" ", folded).strip()
    return _LEADING_THE.sub("", _ABBREVIATED_TITLE.sub(r"\1", collapsed))
