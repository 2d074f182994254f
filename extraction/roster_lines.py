"""Roster lines: a list item, table row or definition that names someone and then their role.

A cast list is rarely prose. "- Mickey Brennan — Lucky's kid brother; runs with the Harbour
Boys", "| Mickey Brennan | Lucky's kid brother | ... |" and a definition list ("Mickey
Brennan" on one line, ": Lucky's kid brother" on the next) all name the line's *subject* first
and then, after a dash, colon or cell border, a *role part* of short clauses (separated by
``;``, ``,`` or ``|``) whose subject is left unsaid. :func:`roster_line` finds the subject and
where the role part starts; :func:`opens_clause` tells whether an offset opens one of its
clauses (so "the captain's son" there is the subject's kin, and "boss of the Harbour Boys" the
subject's role).

:func:`role_of` reads a role noun with its preposition before a mention ("curator of the
Alderman Museum", "Treasury agent with the Prohibition Bureau", "bodyguard to Lucky") and
names the relation it states (:data:`ROLE_OF`; the taxonomy has no ``works_at``, so a job at a
place or outfit is ``works_for``). Whose role it is stays with the caller: the roster line's
subject, or the name the role stands in apposition to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from extraction.gazetteer import Mention

_LEADS = (
    "boss", "leader", "head", "chief", "captain", "commander", "master", "mistress", "founder",
    "chair", "chairman", "chairwoman", "ringleader", "kingpin", "director", "warden",
    "headman", "matriarch", "patriarch", "abbot", "abbess",
)  # fmt: skip
_OWNS = (
    "owner", "co-owner", "proprietor", "proprietress", "landlord", "landlady", "keeper",
    "innkeeper", "publisher",
)  # fmt: skip
_WORKS = (
    "curator", "editor", "clerk", "secretary", "bookkeeper", "accountant", "bartender", "barman",
    "barmaid", "barkeep", "cook", "chef", "nurse", "doctor", "surgeon", "physician", "medic",
    "teacher", "professor", "lecturer", "librarian", "archivist", "reporter", "journalist",
    "columnist", "engineer", "mechanic", "pilot", "technician", "employee", "worker", "manager",
    "foreman", "forewoman", "deckhand", "driver", "chauffeur", "butler", "maid", "footman",
    "valet", "janitor", "porter", "doorman", "bouncer", "lawyer", "attorney", "quartermaster",
    "waiter", "waitress", "groom", "stablehand", "scribe", "healer", "handler", "fixer",
)  # fmt: skip
_MEMBERS = (
    "member", "agent", "soldier", "sergeant", "detective", "officer", "lieutenant", "operative",
    "recruit", "initiate", "acolyte", "deputy", "constable", "patrolman", "trooper", "marine",
    "knight", "crewman", "deckhand",
)  # fmt: skip
_SERVES = (
    "bodyguard", "servant", "aide", "assistant", "henchman", "enforcer", "steward", "squire",
    "retainer", "right hand", "right-hand man", "right-hand woman", "right hand man",
)  # fmt: skip

ROLE_OF: dict[str, tuple[str, frozenset[str]]] = {
    **dict.fromkeys(_LEADS, ("leads", frozenset({"of"}))),
    **dict.fromkeys(_OWNS, ("owns", frozenset({"of"}))),
    **dict.fromkeys(_MEMBERS, ("member_of", frozenset({"of", "with", "in", "from"}))),
    **dict.fromkeys(_WORKS, ("works_for", frozenset({"of", "at", "for", "with", "on", "in"}))),
    **dict.fromkeys(_SERVES, ("serves", frozenset({"of", "to", "for"}))),
}
"""A role noun → the relation "<role> <preposition> Y" states of its holder, and the
prepositions that state it ("agent *with* the Bureau", "bodyguard *to* Lucky")."""

_ROLE_WORDS = "|".join(
    sorted((re.escape(w).replace(r"\ ", r"\s+") for w in ROLE_OF), key=len)[::-1]
)
_ROLE = re.compile(
    r"(?:^|(?<=[,;:—–|(])|(?<=\s)(?:is|was|as|became)\b)\s*(?P<phrase>(?:(?:also|now|still|once)"
    r"\s+)?(?:the\s+|a\s+|an\s+)?(?:[\w'’.-]+\s+){0,2}?(?P<role>" + _ROLE_WORDS + r")"
    r"(?:\s+(?:and|&)\s+(?:[\w-]+\s+)?(?:" + _ROLE_WORDS + r"))?\s+(?P<prep>of|at|for|with|to|"
    r"in|on|from)\s+(?:the\s+)?)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Role:
    relation: str
    start: int
    """Where the role phrase starts in the text searched (after any delimiter)."""


def role_of(before: str) -> Role | None:
    """The role phrase ``before`` ends with, right before a mention ("…, curator of the "),
    and the relation it states; None when there is none or its preposition does not fit."""
    found = _ROLE.search(before)
    if found is None:
        return None
    relation, prepositions = ROLE_OF[" ".join(found["role"].casefold().split())]
    if found["prep"].casefold() not in prepositions:
        return None
    return Role(relation, found.start("phrase"))


@dataclass(frozen=True)
class RosterLine:
    subject: str
    """The entity the line is about."""
    role_start: int
    """Where its role part starts, in the line's text."""


