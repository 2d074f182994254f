"""Japanese (and Chinese) honorifics: what a name is without them, for matching.

Japanese prose writes a name with a polite *suffix* ("Isobe-sama", "Ishikawa-dono",
"Tsuru-san", "Dōan-sensei", "Kihei-dan'na") and a woman's given name with the polite *prefix*
"O-" ("O-Tsuru" is Tsuru, "O-Kin" is Kin). The honorific says how the speaker stands to the
person, not who the person is, so for matching "Isobe-sama" is "Isobe" and "O-Tsuru" is
"Tsuru" (:func:`bare_name`).

Japanese names are written family name first: "Isobe Gendayū" is called "Isobe" or
"Isobe-sama" where an English name is called by its last word. Only evidence says a listed
name is written so (:func:`family_name_first`): one of its aliases is its first word with an
honorific. A Western name ("Marta Hollis", alias "Marta") has none, and keeps its surname
last: its first word alone is a given name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from extraction.slugs import normalise_name

HONORIFIC_SUFFIXES = (
    "sama", "dono", "san", "chan", "kun", "bō", "bo", "sensei", "oshō", "osho", "dan'na",
    "dan’na", "danna", "oyabun", "jii",
    # Chinese forms of address after a family name: "Gu-shixiong" (senior brother of the
    # school), "Li-gongzi" (young master), "Wang-daren" (Your Honour)
    "shixiong", "shijie", "shidi", "shimei", "shifu", "shishu", "shibo", "shigu", "shizu",
    "dage", "gege", "jiejie", "daren", "laoye", "gongzi", "xiansheng", "furen", "guniang",
    "laoban",
)  # fmt: skip
"""Suffixes of address after a hyphen: "Isobe-sama", "Kii-bō", "Toku-jii", "Gu-shixiong"."""
_SUFFIX = re.compile(rf"-(?:{'|'.join(re.escape(s) for s in HONORIFIC_SUFFIXES)})$")
O_PREFIX = re.compile(r"^O-(?=[^\W\d_])")
"""The honorific "O-" before a Japanese woman's given name ("O-Tsuru"; not "O'Brien")."""
"""The polite prefix of a (woman's) given name: "O-Tsuru", "O-Kin"; never "O'Brien"."""


def bare_name(name: str) -> str:
    """``name`` without a trailing honorific suffix on its last word, nor the prefix "O-" on
    a capitalised word: "Isobe Gendayū-sama" → "Isobe Gendayū", "O-Tsuru" → "Tsuru",
    "Minoya no O-Kin" → "Minoya no Kin". A word left empty or in lower case by the cut keeps
    its honorific ("O-bugyō", a title; "Oshō-sama": the abbot, by his title alone)."""
    words = name.split()
    return " ".join(_bare_word(word) for word in words) if words else name


def _bare_word(word: str) -> str:
    cut = _SUFFIX.sub("", word)
    if not cut[:1].isupper() or cut.casefold() in HONORIFIC_SUFFIXES:
        cut = word
    prefixed = O_PREFIX.match(cut)
    if prefixed and cut[prefixed.end() :][:1].isupper():
        cut = cut[prefixed.end() :]
    return cut


def honorific(name: str) -> bool:
    """Whether ``name`` carries an honorific :func:`bare_name` takes off."""
    return bare_name(name) != name


def family_name_first(name: str, aliases: Iterable[str]) -> bool:
    """Whether a person's ``name`` of two words or more is written family name first, as its
    ``aliases`` show: one of them is the name's first word with an honorific ("Isobe-sama"
    of Isobe Gendayū). The first word alone is no evidence: "Marta" of Marta Hollis is her
    given name."""
    words = name.split()
    if len(words) < 2:
        return False
    first = normalise_name(words[0])
    return any(honorific(alias) and normalise_name(bare_name(alias)) == first for alias in aliases)
