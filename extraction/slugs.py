"""Canonical slugs and name normalisation.

``slugify`` makes ids (``"Merchants' Guild"`` → ``merchants-guild``); ``normalise_name`` makes
the key two spellings of one name share (``"The  Red Oak"`` and ``"red oak"``).
"""

from __future__ import annotations

import re
import unicodedata

_APOSTROPHES = re.compile(r"['’‘`]")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_SPACES = re.compile(r"\s+")
_LEADING_THE = re.compile(r"^the\s+")


def ascii_fold(text: str) -> str:
    """Drop accents and any character without an ASCII decomposition (``é`` → ``e``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def slugify(name: str) -> str:
    """Lowercase ASCII slug: accents folded, apostrophes dropped, other runs of
    non-alphanumerics turned into one ``-``, no ``-`` at either end."""
    folded = _APOSTROPHES.sub("", ascii_fold(name).lower())
    return _NON_ALNUM.sub("-", folded).strip("-")


def normalise_name(text: str) -> str:
    """The matching key of a name: casefolded, accents folded, apostrophes dropped, whitespace
    collapsed, a leading ``the`` removed."""
    folded = ascii_fold(_APOSTROPHES.sub("", text)).casefold()
    collapsed = _SPACES.sub(" ", folded).strip()
    return _LEADING_THE.sub("", collapsed)