_EMPHASIS = r"(?:[*_]{1,2})?"
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+" + _EMPHASIS + r"(?:[A-Z][\w.'’]*\s+){0,3}$")
_ALIASES = r"(?:\s*\([^()\n]{1,120}\))?"
_ITEM_AFTER = re.compile(
    _EMPHASIS + _ALIASES + _EMPHASIS + r"\s*(?:—|–|--?|:)" + _EMPHASIS + r"\s*"
)
_CELL = re.compile(r"^\s*\|\s*" + _EMPHASIS + r"$")
_CELL_AFTER = re.compile(_EMPHASIS + r"\s*\|\s*")
_DEFINITION = re.compile(r"^:\s+")
_TERM = re.compile(r"^\s*" + _EMPHASIS + r"(?:[A-Z][\w.'’]*\s+){0,3}$")


def roster_line(
    text: str, offset: int, inside: Sequence[Mention], term: str | None
) -> RosterLine | None:
    """The roster line ``text`` is (``offset``: where it starts in the mentions' text), if
    any: a list item or table row opening with a name (a title or two may stand before it,
    its aliases in parentheses after it: "- **Sol** (Marisol, Sunny) — …") and a dash, colon
    or cell border after it; or a definition (": …") under ``term``, the
    entity the line before named alone."""
    if term is not None and (definition := _DEFINITION.match(text)):
        return RosterLine(term, definition.end())
    first = inside[0] if inside else None
    if first is None:
        return None
    before = text[: first.start - offset]
    for opening, after in ((_ITEM, _ITEM_AFTER), (_CELL, _CELL_AFTER)):
        if opening.match(before) and (found := after.match(text, first.end - offset)):
            return RosterLine(first.entity_id, found.end())
    return None


def term_of(text: str, offset: int, inside: Sequence[Mention]) -> str | None:
    """The entity a line names alone (a definition list's term: "**Mickey Brennan**")."""
    if len(inside) != 1:
        return None
    mention = inside[0]
    rest = text[mention.end - offset :].strip(" *_")
    return mention.entity_id if not rest and _TERM.match(text[: mention.start - offset]) else None


_CLAUSE_GAP = re.compile(r"(?:^|[;,|]\s*)(?:(?:and|also|now|but|once)\s+)?$")


def opens_clause(text: str, line: RosterLine, at: int) -> bool:
    """Whether offset ``at`` of ``text`` opens a clause of the line's role part."""
    return at >= line.role_start and bool(_CLAUSE_GAP.search(text[line.role_start : at]))
