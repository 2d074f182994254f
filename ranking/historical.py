"""Is a question about the past? Then dead, destroyed and hostile things are not demoted.

"What happened at the Red Oak Tavern?" asks about a place that burned down, and the burned
tavern is the answer; "Where can the party rest?" asks about now, and it is not. The test is a
documented list of cue words and phrases, matched on whole words, lowercase:

- past-tense verbs and auxiliaries: ``was``, ``were``, ``did``, ``had``, ``happened``, ...
- what befalls things in a campaign: ``killed``, ``died``, ``destroyed``, ``burned``, ...
- time words: ``before``, ``history``, ``originally``, ``formerly``, ``ago``, ...
- phrases: ``used to``, ``back when``, ``last session``, ``as of session N``, ...

Words that also describe the present (``dead``, ``lost``, ``once``, ``then``) are left out:
"Is Torven dead?" asks about now.

It leans on recall: a question in the past tense is historical even when it names a present
thing, because demotion would hide the answer; a present-tense question never matches.
"""

from __future__ import annotations

import re

HISTORICAL_WORDS: frozenset[str] = frozenset(
    {
        # past tense of being, doing, having
        "was",
        "were",
        "wasn't",
        "weren't",
        "did",
        "didn't",
        "had",
        "hadn't",
        # what happens to places, people and things
        "happened",
        "killed",
        "slain",
        "slew",
        "murdered",
        "died",
        "destroyed",
        "burned",
        "burnt",
        "razed",
        "ruined",
        "fell",
        "fallen",
        "disbanded",
        "betrayed",
        "vanished",
        "sacked",
        # time words
        "before",
        "history",
        "historical",
        "historically",
        "originally",
        "formerly",
        "previously",
        "ago",
        "earlier",
        "past",
        "former",
        "erstwhile",
    }
)
"""Single words that mark a question about the past."""

HISTORICAL_PHRASES: tuple[str, ...] = (
    "used to",
    "back when",
    "back then",
    "last session",
    "previous session",
    "in the past",
    "at the time",
    "what became of",
)
"""Multi-word cues, matched on word boundaries (\"who killed\" needs no entry: ``killed``)."""

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SESSION = re.compile(r"\b(?:as of|in|during|since|after|until)\s+session\s+\d+\b")


def _normalise(question: str) -> str:
    text = question.lower().replace("\u2019", "'")
    return " ".join(_WORD.findall(text))


def is_historical(question: str) -> bool:
    """True when the question asks about the past (see the module docstring for the cues)."""
    text = _normalise(question)
    if _SESSION.search(text):
        return True
    if any(word in HISTORICAL_WORDS for word in text.split()):
        return True
    padded = f" {text} "
    return any(f" {phrase} " in padded for phrase in HISTORICAL_PHRASES)
