"""Name candidates of the prose stage, and how they merge into one entity.

A candidate gathers every mention of one normalised name: surfaces, titles, type votes
(``(rank, type)``: the lowest rank is the strongest evidence), description and aliases.
Merging folds a stated alias ("Old Wenna"), a lone first name ("Alda") or a one-word short
form ("the Reeve", "the Compact") into the one entity it names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extraction.prose_aliases import first_name, name_ends, title_aliases
from extraction.prose_names import KIN_CONNECTORS
from extraction.prose_types import name_type, noun_type
from extraction.slugs import normalise_name

_PEOPLE = ("NPC", "PC", "Other")
"""The types of a lone first name that may merge into a person."""


@dataclass
class Candidate:
    surfaces: dict[str, int] = field(default_factory=dict)
    mentions: int = 0
    after_the: int = 0  # mentions written after "the" ("the Pinchgate")
    possessive: int = 0  # mentions written in the possessive ("St Agatha's")
    openings: int = 0  # mentions opening a sentence or a line ("Georgian brandy burns")
    verb_openings: int = 0  # mentions opening a sentence, a line or a table cell
    objects: int = 0  # mentions a lower-case determiner follows ("Commands the Poles")
    heading: str = ""
    heading_path: str = ""
    common_in_section: bool = False  # its section writes the heading's word in lower case
    plural_in_section: bool = False  # its section writes its last word in lower case ("lights")
    cut_heading: bool = False  # the heading's name is its first words ("Church" of "Church people")
    listed_in_section: int = (
        0  # entries of other names its section defines ("## Money" over people)
    )
    defined: bool = False  # a table row, bold term or roster line names it (prose_layout)
    titles: list[str] = field(default_factory=list)
    votes: list[tuple[int, str]] = field(default_factory=list)
    party: bool = False
    description: tuple[bool, int, str] | None = None  # (party, rank, text): description_rank
    aliases: dict[str, bool] = field(default_factory=dict)  # alias -> stated in a party chunk
    paths: list[str] = field(default_factory=list)


@dataclass
class NamedAliases:
    """Aliases a file card or a bracket gives a name (:mod:`extraction.prose_aliases`):
    normalised alias → normalised owner → whether a party chunk gives it, and each alias as
    written."""

    owners: dict[str, dict[str, bool]] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)
    codenames: set[str] = field(default_factory=set)
    handles: set[str] = field(default_factory=set)  # aliases only a person may take
    besides: set[str] = field(default_factory=set)  # handles among a bracket's items

    def add(
        self,
        alias: str,
        owner: str,
        party: bool,
        *,
        codename: bool = False,
        handle: bool = False,
        beside: bool = False,
    ) -> None:
        key = normalise_name(alias)
        if not key or key == normalise_name(owner):
            return
        owners = self.owners.setdefault(key, {})
        owners[normalise_name(owner)] = owners.get(normalise_name(owner), False) or party
        self.written.setdefault(key, alias)
        if codename:
            self.codenames.add(key)
        if handle:
            self.handles.add(key)
        if beside:
            self.besides.add(key)


@dataclass(frozen=True)
class Epithet:
    """One use of a name right after another: "Garran the Eel" is an epithet use of "Eel"."""

    owner: str  # the normalised name it follows
    full: str  # "Garran the Eel"
    short: str  # "the Eel"
    party: bool


_WEAKEST = 5
"""The rank of :func:`~extraction.prose_types.weak_type`'s evidence."""
_THIN = 3
"""Mentions from which one weak place cue alone is too thin to type a name."""


def best_type(candidate: Candidate) -> str:
    """The type of the strongest evidence, the most voted at that rank; ``Other`` when none
    speaks, or when all there is is one weak place cue ("into the X") for a name mentioned
    :data:`_THIN` times or more: "plugged the Blackbird into the Tortoise", once among ten
    mentions of a cyberdeck, is no place (a place is written "in X" and "into X" again)."""
    if not candidate.votes:
        return "Other"
    best = min(rank for rank, _ in candidate.votes)
    kinds = [kind for rank, kind in candidate.votes if rank == best]
    if best == _WEAKEST and kinds == ["Location"] and candidate.mentions >= _THIN:
        return "Other"
    return max(sorted(set(kinds)), key=kinds.count)


