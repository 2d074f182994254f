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
  someone in the world, and her name is no entity (:func:`players`);
- a note names the referee or the writer of a recap ("one GM (Pete)", "GM: Pete", "our GM
  Pete", "(Pete, GM)", "Recap written by Gav", "Written up by Pete ... for the players",
  "Gav's recap", "Table notes (Pete)"), or a table lists the players in a "Player" column, or
  a roster of the party gives each character's player in brackets ("- **Cy Pettibone** (Rob)
  — the surveyor"): these are people at the table too (:func:`players`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from extraction.nicknames import pet_form, shortens
from extraction.prose_names import GM_HANDLES, is_title
from extraction.prose_types import noun_type
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
_NAME = r"(?P<player>[A-Z][a-z]{1,20})"
_GM = r"(?:GM|DM|[Gg]ame\s+[Mm]aster|[Kk]eeper|[Rr]eferee|[Nn]arrator|[Ss]toryteller)"
_TABLE_NOUNS = r"(?:recaps?|write-?ups?|prep|table\s+notes|session\s+notes|GM\s+notes)"
_TABLE_PEOPLE = tuple(
    re.compile(pattern, re.MULTILINE)
    for pattern in (
        rf"\b{_GM}\s*\(\s*{_NAME}\s*\)",  # "one GM (Pete)"
        rf"\b{_GM}\s*:\s*{_NAME}(?=\s*(?:[.,;)\]|]|$))",  # "GM: Pete." (not "[GM: Shed 9 is")
        rf"\b(?:[Oo]ur|[Mm]y|[Tt]he)\s+{_GM},?\s+{_NAME}\b",  # "our GM Pete", "the GM, Pete"
        rf"\(\s*{_NAME},\s*(?:our\s+|the\s+)?{_GM}\s*\)",  # "(Pete, GM)"
        rf"\b{_NAME}\s*\(\s*(?:our\s+|the\s+)?{_GM}\s*\)",  # "Pete (GM)"
        rf"\b{_NAME},\s+(?:our|my|the)\s+{_GM}\b",  # "Pete, our GM"
        rf"\b(?:[Tt]able|[Ss]ession|GM|DM)\s+notes\s*\(\s*{_NAME}\s*\)",  # "Table notes (Pete)"
        rf"\b{_NAME}['’]s\s+(?:own\s+)?{_TABLE_NOUNS}\b",  # "Gav's recap", "Pete's prep"
        rf"\b(?:[Rr]ecap|[Ww]rite-?up|[Ss]ummary)\s+(?:written\s+|typed\s+|posted\s+)?by\s+{_NAME}\b",
    )
)
"""What a note says of the referee or of the writer of a recap."""
_WRITTEN_BY = re.compile(rf"\b(?:[Ww]ritten|[Tt]yped|[Pp]osted)\s+(?:up\s+)?by\s+{_NAME}\b")
_AT_THE_TABLE = re.compile(
    r"\b(?:recaps?|players?|GM|DM|session|sessions|campaign|in\s+character|finale|prep)\b"
)
"""Words that put a note at the game table: "written by" someone there is one of the table's
("Recap written by Gav in character as Miles"), not someone of the world ("a letter written
by Moser")."""
_HEADER_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_ROSTER = re.compile(
    r"^[ \t]*[-*+][ \t]+\*\*(?P<name>[^*\n]+)\*\*[ \t]*"
    r"\((?:me,[ \t]*)?(?P<player>[A-Z][a-z]{1,20})\)",
    re.MULTILINE,
)
"""A roster line of the party: a character's name in bold and, in brackets after it, one word,
its player ("- **Cy Pettibone** (Rob) — the surveyor", "- **Amos Whitcombe** (me, Marcus)")."""
_ROSTER_LINES = 2


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
        found |= _table_people(text)
    return frozenset(found - {""})


def _table_people(text: str) -> set[str]:
    """The normalised names a note gives the referee or the writer of a recap, and those under
    a table's "Player" column."""
    found = {
        normalise_name(m.group("player"))
        for pattern in _TABLE_PEOPLE
        for m in pattern.finditer(text)
        if m.group("player") not in _NOT_PLAYERS
    }
    for paragraph in re.split(r"\n\s*\n", text):
        for m in _WRITTEN_BY.finditer(paragraph):
            if _AT_THE_TABLE.search(paragraph) and m.group("player") not in _NOT_PLAYERS:
                found.add(normalise_name(m.group("player")))
    return found | _player_column(text) | _roster_players(text)


def _roster_players(text: str) -> set[str]:
    """The players a roster names in brackets after their characters' bold names, when two
    lines or more of one list do so (one alone may be an alias: "**Hob Tarrow** (Hobby)"); a
    word of address or an office ("(Innkeeper)", "(Captain)") is no player, nor a short or pet
    form of the bold name ("**Margaret Dorsey** (Maggie)": her nickname)."""
    found: set[str] = set()
    for paragraph in re.split(r"\n\s*\n(?![ \t]*[-*+][ \t])", text):
        named = [
            m.group("player")
            for m in _ROSTER.finditer(paragraph)
            if m.group("player") not in _NOT_PLAYERS and not is_title(m.group("player"))
            and noun_type(m.group("player")) is None
            and not _form_of(m.group("player"), m.group("name"))
        ]  # fmt: skip
        if len(named) >= _ROSTER_LINES:
            found |= {normalise_name(name) for name in named}
    return found


def _form_of(word: str, name: str) -> bool:
    """Whether ``word`` is a word of ``name`` or a short or pet form of one ("Maggie" of
    Margaret Dorsey, "Bob" of Robert Hale)."""
    words = re.findall(r"[^\W\d_]+", name)
    return any(
        word.casefold() == w.casefold() or shortens(word, w) or pet_form(word, w) for w in words
    )


def _player_column(text: str) -> set[str]:
    """The names in the cells of a table's "Player" column ("| Player | Character |" over
    "| Dana | Clem Dawes |"), one word each ("(Pete)" is Pete)."""
    found: set[str] = set()
    lines = text.split("\n")
    for index, line in enumerate(lines[:-1]):
        if not line.lstrip().startswith("|") or not _HEADER_RULE.match(lines[index + 1]):
            continue
        header = [cell.strip(" *_").casefold() for cell in line.strip().strip("|").split("|")]
        if not ({"player", "players"} & set(header)):
            continue
        column = header.index("player" if "player" in header else "players")
        for row in lines[index + 2 :]:
            if not row.lstrip().startswith("|"):
                break
            cells = row.strip().strip("|").split("|")
            cell = cells[column].strip(" *_()[]") if column < len(cells) else ""
            if re.fullmatch(r"[A-Z][a-z]{1,20}", cell):
                found.add(normalise_name(cell))
    return found


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
