"""Misheard spellings of a person's name: "Teeg" for Teague, "Sabel" for Sable, "Villanova"
for Villanueva, "Reyez" for Reyes.

Players write names as their characters heard them, so one person's surname turns up in two
spellings and the offline extractor would make two people of it. Two words *sound alike* when

- both have at least four letters (a short name has too many near neighbours: "Ned", "Ted");
- they open with the same letter (a listener rarely mishears the first sound);
- their Damerau-Levenshtein distance is at most half the longer word's length;
- they have the same :func:`phonetic_key`.

Sounding alike is never enough on its own: the folds that use it (:mod:`extraction.prose_folds`
on the names path, :func:`extraction.prose_merges.merge_sound_alikes` on prose alone) also ask
that the rest of the name agrees (:func:`titles_agree`), that exactly one person fits, and
that the misheard word is no word of any other name.
"""

from __future__ import annotations

import re

from rapidfuzz.distance import DamerauLevenshtein

from extraction.prose_names import TITLE_MODIFIERS, is_title
from extraction.slugs import fold_latin_accents

_MIN_LETTERS = 4

ADDRESS_SEXES = {"mr": "m", "mister": "m", "mrs": "f", "missus": "f", "miss": "f", "ms": "f"}
"""Titles of address, with the sex they give: any person bears one, so they agree with any
office title, but not with the other sex's; no office another of the family could hold."""

_DIGRAPHS = (
    ("sch", "sk"),
    ("ph", "f"),
    ("ck", "k"),
    ("qu", "k"),
    ("gh", "g"),
    ("dg", "j"),
    ("sh", "x"),
    ("ch", "x"),
    ("th", "0"),
    ("wh", "w"),
)
_SOFT_C = re.compile(r"c(?=[eiy])")
_LETTERS = str.maketrans({"c": "k", "q": "k", "g": "k", "z": "s", "v": "f", "x": "s", "d": "t"})
_SILENT = re.compile(r"[aeiouyhw]")


def phonetic_key(word: str) -> str:
    """A small Metaphone-like key: the consonant sounds of ``word`` in order, vowels dropped.

    Accents folded and case ignored; the common digraphs read as one sound ("ph" as f, "ck"
    and "qu" as k, "th", "sh", "ch"); a soft c (before e, i, y) as s, a hard one, g and q as k;
    z as s, v as f, d as t (a listener cannot tell them apart at the end of a name: "Reyez",
    "Reyes"); vowels, y, h and w dropped after the first letter; a doubled sound written once.
    "Teague" and "Teeg" give TK, "Villanueva" and "Villanova" FLNF; "Cole" (KL) and "Coles"
    (KLS) differ."""
    text = "".join(ch for ch in fold_latin_accents(word).casefold() if ch.isalpha())
    if not text:
        return ""
    for digraph, sound in _DIGRAPHS:
        text = text.replace(digraph, sound)
    text = _SOFT_C.sub("s", text).translate(_LETTERS)
    head, rest = text[0], _SILENT.sub("", text[1:])
    key = head.upper()
    for ch in rest.upper():
        if ch != key[-1]:
            key += ch
    return key


def sounds_alike(one: str, other: str) -> bool:
    """Whether two different words are one name spelt two ways (see the module docstring)."""
    a = fold_latin_accents(one).casefold()
    b = fold_latin_accents(other).casefold()
    if a == b or min(len(a), len(b)) < _MIN_LETTERS or a[0] != b[0]:
        return False
    if DamerauLevenshtein.distance(a, b) > max(len(a), len(b)) // 2:
        return False
    return phonetic_key(a) == phonetic_key(b)


def leading_titles(name: str) -> list[str]:
    """The title words a name opens with: ["Marshal"] of "Marshal Elias Crane", ["Sect",
    "Master"] of "Sect Master Shen" (:data:`~extraction.prose_names.TITLE_MODIFIERS`)."""
    titles: list[str] = []
    words = name.split()
    for at, word in enumerate(words):
        bare = word.strip(".")
        following = words[at + 1].strip(".") if at + 1 < len(words) else ""
        if not (is_title(bare) or (bare.casefold() in TITLE_MODIFIERS and is_title(following))):
            break
        titles.append(bare)
    return titles


def titles_agree(these: list[str], those: list[str]) -> bool:
    """Whether two sets of titles can be one person's: the office titles ("Marshal",
    "Father") share one when both have some, and the titles of address give no two sexes
    ("Miss" of one, "Mr" of the other). A name with no title agrees with any."""
    mine = {t.casefold().rstrip(".") for t in these}
    theirs = {t.casefold().rstrip(".") for t in those}
    sexes = {ADDRESS_SEXES[t] for t in mine | theirs if t in ADDRESS_SEXES}
    if len(sexes) > 1:
        return False
    offices = mine - ADDRESS_SEXES.keys() - _COURTESY
    other_offices = theirs - ADDRESS_SEXES.keys() - _COURTESY
    return not (offices and other_offices) or bool(offices & other_offices)


_COURTESY = frozenset(("old", "young", "elder", "master", "senior", "sect", "grand", "head"))
"""Titles of age and courtesy, no office: "Elder Meng" may be called "Sect Master Meng" once
she leads the sect, "Old Tamaya" "Master Tamaya"."""
