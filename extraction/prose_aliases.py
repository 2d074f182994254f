"""Other names of a prose entity: stated ones, title forms and first names.

- stated: "Everyone calls her Old Wenna", "known as the Grey Hand", "called Redcap",
  "nicknamed Ash", "the gang know him as the Heron", "X, whom her people call the Crow
  Mother", "their nickname, the Iron Collars", "Its members, the Glaivers," — the alias of
  the sentence's subject (its first name, or the section's entity when the sentence opens
  with a pronoun);
- stated after the alias: "Old Lamp, the kids call it." (the previous sentence's subject);
- a short given name in apposition: "Rosa Whitlock, Deputy Ro, who ..." ("Ro" of Rosa);
- title forms: "Reeve Alda Brandt" gives "Reeve Alda Brandt" and, when no other entity bears
  that title, "the Reeve";
- first names: "Alda" for the NPC "Alda Brandt", when no other entity's name starts or ends
  with that word.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from extraction.nicknames import pet_form
from extraction.prose_names import NameSpan
from extraction.prose_types import INTRODUCED

_STATED = re.compile(
    r"\b(?:call(?:s|ed)?\s+(?P<person>her|him)|calls?\s+(?:it|them)|called|known\s+as|"
    r"nicknamed|also\s+named|goes\s+by|go\s+by|"
    r"knows?\s+(?:him|her|it|them)\s+(?:only\s+|simply\s+|just\s+)?as|"
    r"whom\s[^,.;]*?\bcalls?|nickname[,:]?|(?:its|their)\s+members,)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_SUMMONED = re.compile(
    r"\s+(?:in|out|up|back|over|down|away|together|forth)\b"
    r"(?!\s+(?:the|a|an|their|his|her|its|old)\b)"
)
"""After "called X": X was summoned, not named ("called the Wardens in from the yard"; not
"called Redcap in the old tongue")."""
_CALLS_IT = re.compile(r"calls?\s+(?:it|them)\b", re.IGNORECASE)
_CALLER = re.compile(r"^\s*(?:(?:still|also|often|sometimes|now|all|only)\s+)*$")
_PRONOUN_START = re.compile(r"^\s*(?:She|He|It|They|Her|His|Its|Their|Everyone|Locals|People)\b")
OFFICES = frozenset(
    ("reeve", "lord", "lady", "captain", "king", "queen", "prince", "princess", "sheriff",
     "mayor", "magister", "archmage", "abbot", "abbess", "bishop", "general", "sergeant",
     "commander", "chief", "duke", "duchess", "baron", "baroness", "count", "countess",
     "admiral", "commodore", "colonel", "governor", "senator", "chancellor", "ambassador",
     "margrave", "earl", "emperor", "empress", "regent", "prior", "prioress", "inspector",
     "marshal", "doctor", "professor", "lieutenant", "constable", "vizier", "sultan",
     "sultana", "emir", "jarl", "thane", "harbourmaster", "forewoman", "foreman", "director")
)  # fmt: skip
"""Titles of an office, which "the <title>" names alone ("the Reeve"; not "the Brother")."""


@dataclass(frozen=True)
class StatedAlias:
    alias: str
    name: str
    """The alias without its title ("Wenna" for "Old Wenna")."""
    subject: str | None
    """The subject name of the sentence, or ``None`` for the section's entity (pronoun)."""
    person: bool = False
    """Stated of "him" or "her" ("Sailors call him One-Eye Crake"), or after the alias ("Old
    Lamp, the kids call it"): with no subject, the person or thing the previous sentence
    opened with."""


