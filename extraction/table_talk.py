"""Words of the game table, not of the world: the titles of episodes, the GM's chat handle.

Recaps are written by and for the players, and they carry the table's own words:

- a session heading gives the episode a title in quotes (``# Session 3 — "Sunset"``,
  ``## Episode 2: "Shadows"``): a title of the evening, not a thing of the campaign, though the
  prose may write it as a name ("Next week: Nightfall");
- a recap pasted from a chat log opens each post with a time and the poster's handle
  (``**[Thu 11:52 PM] Keeper:** ...``): when the handle is what tables call their game master
  ("GM", "Keeper", "Narrator", :data:`~extraction.prose_names.GM_HANDLES`), that name is the
  referee at the table, never someone in the world ("I'm your Keeper", "Keeper's recap"). A
  poster with another handle may be a player or a character, so nothing is said of it;
- a note says who plays whom ("Dana plays Clem, Marcus plays Amos", "Clem Dawes (played by
  Dana)", "Dana's playing Clem"): the one who plays is a person at the table, a player, never
  someone in the world, and her name is no entity (:func:`players`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from extraction.prose_names import GM_HANDLES
from extraction.slugs import normalise_name

_EPISODE = re.compile(
    r"^\s*(?:session|episode|chapter|part|ep\.?)\s*\d+[a-z]?\s*(?:[—–:.]|-{1,2})\s*"
    r"[*_]*[\"“](?P<title>[^\"”\n]{1,60})[\"”]",
    re.IGNORECASE,
)
_SPEAKER = re.compile(
    r"^[ \t>*_-]*\[[^\]\n]{1,40}\][ \t*_]*(?P<name>[^\W\d_][\w .'’-]{0,40}?)[ \t*_]*:",
    re.MULTILINE,
)


_PLAYS = re.compile(
    r"\b(?P<player>[A-Z][a-z]{1,20})(?:\s+plays|\s+is\s+playing|['’]s\s+playing)\s+"
    r"(?:the\s+|as\s+)?[A-Z]"
)
_PLAYED_BY = re.compile(r"\bplayed\s+by\s+(?P<player>[A-Z][a-z]{1,20})\b")


_NOT_PLAYERS = frozenset(("The", "He", "She", "It", "They", "Who", "Everyone", "Everybody"))


def players(texts: Iterable[str]) -> frozenset[str]:
    """The normalised names of the players a note in ``texts`` says play a character: "played
    by Dana", or two or more one-word names before "plays" in one paragraph ("Dana plays Clem,
    Marcus plays Amos") — one alone may be the world's ("Vane plays Sugden like a fiddle"), and
    "The band plays on", "Vane plays poker" (no capital after) say nothing."""
    found: set[str] = set()
    for text in texts:
        for match in _PLAYED_BY.finditer(text):
            found.add(normalise_name(match.group("player")))
        for paragraph in re.split(r"\n\s*\n", text):
            named = {
                m.group("player")
                for m in _PLAYS.finditer(paragraph)
                if m.group("player") not in _NOT_PLAYERS
            }
            if len(named) >= 2:
                found |= {normalise_name(name) for name in named}
    return frozenset(found - {""})


def episode_titles(headings: Iterable[str]) -> frozenset[str]:
    """The normalised titles quoted after a session or episode number in ``headings`` (heading
    paths, their parts joined by " > ")."""
    found = set()
    for path in headings:
        for title in path.split(" > "):
            match = _EPISODE.match(title)
            if match is not None:
                found.add(normalise_name(match.group("title")))
    return frozenset(found)


def gm_speakers(texts: Iterable[str]) -> frozenset[str]:
    """The normalised GM handles that speak as posters of a chat log in ``texts``."""
    return frozenset(
        normalise_name(match.group("name"))
        for text in texts
        for match in _SPEAKER.finditer(text)
        if match.group("name").strip().casefold() in GM_HANDLES
    )
