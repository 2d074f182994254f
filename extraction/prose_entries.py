"""Relations a list entry states of its own subject without naming it again, and where a
directory line places someone.

A who's-who entry names its subject once, up front ("- **Orisun Biotech** — …", "2. LUCKY
BUBBLES LAUNDROMAT — …", "- Orisun Biotech (Orisun, the Wellspring). …"); what follows, on
the same item, is about it. :func:`entry_subject` finds that subject. :func:`entry_relations`
reads two shapes of clause that leave it unsaid:

* a person who runs it, the object left out or said as "it"/"them": "Chairman Hollis
  Achterberg leads; VP Vivian Tsang runs Special Projects" under Sunlattice Holdings →
  ``hollis-achterberg leads sunlattice``; "Tia Fê runs it (fernanda amaral, …)" under Lucky
  Bubbles → ``fernanda-amaral owns lucky-bubbles``;
* a person's role in it, the role noun ending the clause: "Abiodun Falana ("Mr. Blue") is the
  street handler" under Orisun Biotech → ``abiodun-falana works_for orisun-biotech``.

Only a person (``PEOPLE_TYPES``) who opens the clause holds the role, and only of an entry
that is not itself a person ("it" stands for a thing). :func:`placed_relations` reads a
directory line that gives where to find someone: "Chrome: Doc Sethu at the Marigold Clinic,
Bay 9." or "go to tia fê at lucky bubbles now" → the person ``located_in`` the place; "killed
Bico at Saudade", "meets Piet at the blast door" tell of one night, and state nothing.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence

from extraction.gazetteer import Mention
from extraction.prose_kin import PEOPLE_TYPES
from extraction.roster_lines import ROLE_OF

_ITEM_OPENING = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])\s+(?:[*_]{1,2})?(?:(?:the|[A-Z][\w.'’]*)\s+){0,3}$", re.IGNORECASE
)


def entry_subject(text: str, offset: int, inside: Sequence[Mention]) -> str | None:
    """The entity a list item opens with (a title or two may stand before it), if ``text``
    is one: "- **Mr. Blue** — …", "1. THE MARIGOLD — …", "- Orisun Biotech (Orisun). …"."""
    if not inside:
        return None
    first = inside[0]
    return first.entity_id if _ITEM_OPENING.match(text[: first.start - offset]) else None


_CLAUSE_OPENING = re.compile(
    r"(?:^|[;,:—–|]\s*|\s(?:and|but|while)\s+)(?:[*_]{1,2})?(?:[A-Z][\w.'’]*\s+){0,2}$"
)
_ALIASES = r"(?:\s*\([^()\n]{1,80}\))?"
_RUNS = re.compile(
    _ALIASES + r"\s+(?:(?:still|now|also)\s+)?(?P<verb>leads|heads|commands|runs|owns|keeps)"
    r"(?:\s+(?:it|them|the\s+place))?(?:\s+now)?\s*(?=[;,.)|(]|$)",
    re.IGNORECASE,
)
_RUN_VERB = {"leads": "leads", "heads": "leads", "commands": "leads"}
_ROLE_WORDS = "|".join(
    sorted((re.escape(w).replace(r"\ ", r"\s+") for w in ROLE_OF), key=len)[::-1]
)
_IS_ROLE = re.compile(
    _ALIASES + r"\s+(?:is|was)\s+(?:now\s+)?(?:the|their|its|a|an)\s+(?:[\w'’-]+\s+){0,2}?"
    r"(?P<role>" + _ROLE_WORDS + r")\s*(?=[;,.|]|$)",
    re.IGNORECASE,
)


def entry_relations(
    text: str,
    offset: int,
    inside: Sequence[Mention],
    entry: str | None,
    kinds: Mapping[str, str],
) -> list[tuple[str, str, str]]:
    """``(source, type, target)`` of each clause of ``text`` that names a person and what
    they are to the list entry ``entry`` (see the module docstring)."""
    if entry is None or kinds.get(entry) in PEOPLE_TYPES or entry not in kinds:
        return []
    found: list[tuple[str, str, str]] = []
    for mention in inside:
        if mention.entity_id == entry or kinds.get(mention.entity_id) not in PEOPLE_TYPES:
            continue
        if not _CLAUSE_OPENING.search(text[: mention.start - offset]):
            continue
        relation = _runs(text, mention.end - offset)
        if relation is not None:
            found.append((mention.entity_id, relation, entry))
    return found


def _runs(text: str, at: int) -> str | None:
    """What "leads", "runs it" or "is the street handler" right after a name states."""
    if found := _RUNS.match(text, at):
        return _RUN_VERB.get(found["verb"].casefold(), "owns")
    if found := _IS_ROLE.match(text, at):
        return ROLE_OF[" ".join(found["role"].casefold().split())][0]
    return None


_DIRECTORY = re.compile(
    r"(?:^\s*(?:[-*+]\s+)?(?:[*_]{1,2})?[\w'’ ]{1,24}(?:[*_]{1,2})?:\s*(?:[*_]{1,2})?"
    r"|\b(?:go\s+to|ask\s+for|see|visit|try|reports?\s+to|answers?\s+to)\s+)$",
    re.IGNORECASE,
)
_AT = re.compile(r"\s+at\s+(?:the\s+)?")


def placed_relations(
    text: str, offset: int, inside: Sequence[Mention], kinds: Mapping[str, str]
) -> list[tuple[str, str, str]]:
    """``(person, "located_in", place)`` for each "<person> at <place>" that a directory
    label ("Chrome: ") or an errand ("go to", "ask for", "reports to") opens."""
    found: list[tuple[str, str, str]] = []
    for person, place in itertools.pairwise(inside):
        is_person = kinds.get(person.entity_id) in PEOPLE_TYPES
        if not is_person or kinds.get(place.entity_id) != "Location":
            continue
        if _AT.fullmatch(text, person.end - offset, place.start - offset) and _DIRECTORY.search(
            text[: person.start - offset]
        ):
            found.append((person.entity_id, "located_in", place.entity_id))
    return found


def heading_members(
    text: str, offset: int, inside: Sequence[Mention], subject: str | None, kinds: Mapping[str, str]
) -> list[tuple[str, str, str]]:
    """``(person, "member_of", faction)`` for a who's-who item (a list item that opens with a
    person's name in bold) under a heading that names a faction: "## The Calloways" over "-
    **Mercy Calloway** — the sister, and the one with the brains." → ``mercy-calloway
    member_of calloway-gang``. A plain item ("- Chief Vell walks them out.") is a note of
    what happened, not a roster."""
    entry = entry_subject(text, offset, inside)
    if subject is None or entry is None or entry == subject:
        return []
    if kinds.get(subject) != "Faction" or kinds.get(entry) not in PEOPLE_TYPES:
        return []
    bold = _BOLD_OPENING.match(text[: inside[0].start - offset])
    return [(entry, "member_of", subject)] if bold else []


_BOLD_OPENING = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*|__)")
