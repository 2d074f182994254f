"""A question's contracted question words, spelt out before any cue is read.

"*Who's* on our side in Sallowmere?" is "Who is on our side in Sallowmere?": the cues read
whole words ("who" asks for a person, "who is X" makes X the subject) and the anchors read
words without apostrophes, so "who's" read as neither "who" nor "whos" asked for nothing,
and the place the question is set in was weighed as an answer. Only a question word with
its contracted verb is spelt out (:data:`CONTRACTIONS`); "the smith's forge" and every other
possessive stay as written. "'s" before "been", "got", "gone" or "had" is "has"; "who'd" is
"who would", "where'd" "where did".
"""

from __future__ import annotations

import re

CONTRACTIONS: dict[str, str] = {
    "s": "is",
    "re": "are",
    "ll": "will",
    "d": "did",
}
"""Contracted verbs after a question word ("who's", "what're", "who'll", "where'd")."""

QUESTION_WORDS = ("who", "what", "where", "which", "how", "when", "why", "whom")

_WOULD = frozenset({"who", "whom", "which"})
_PERFECT = frozenset({"been", "got", "gone", "had"})
_CONTRACTED = re.compile(
    r"\b(" + "|".join(QUESTION_WORDS) + r")['’](s|re|ll|d)\b(\s+(\w+))?", re.IGNORECASE
)


def _spelt(match: re.Match[str]) -> str:
    word, verb, rest, after = match.group(1), match.group(2).lower(), match.group(3), match.group(4)
    full = "has" if verb == "s" and after and after.lower() in _PERFECT else CONTRACTIONS[verb]
    if verb == "d" and word.lower() in _WOULD:
        full = "would"  # "Who'd help us?"; "Where'd he go?" is "did"
    return f"{word} {full}{rest or ''}"


def spelt_out(question: str) -> str:
    """``question`` with its contracted question words spelt out ("Who's" → "Who is")."""
    return _CONTRACTED.sub(_spelt, question)