def stated_aliases(sentence: str, spans: Iterable[NameSpan]) -> list[StatedAlias]:
    """The aliases a sentence states, each with the name it belongs to."""
    ordered = sorted(spans, key=lambda s: s.start)
    found: list[StatedAlias] = []
    for span in ordered:
        start = _with_title(sentence, span)
        cue = _STATED.search(sentence[:start])
        if cue is None or INTRODUCED.search(sentence[:start]):
            continue  # "a man called Silas Crane" introduces a name, it is no one's alias
        if cue.group(0).lower().startswith("call") and _SUMMONED.match(sentence, span.end):
            continue  # "called the Dyke Wardens in from the yard" summons them
        alias = sentence[start : span.end]
        person = cue.group("person") is not None
        before = next((s for s in reversed(ordered) if s.end <= start), None)
        subject = before.name if before else None
        active = person or _CALLS_IT.match(cue.group(0)) is not None
        if active and before and _CALLER.match(sentence[before.end : cue.start()]):
            subject = None  # "Sailors call him X", "Pryce calls it X": not the caller's name
        if subject is None and not person and not _PRONOUN_START.match(sentence):
            continue
        found.append(StatedAlias(alias, span.name, subject, person))
    return found + _postposed(sentence, ordered) + _short_appositions(sentence, ordered)


_CALLED_AFTER = re.compile(
    r",\s+(?:[a-z]+\s+){0,3}?call(?:s|ed)?\s+(?:it|him|her|them)(?:\s+that)?\s*[.!;]?\s*$"
)
"""After a name that opens the sentence: "Old Lamp, the kids call it." names what the
previous sentence was about."""


def _postposed(sentence: str, ordered: list[NameSpan]) -> list[StatedAlias]:
    """The alias a sentence opens with and then says is what someone calls the thing the
    previous sentence opened with ("The wisp drifts on the rim. Old Lamp, the kids call it.")."""
    if not ordered:
        return []
    span = ordered[0]
    start = _with_title(sentence, span)
    if sentence[:start].strip(" \t*_\"'“‘") or not _CALLED_AFTER.match(sentence, span.end):
        return []
    return [StatedAlias(sentence[start : span.end], span.name, None, person=True)]


def _short_appositions(sentence: str, ordered: list[NameSpan]) -> list[StatedAlias]:
    """A short form of a person's given name set off by commas right after the full name:
    "Rosa Whitlock, Deputy Ro, who grew up ..." ("Ro" clips Rosa), "Agatha Pruitt, Aggie,
    is ..." ("Aggie" stands for Agatha). Another name there is another thing ("Rosa
    Whitlock, Deputy Ames, and ...")."""
    found: list[StatedAlias] = []
    for full, short in itertools.pairwise(ordered):
        start = _with_title(sentence, short)
        given = full.name.split()[0]
        words = short.name.split()
        if len(full.name.split()) < 2 or len(words) != 1 or start < full.end:
            continue
        if sentence[full.end : start] != ", " or not sentence.startswith(",", short.end):
            continue
        word = words[0]
        clipped = 2 <= len(word) < len(given) and given.casefold().startswith(word.casefold())
        if clipped or pet_form(word, given):
            found.append(StatedAlias(sentence[start : short.end], short.name, full.name))
    return found


def _with_title(sentence: str, span: NameSpan) -> int:
    if not span.title:
        return span.start
    at = sentence.rfind(span.title, 0, span.start)
    return at if at >= 0 else span.start


def title_aliases(name: str, titles: Iterable[str], title_users: Mapping[str, int]) -> list[str]:
    """The title forms of ``name``: "Reeve Alda Brandt", and "the Reeve" when unambiguous."""
    aliases: list[str] = []
    for title in titles:
        aliases.append(f"{title} {name}")
        word = title.split()[-1]
        if word.casefold() in OFFICES and title_users.get(title.casefold()) == 1:
            aliases.append(f"the {title}")
    return aliases


def name_ends(names: Iterable[str]) -> dict[str, int]:
    """How many distinct names of two words or more open or end with each (casefolded) word."""
    ends: dict[str, int] = {}
    for name in set(names):
        parts = name.casefold().split()
        for word in {parts[0], parts[-1]} if len(parts) > 1 else ():
            ends[word] = ends.get(word, 0) + 1
    return ends


def first_name(
    name: str, names: Iterable[str], ends: Mapping[str, int] | None = None
) -> str | None:
    """The first word of a person's name when no other name shares it as first or last word
    (``ends``: :func:`name_ends` of ``names``, which hold ``name``, computed once by a caller
    that asks for many)."""
    words = name.split()
    if len(words) < 2 or len(words[0]) < 3:
        return None
    if ends is None:
        names = set(names)
        ends = name_ends(names | {name})
    return None if ends.get(words[0].casefold(), 0) > 1 else words[0]
