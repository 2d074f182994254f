"""How alike two names are, for the fuzzy step of the resolution cascade.

A name is reduced to its *core words* ("the merchant Torven" → ``torven``). Two names match
when either

* they have as many core words and read alike as a whole (``fuzz.ratio`` of the sorted core
  words ≥ the threshold, every word close to its counterpart): spelling slips such as
  "Torvin Blackwater" / "Torven Blackwater" or "Torven Blackwatter"; or
* every core word of the shorter name is (nearly) a word of the longer one, and the shorter
  name is not a lone word of a non-person: "Torven" joins "Torven Blackwater" (an NPC's first
  name), but the Location "Oak" does not swallow "Harrow Oak".
"""

from __future__ import annotations

from rapidfuzz import fuzz

from extraction.slugs import normalise_name

TITLES = frozenset(
    {
        "the", "a", "an", "of", "lord", "lady", "sir", "king", "queen", "prince", "princess",
        "brother", "sister", "master", "mistress", "captain", "old", "young", "mother",
        "father", "saint",
    }
)  # fmt: skip
PERSON_TYPES = frozenset({"NPC", "PC", "Deity"})
"""Types whose members go by a first or last name alone."""
WORD_FLOOR = 80.0
"""No word of a matching name may read less alike than this (``fuzz.ratio``)."""


def core_words(name: str) -> tuple[str, ...]:
    """The distinctive words of a name, in order: capitalised ones when there are any (so
    "the merchant Torven" → ``("torven",)``), titles and short words left out."""
    words = name.replace("'s ", " ").split()
    capitalised = [w for w in words if w[:1].isupper()] or words
    found = (normalise_name(x) for x in capitalised)
    return tuple(dict.fromkeys(w for w in found if len(w) >= 3 and w not in TITLES))


def similarity(mine: tuple[str, ...], theirs: tuple[str, ...], person: bool) -> float:
    """0–100: how surely two names (as core words) are one; 0 when they must not merge."""
    if not mine or not theirs:
        return 0.0
    if len(mine) == len(theirs):
        return _same_length(mine, theirs)
    short, long = sorted((mine, theirs), key=len)
    if len(short) < 2 and not person:
        return 0.0
    scores = [max(fuzz.ratio(word, other) for other in long) for word in short]
    return min(scores)


def _same_length(mine: tuple[str, ...], theirs: tuple[str, ...]) -> float:
    if any(max(fuzz.ratio(w, o) for o in theirs) < WORD_FLOOR for w in mine):
        return 0.0
    return float(fuzz.ratio(" ".join(sorted(mine)), " ".join(sorted(theirs))))
