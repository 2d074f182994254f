"""Is a question about the past? Then dead, destroyed and hostile things are not demoted.

"What happened at the Red Oak Tavern?" asks about a place that burned down, and the burned
tavern is the answer; "Where can the party rest?" asks about now, and it is not. The test is a
documented list of cue words and phrases, matched on whole words, lowercase:

- past-tense verbs and auxiliaries: ``was``, ``were``, ``did``, ``had``, ``happened``, ...
- what befalls things in a campaign: ``killed``, ``died``, ``destroyed``, ``burned``, ...
- time words: ``before`` (not before the speakers' own plan: "before we clear out"),
  ``history``, ``originally``, ``formerly``, ``ago``, ...
- phrases: ``used to``, ``back when``, ``last session``, ``as of session N``, ...

Words that also describe the present (``dead``, ``lost``, ``once``, ``then``) are left out:
"Is Torven dead?" asks about now; so is the "did" of "Where did they stick Kel Bekir?" (a verb
of :data:`PLACING_VERBS`): where he was put is where he is.

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
        # irregular past tenses that are nothing else ("What *went* down at the Bell Tower?")
        "went",
        "came",
        "took",
        "gave",
        "brought",
        "stole",
        "sold",
        "bought",
        "fought",
        "caught",
        "told",
        "began",
        "ran",
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
    # the whole story so far, the dead and the beaten with the rest ("Who have been the big
    # threats to us *this whole arc*?", "Who was behind it, *start to finish*?")
    "whole arc",
    "whole campaign",
    "whole story",
    "whole time",
    "all along",
    "start to finish",
    "from the start",
    "from the beginning",
    "so far",
)
"""Multi-word cues, matched on word boundaries (\"who killed\" needs no entry: ``killed``)."""

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SESSION = re.compile(r"\b(?:as of|in|during|since|after|until)\s+session\s+\d+\b")


PLANNERS = frozenset({"i", "we", "you", "us"})
"""After "before", the speakers themselves: what they will do next ("Who's still in our corner
*before we clear out*?", "before I go") is ahead of them, not in the past."""


_PAST_VERBS = frozenset(
    ("took", "went", "got", "came", "left", "made", "met", "found", "lost", "saw", "ran",
     "sold", "bought", "fought", "won", "gave", "held", "brought", "caught", "kept", "told",
     "heard", "set", "put", "hit", "let")
)  # fmt: skip
"""Irregular past tenses: "before we *took* it" is in the past again (as is any "-ed")."""


def _ahead(words: list[str], i: int) -> bool:
    """``words[i]`` is "before" and a plan of the speakers' follows it ("before we clear
    out"), not a deed of theirs in the past ("before we took the keep")."""
    if words[i] != "before" or words[i + 1 : i + 2] == [] or words[i + 1] not in PLANNERS:
        return False
    verb = words[i + 2] if len(words) > i + 2 else ""
    return not (verb.endswith("ed") or verb in _PAST_VERBS)


_SENTENCE_END = re.compile(r"(\w*)[.!]\s+(?=[A-Z\"'“‘])")
_ABBREVIATIONS = frozenset(
    ("mr", "mrs", "ms", "dr", "st", "mt", "ft", "jr", "sr", "prof", "rev", "fr", "capt", "col",
     "lt", "sgt", "gen", "insp", "det", "supt", "no", "vs", "etc", "cpl", "pvt", "adm", "gov")
)  # fmt: skip


def asking_sentence(question: str) -> str:
    """The question's last sentence when it has several and the last asks: what is asked.
    A full stop after a title or an initial ("Dr. B", "St. Agnes") ends no sentence."""
    start = 0
    for match in _SENTENCE_END.finditer(question):
        word = match.group(1)
        if len(word) > 1 and word.casefold() not in _ABBREVIATIONS:
            start = match.end()
    last = question[start:]
    return last if start and "?" in last else question


def _normalise(question: str) -> str:
    text = question.lower().replace("\u2019", "'")
    return " ".join(_WORD.findall(text))


def is_historical(question: str) -> bool:
    """True when the question asks about the past (see the module docstring for the cues),
    read in the sentence that asks: "Wash caught a slug in the shoulder. Who's gonna dig it
    out?" tells what happened and asks about now."""
    text = _normalise(asking_sentence(question))
    if _put_where(text.split()):  # its "did" asks where the thing is now
        text = text.replace(" did ", " ", 1)
    if _SESSION.search(text):
        return True
    words = text.split()
    if any(word in HISTORICAL_WORDS and not _ahead(words, i) for i, word in enumerate(words)):
        return True
    padded = f" {text} "
    return any(f" {phrase} " in padded for phrase in HISTORICAL_PHRASES)


PLACING_VERBS = frozenset(
    ("stick", "put", "take", "send", "lock", "throw", "hide", "stash", "bury", "move", "dump",
     "park", "stow", "ship", "drag", "haul", "cart", "end", "wind")
)  # fmt: skip
"""Verbs of putting a thing or person somewhere (and "end up", "wind up"), read after "where
did …"."""


def _put_where(words: list[str]) -> bool:
    """ "Where did they stick Kel Bekir?", "Where did the key end up?": where a thing was put is
    where it is now, as "Where'd the guards take her?" (no "did") reads already, unless another
    cue dates the question ("Where did we put the boat last session?")."""
    return words[:2] == ["where", "did"] and any(w in PLACING_VERBS for w in words[2:6])