def display_name(candidate: Candidate) -> str:
    if candidate.heading:
        return candidate.heading
    return max(sorted(candidate.surfaces), key=lambda s: candidate.surfaces[s])


def merge_aliases(found: dict[str, Candidate], alias_of: dict[str, str]) -> dict[str, Candidate]:
    for alias, owner in alias_of.items():
        if alias in found and owner in found and alias != owner:
            absorb(found[owner], found.pop(alias))
    return found


def absorb(into: Candidate, other: Candidate) -> None:
    into.mentions += other.mentions
    into.possessive += other.possessive
    into.party |= other.party
    into.paths += other.paths
    for surface in other.surfaces:
        into.aliases.setdefault(surface, other.party)
    for title in other.titles:
        for surface in other.surfaces:
            into.aliases.setdefault(f"{title} {surface}", other.party)


def person_like(candidate: Candidate) -> bool:
    """Typed a person, or untyped with a name of two capitalised words neither of which is a
    cue noun ("Gideon Mawle", not "Black Shuck Inn")."""
    kind = best_type(candidate)
    if kind in ("NPC", "PC"):
        return True
    words = display_name(candidate).split()
    plain = all(w[0].isupper() and noun_type(w) is None for w in words)
    return kind == "Other" and len(words) == 2 and plain and not candidate.heading


def merge_first_names(found: dict[str, Candidate], kept: dict[str, Candidate]) -> None:
    people = {key: display_name(c) for key, c in kept.items() if person_like(c)}
    names = [display_name(c) for c in kept.values()]
    ends = name_ends(names)
    for key, person in people.items():
        short = first_name(person, names, ends)
        lone = normalise_name(short) if short else None
        shown = lone is not None and lone in found and found[lone].party and not kept[key].party
        if lone and lone in found and lone != key and best_type(found[lone]) in _PEOPLE:
            if shown:
                continue  # a party first name must not show a GM-only person
            kept.pop(lone, None)
            absorb(kept[key], found[lone])
            kept[key].aliases.setdefault(short or "", kept[key].party)
        elif short and best_type(kept[key]) != "Other":
            kept[key].aliases.setdefault(short, kept[key].party)


def title_counts(kept: dict[str, Candidate]) -> dict[str, int]:
    titles: dict[str, int] = {}
    for candidate in kept.values():
        for title in candidate.titles:
            titles[title.casefold()] = titles.get(title.casefold(), 0) + 1
    return titles


def merge_short_names(kept: dict[str, Candidate]) -> None:
    """Fold a one-word name into the one entity it is a short form of: "the Reeve" of "Reeve
    Alda Brandt", "the Compact" of "The Millers' Compact" (a lone surname is
    :func:`merge_surnames`')."""
    titles = title_counts(kept)
    owners: dict[str, set[str]] = {}
    leading: set[str] = set()  # first words of "Cragspire Keep", "Skerra Isle"
    for key, candidate in kept.items():
        name = display_name(candidate)
        words = name.split()
        forms = [*candidate.aliases, *title_aliases(name, candidate.titles, titles)]
        if best_type(candidate) not in ("NPC", "PC") and len(words) > 1:
            forms.append(name.split(" of ")[0].split()[-1])
        if len(words) == 2 and words[0].casefold() != "the" and name_type(name) == "Location":
            forms.append(words[0])
            leading.add(normalise_name(words[0]))
        for form in forms:
            owners.setdefault(normalise_name(form), set()).add(key)
    for key in sorted(kept):
        if len(key.split()) > 1:
            continue
        owner = owners.get(key, set())
        if len(owner) == 1 and key not in owner:
            (target,) = owner
            if target in kept and (key not in leading or _lesser(kept[key], kept[target])):
                absorb(kept[target], kept.pop(key))


def _lesser(short: Candidate, full: Candidate) -> bool:
    """Whether "Cragspire" is a short form of "Cragspire Keep", not the town the keep is named
    after: no heading of its own, no type against the place, named no more often."""
    kind = best_type(short)
    named = full.mentions + bool(full.heading)
    return not short.heading and kind in ("Location", "Other") and short.mentions <= named


def merge_epithets(
    found: dict[str, Candidate], epithets: dict[str, list[Epithet]]
) -> dict[str, Candidate]:
    """Fold a name written only as another's epithet ("Garran the Eel", "the Sleeper in the
    Sand", "Saint Odila, the Lamplighter") into that one name: its forms become aliases, its
    type cues count for the owner. A name also written alone, after two names, or over a
    heading is a thing of its own ("gave Orm the Oathring")."""
    for key, uses in sorted(epithets.items()):
        candidate = found.get(key)
        owners = {use.owner for use in uses}
        if candidate is None or candidate.heading or candidate.mentions != len(uses):
            continue
        (owner,) = owners if len(owners) == 1 else (None,)
        if owner is None or owner == key or owner not in found:
            continue
        into = found[owner]
        for use in uses:
            for alias in (use.full, use.short):
                into.aliases[alias] = into.aliases.get(alias, False) or use.party
        into.votes += candidate.votes
        del found[key]
    return found


_GIVEN_AFTER_SURNAME = re.compile(r"[A-Z][a-z]+-[a-z]+")
"""A Chinese or Korean given name written with a hyphen ("Mei-ling", "Siu-hung", "Soo-jin"):
it follows the surname ("Leung Siu-hung", "Vivian Tsang Mei-ling")."""


def surname(name: str) -> str:
    """The surname of a person's name of two words or more: its last word ("Alda Brandt"), or
    the word before a hyphenated Chinese or Korean given name ("Leung" of "Leung Siu-hung",
    "Tsang" of "Vivian Tsang Mei-ling")."""
    words = name.split()
    if len(words) > 1 and _GIVEN_AFTER_SURNAME.fullmatch(words[-1]):
        return words[-2]
    return words[-1]


def merge_surnames(found: dict[str, Candidate], kept: dict[str, Candidate]) -> None:
    """Fold a lone last name ("Grell", "Captain Grell", "Siu-hung" of "Leung Siu-hung") or
    surname ("VP Tsang" of "Vivian Tsang Mei-ling": :func:`surname`) into the one person whose
    name holds it so, when no other entity's name shares that word; never a father's name
    after "ibn" or "bint" ("Wahb" of Maryam bint Wahb)."""
    people = {key: display_name(c) for key, c in kept.items() if person_like(c)}
    words: dict[str, int] = {}
    for candidate in kept.values():
        parts = display_name(candidate).split()
        for word in {w.casefold() for w in parts} if len(parts) > 1 else ():
            words[word] = words.get(word, 0) + 1
    for key, person in people.items():
        parts = person.split()
        if len(parts) > 1 and parts[-2] in KIN_CONNECTORS:
            continue  # "Wahb" of "Maryam bint Wahb" is her father, no surname of hers
        for word in dict.fromkeys((parts[-1], surname(person))):
            last = word.casefold()
            lone = normalise_name(last)
            if len(parts) < 2 or len(last) < 3 or words.get(last) != 1 or lone == key:
                continue
            if lone in found and best_type(found[lone]) in ("NPC", "Other") and key in kept:
                if found[lone].party and not kept[key].party:
                    continue  # a party surname must not show a GM-only person
                kept.pop(lone, None)
                absorb(kept[key], found.pop(lone))


def add_roles(kept: dict[str, Candidate], roles: dict[str, dict[str, bool]]) -> None:
    """Give a person the role stated beside its name ("Kaspar Iselin, the farrier") as an
    alias ("the farrier"), when the prose gives that role to no one else."""
    for role, owners in sorted(roles.items()):
        if len(owners) != 1:
            continue
        ((key, party),) = owners.items()
        if key in kept and best_type(kept[key]) in ("NPC", "PC") and role not in kept:
            kept[key].aliases.setdefault(role, party)
