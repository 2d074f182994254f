"""Merges that make one entity of one real thing in a prose-only ingest, after the candidates
are kept (:mod:`extraction.prose_entities`): a short form written with "the" ("the
Pinchgate"), the end of a one-word name ("the Mere" of Sallowmere), an office alone ("the
Vizier"), a first name alone ("Wes" of Wes Dunbar), a short given name ("Toby" of Tobias
Gossage), a member of a group ("every Dyke Warden" of the Dyke Wardens), a misheard surname
("Marshal Crain" of Elias Crane), the shorter forms of an Arabic name ("Yazid al-Muhallabi"
of Yazid ibn Hatim al-Muhallabi).

Every merge needs exactly one owner of the right type; with none or several the names stay as
they are ("Other when unsure, never a wrong confident merge").
"""

from __future__ import annotations

import re

from extraction.nicknames import (
    HYPOCORISMS,
    clipped_forms,
    foreign_fulls,
    pet_form,
    shortens,
    unaccented,
)
from extraction.prose_aliases import handle_shaped, name_ends
from extraction.prose_candidates import (
    Candidate,
    NamedAliases,
    absorb,
    best_type,
    display_name,
    person_like,
)
from extraction.prose_honorifics import o_prefixed
from extraction.prose_names import (
    ARABIC_HEADS,
    DEMONYMS,
    inverted_name,
    is_possessive,
    is_title,
)
from extraction.prose_types import noun_type
from extraction.slugs import normalise_name
from extraction.sound_alike import ADDRESS_SEXES, leading_titles, sounds_alike, titles_agree
from graphrag_core.titles import OFFICE_TITLES

_PEOPLE = ("NPC", "PC")
_PEOPLE_TYPES = frozenset(_PEOPLE)


def _words(name: str) -> list[str]:
    words = name.casefold().split()
    return words[1:] if words[:1] == ["the"] and len(words) > 1 else words


def _with_the(candidate: Candidate) -> bool:
    """Most of its mentions are "the X" (a place's short form, not a town's own name)."""
    return 2 * candidate.after_the > candidate.mentions


def _fold(into: Candidate, short: Candidate) -> None:
    """``absorb`` a short form whose type fits, with its type cues ("the Nine Lamps, a
    caravanserai" types the whole name)."""
    absorb(into, short)
    into.votes += short.votes


def _reveals(short: Candidate, full: Candidate) -> bool:
    """Whether folding a short form the party reads into a GM-only entity would show it."""
    return short.party and not full.party


def _fits(short: str, full: str) -> bool:
    return full not in _PEOPLE and short in (full, "Other")


def merge_prefixes(kept: dict[str, Candidate]) -> None:
    """Fold a short form written with "the" into the one longer name it opens: "the Pinchgate"
    of "The Pinchgate Sluice", "the Pike" of "The Pike and Withy", "the Black Tide" of "Black
    Tide Smugglers". Not when it opens two names, when its type is against the longer one's,
    or when most of its mentions are not "the X" ("the Tesk rings" and "the gas giant Tesk"
    name a planet beside the "Tesk Mining Consortium"; a town "Cragspire" beside "Cragspire
    Keep" is ``merge_short_names``' question); a person's first name is
    ``merge_first_names``'. A short form over a heading of its own keeps its name and takes
    the longer one in ("## The Vestry" and "the Vestry of St Ebba")."""
    names = {key: _words(display_name(c)) for key, c in kept.items()}
    opening: dict[tuple[str, ...], list[str]] = {}  # ("pinchgate",) -> the names it opens
    for key, words in names.items():
        for end in range(1, len(words)):
            opening.setdefault(tuple(words[:end]), []).append(key)
    for key in sorted(kept, key=lambda k: len(names[k])):
        short = kept.get(key)
        if short is None or not _with_the(short):
            continue
        longer = [k for k in opening.get(tuple(names[key]), []) if k != key and k in kept]
        if len(longer) != 1:
            continue
        (target,) = longer
        full = kept[target]
        if not _fits(best_type(short), best_type(full)):
            continue
        if short.heading and not full.heading:
            _fold(short, kept.pop(target))
        elif not short.heading:
            _fold(full, kept.pop(key))


def merge_place_heads(kept: dict[str, Candidate]) -> None:
    """Fold a name of two words or more into the one longer name that is it after a place's
    one-word name: "the Evening Courier" of "The Gullport Evening
    Courier", "the Historical Society" of "Vesper Historical Society" (the town's paper, the
    town's society); a people's adjective heads such a name as a place does ("the Trade
    Mission" of "Soviet Trade Mission", "the Royal Navy" of "British Royal Navy"). Not when
    two such names fit ("Vesper Historical Society" and "Hollis Historical Society"), nor when
    their types disagree."""
    names = {key: _words(display_name(c)) for key, c in kept.items()}
    places = {
        words[0]
        for key, words in names.items()
        if len(words) == 1 and best_type(kept[key]) in ("Location", "Other")
    }
    after: dict[tuple[str, ...], list[str]] = {}  # ("evening", "courier") -> the longer names
    for key, words in names.items():
        if len(words) >= 3 and (words[0] in places or words[0] in DEMONYMS):
            after.setdefault(tuple(words[1:]), []).append(key)
    for key in sorted(kept):
        short = kept.get(key)
        if short is None or short.heading or len(names[key]) < 2:
            continue
        owners = [k for k in after.get(tuple(names[key]), []) if k != key and k in kept]
        if len(owners) != 1:
            continue
        kind, full = best_type(short), best_type(kept[owners[0]])
        if (kind == full or "Other" in (kind, full)) and not _reveals(short, kept[owners[0]]):
            _fold(kept[owners[0]], kept.pop(key))


def _office_name(name: str) -> bool:
    """Whether a name is an office, not a person: a lone title ("Vizier", "Dyke-Reeve") or an
    office over a place or group ("Reeve of Sallowmere", "Captain of the Guard")."""
    words = name.split()
    if len(words) == 1:
        return is_title(words[0])
    return is_title(words[0]) and words[1] == "of"


def merge_offices(kept: dict[str, Candidate], offices: dict[str, set[str]]) -> None:
    """Fold an office written alone ("the Vizier", "the Dyke-Reeve", "Reeve of Sallowmere")
    into the one person the prose gives it to (a title, an apposition, "was made"); an office
    held by no one or by several stays as it is (unsure: no guess)."""
    for key in sorted(kept):
        candidate = kept[key]
        name = display_name(candidate)
        if candidate.heading or not _office_name(name):
            continue
        holders = {
            k for k in offices.get(name.casefold(), set())
            if k in kept and k != key and person_like(kept[k])
        }  # fmt: skip
        if len(holders) == 1:
            (holder,) = holders
            absorb(kept[holder], kept.pop(key))
            kept[holder].aliases.setdefault(f"the {name}", candidate.party)


def merge_tails(kept: dict[str, Candidate]) -> None:
    """Fold a one-word short form written with "the" into the one one-word name that ends with
    it ("the Mere" of Sallowmere, "the Holm" of Vardholm), unless it is also a word of another
    name ("Ebba's Holm") or its type is against the place's. A plural short form names a
    group by the end of a word of its longer name too ("the Diggers" of the Gravediggers MC,
    "the Hands" of the Ironhands Syndicate): the group's members, typed as people or not at
    all, the group untyped or a faction."""
    names = {key: _words(display_name(c)) for key, c in kept.items()}
    in_names = {word for words in names.values() if len(words) > 1 for word in words}
    ending: dict[str, list[str]] = {}  # "mere" -> ["sallowmere"]: one-word names ending so
    groups: dict[str, list[str]] = {}  # "diggers" -> ["gravediggers mc"]: longer names so
    for key, words in names.items():
        for cut in range(3, len(words[0]) - 2) if len(words) == 1 else ():
            ending.setdefault(words[0][cut:], []).append(key)
        for word in words[: words.index("of")] if "of" in words else words:
            for cut in range(3, len(word) - 2) if len(words) > 1 else ():
                groups.setdefault(word[cut:], []).append(key)
    for key in sorted(kept):
        short = kept.get(key)
        words = names[key]
        if short is None or short.heading or len(words) != 1 or not _with_the(short):
            continue
        if words[0] in in_names:
            continue
        owners = [k for k in ending.get(words[0], []) if k != key and k in kept]
        if len(owners) == 1 and _fits(best_type(short), best_type(kept[owners[0]])):
            _fold(kept[owners[0]], kept.pop(key))
            continue
        if owners or not words[0].endswith("s"):
            continue
        owners = list(dict.fromkeys(k for k in groups.get(words[0], []) if k in kept))
        kind = best_type(short)
        if len(owners) != 1 or kind not in ("NPC", "Faction", "Other"):
            continue
        group = kept[owners[0]]
        if best_type(group) in ("Faction", "Other") and not _reveals(
            kept[key], group
        ):  # "the Diggers sold": no person's type
            (_fold if kind == "Faction" else absorb)(group, kept.pop(key))


_THINGS = ("Location", "Item", "Faction", "Creature")


def merge_of_names(kept: dict[str, Candidate]) -> None:
    """Fold a typed place or thing written "the X" into the one longer name that ends "of the
    X" when that name is of its type or untyped: "the Nine Lamps" (a caravanserai) of "The
    Caravanserai of the Nine Lamps". A person, a god or an untyped name stays apart: "the
    Tidemother" of "Shrine of the Tidemother" is the goddess, "the Vizier" of "Seal of the
    Vizier" the man."""
    closing: dict[tuple[str, ...], list[str]] = {}  # ("nine", "lamps") -> names ending "of the"
    for key, candidate in kept.items():
        words = _words(display_name(candidate))
        for at in range(1, len(words) - 2):
            if words[at : at + 2] == ["of", "the"]:
                closing.setdefault(tuple(words[at + 2 :]), []).append(key)
    for key in sorted(kept):
        short = kept.get(key)
        if short is None or short.heading or not _with_the(short):
            continue
        kind = best_type(short)
        owners = [k for k in closing.get(tuple(_words(display_name(short))), []) if k in kept]
        if kind in _THINGS and len(owners) == 1 and best_type(kept[owners[0]]) in (kind, "Other"):
            _fold(kept[owners[0]], kept.pop(key))


def merge_inverted_names(kept: dict[str, Candidate]) -> None:
    """Fold a place's or thing's name written "<head> of <tail>" in another tongue or in
    English ("*la Mesa del Cuervo*", "Isle of Skerra") into the one place or thing named
    "<tail> <head>" ("Cuervo Mesa", "Skerra Isle": :func:`inverted_name`), when neither is a
    person and their types agree (or one is untyped)."""
    names = {normalise_name(display_name(c)): key for key, c in kept.items()}
    for key in sorted(kept):
        turned = inverted_name(display_name(kept[key])) if key in kept else None
        owner = names.get(normalise_name(turned)) if turned else None
        if owner is None or owner == key or owner not in kept or kept[key].heading:
            continue
        kinds = {best_type(kept[key]), best_type(kept[owner])} - {"Other"}
        if len(kinds) <= 1 and not kinds & {"NPC", "PC"}:
            _fold(kept[owner], kept.pop(key))


def merge_saints_places(kept: dict[str, Candidate]) -> None:
    """Fold a saint's name written mostly in the possessive ("St Barbara's", "married at St
    Barbara's") into the one place named "... of St Barbara": the possessive names the
    saint's chapel, not the saint. A saint written plainly ("prays to St Barbara") stays the
    saint, and an order ("Sisters of St Agatha") is no chapel."""
    closing: dict[tuple[str, ...], list[str]] = {}  # ("st", "barbara") -> names ending "of" so
    for key, candidate in kept.items():
        words = _words(display_name(candidate))
        for at in range(1, len(words) - 1):
            if words[at] == "of":
                closing.setdefault(tuple(words[at + 1 :]), []).append(key)
    for key in sorted(kept):
        saint = kept.get(key)
        if saint is None or saint.heading or 2 * saint.possessive <= saint.mentions:
            continue
        forms = {
            tuple(normalise_name(f"{title} {surface}").split())
            for title in saint.titles
            if title.casefold().rstrip(".") in ("st", "saint")
            for surface in (display_name(saint), *saint.surfaces)
        }
        owners = {k for form in forms for k in closing.get(form, []) if k in kept and k != key}
        if len(owners) != 1 or best_type(place := kept[owners.pop()]) != "Location":
            continue
        del kept[key]
        place.mentions += saint.mentions
        place.party |= saint.party
        place.paths += saint.paths
        for title in saint.titles:
            for surface in saint.surfaces:  # "St Barbara's", never the saint's own name
                place.aliases.setdefault(f"{title} {surface}'s", saint.party)


_SPELT = {
    word: str(n)
    for n, word in enumerate(
        ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
         "twelve"),
        start=1,
    )
}  # fmt: skip


def merge_numbers(kept: dict[str, Candidate]) -> None:
    """Fold a number written alone as a name ("went down Nine", "sealed Nine") into the one
    name it designates ("Shaft 9"); with two ("Shaft 9", "Dock 9") or none it stays as it is."""
    numbered: dict[str, list[str]] = {}  # "9" -> ["shaft 9"]
    for key, candidate in kept.items():
        words = _words(display_name(candidate))
        if len(words) > 1 and words[-1].isdigit():
            numbered.setdefault(words[-1].lstrip("0"), []).append(key)
    for key in sorted(kept):
        alone = kept.get(key)
        words = _words(display_name(alone)) if alone else []
        if alone is None or alone.heading or len(words) != 1 or words[0] not in _SPELT:
            continue
        owners = [k for k in numbered.get(_SPELT[words[0]], []) if k in kept]
        if len(owners) == 1 and best_type(alone) in (best_type(kept[owners[0]]), "Other"):
            absorb(kept[owners[0]], kept.pop(key))


def merge_members(kept: dict[str, Candidate]) -> None:
    """Fold the singular of a group's plural name into the group: "every Dyke Warden" is one
    of "the Dyke Wardens", "a Tidewarden" one of the Tidewardens."""
    plurals = {normalise_name(display_name(c)): k for k, c in kept.items()}
    for key in sorted(kept):
        member = kept[key]
        group = plurals.get(normalise_name(display_name(member)) + "s", key)
        if group == key or group not in kept or best_type(kept[group]) != "Faction":
            continue
        if not member.heading and best_type(member) in ("NPC", "Other"):
            absorb(kept[group], kept.pop(key))


_NOT_INITIAL = frozenset(("of", "the", "and", "for", "in", "on", "at", "&"))


def _initials(name: str) -> set[str]:
    """A name's initials, with and without its small words ("Kessler-Mori Extraction" →
    "KME"; "Bureau of Mines" → "BM", "BOM")."""
    words = [w for w in re.split(r"[\s\-–]+", name) if w[:1].isalnum()]
    return {
        "".join(w[0] for w in words).upper(),
        "".join(w[0] for w in words if w.casefold() not in _NOT_INITIAL).upper(),
    }


def merge_acronyms(kept: dict[str, Candidate]) -> None:
    """Fold an acronym written alone ("KME holds the charter") into the one group, place or
    thing whose name's initials it is ("Kessler-Mori Extraction"), typed so or named by a cue
    noun ("Mining Company"); with two such names, or only a person's or an untyped name's
    ("Kit Marlowe Easton"), it stays as it is."""
    by_initials: dict[str, list[str]] = {}
    for key, candidate in kept.items():
        name = display_name(candidate)
        kind = best_type(candidate)
        cue = any(noun_type(w) not in (None, "NPC", "PC") for w in name.split())
        if len(_words(name)) > 1 and (kind not in (*_PEOPLE, "Other") or cue):
            for initials in _initials(name):
                by_initials.setdefault(initials, []).append(key)
    for key in sorted(kept):
        short = kept.get(key)
        name = display_name(short) if short else ""
        if short is None or short.heading or not (2 <= len(name) <= 6 and name.isupper()):
            continue
        owners = list(dict.fromkeys(k for k in by_initials.get(name, []) if k in kept))
        if len(owners) != 1 or owners[0] == key:
            continue
        kind, full = best_type(short), best_type(kept[owners[0]])
        fits = kind in (full, "Other") or (kind == "NPC" and full == "Faction")  # "HVM pays"
        if fits and not _reveals(short, kept[owners[0]]):
            absorb(kept[owners[0]], kept.pop(key))


def _person_shaped(candidate: Candidate) -> bool:
    """:func:`person_like`, or a heading of two plain capitalised words typed as no thing: a
    character's section ("## Wes Dunbar — the Crooked") names a person the way prose does."""
    if person_like(candidate):
        return True
    words = display_name(candidate).split()
    plain = all(w[:1].isupper() and noun_type(w) is None for w in words)
    return (
        bool(candidate.heading)
        and len(words) == 2
        and plain
        and words[0].casefold() != "the"
        and best_type(candidate) in (*_PEOPLE, "Other")
    )


def merge_whole_first_names(kept: dict[str, Candidate]) -> None:
    """Fold a lone first name ("Wes") into the one two-word person's name that opens with it
    ("Wes Dunbar"), a character's heading included (``merge_first_names`` takes only names
    the prose types or writes as a person's, never a heading's): not when another name of two
    words or more opens or ends with that word ("Wes Dunbar" and "Wes Carter", "Ilsa Wes"),
    when the lone name is typed as no person, nor when the prose shows a name to the party
    and the only person it could be is GM-only (a player must not learn the GM's full name
    from it)."""
    names = [display_name(c) for c in kept.values()]
    ends = name_ends(names)
    opening: dict[str, list[str]] = {}  # "wes" -> the two-word people's names it opens
    for key, candidate in kept.items():
        words = display_name(candidate).split()
        if len(words) == 2 and _person_shaped(candidate):
            opening.setdefault(words[0].casefold(), []).append(key)
    for key in sorted(kept):
        lone = kept.get(key)
        words = display_name(lone).split() if lone else []
        if lone is None or lone.heading or len(words) != 1 or len(words[0]) < 3:
            continue
        word = words[0].casefold()
        if best_type(lone) not in (*_PEOPLE, "Other") or ends.get(word, 0) != 1:
            continue
        owners = [k for k in opening.get(word, []) if k != key and k in kept]
        if len(owners) != 1 or _reveals(lone, kept[owners[0]]):
            continue
        absorb(kept[owners[0]], kept.pop(key))


def merge_offices_after(kept: dict[str, Candidate]) -> None:
    """Fold a person's name with an office word after it ("Hannah Rooke Quartermaster" of
    "… chose Hannah Rooke Quartermaster") into the one kept person of that name ("Hannah
    Rooke"), the office becoming an alias: not a name written with a title before it, a
    heading, a name typed as no person, nor a party name into a GM-only person."""
    for key in sorted(kept):
        long = kept.get(key)
        words = display_name(long).split() if long else []
        if long is None or long.heading or long.titles or len(words) < 3:
            continue
        if words[-1].casefold() not in OFFICE_TITLES or best_type(long) not in (*_PEOPLE, "Other"):
            continue
        person = kept.get(normalise_name(" ".join(words[:-1])))
        if person is None or person is long or not person_like(person) or _reveals(long, person):
            continue
        absorb(person, kept.pop(key))
        person.aliases.setdefault(words[-1], long.party)


def merge_titled_first_words(kept: dict[str, Candidate]) -> None:
    """Fold a lone word written with a title ("Doctor Su", "Elder Meng", "Aunt Marta") into
    the one person of two words whose first word it is ("Su Lianhua", a Chinese name written
    family name first; "Marta Hollis"), though the word is short ("Su", "Gu") or another name
    ends with it alone: not when two such people fit ("Fang Zhengyi", "Fang Butou"), when a
    name of two words or more ends with the word (a surname there), when the lone word is
    typed as no person, nor over a heading or a party name into a GM-only person."""
    opening: dict[str, list[str]] = {}  # "su" -> the two-word people's names it opens
    ending: set[str] = set()  # the last words of names of two words or more
    for key, candidate in kept.items():
        words = display_name(candidate).split()
        if len(words) > 1:
            ending.add(words[-1].casefold())
        if len(words) == 2 and _person_shaped(candidate):
            opening.setdefault(words[0].casefold(), []).append(key)
    for key in sorted(kept):
        lone = kept.get(key)
        words = display_name(lone).split() if lone else []
        if lone is None or lone.heading or len(words) != 1 or not lone.titles:
            continue
        word = words[0].casefold()
        if len(word) < 2 or word in ending or best_type(lone) not in (*_PEOPLE, "Other"):
            continue
        owners = [k for k in opening.get(word, []) if k != key and k in kept]
        if len(owners) == 1 and not _reveals(lone, kept[owners[0]]):
            absorb(kept[owners[0]], kept.pop(key))


def _plain_person(candidate: Candidate, words: list[str]) -> bool:
    """Typed a person or not at all, every word capitalised and no cue noun ("Tomás Ferreira
    Lobo"; not "The Pale Horse", "Sai Wan Container Terminal")."""
    plain = all(w[:1].isupper() and noun_type(w) is None for w in words)
    return plain and words[0].casefold() != "the" and best_type(candidate) in (*_PEOPLE, "Other")


def merge_leading_names(kept: dict[str, Candidate]) -> None:
    """Fold a two-word person's name into the one three-word person's name it opens:
    "Tomás Ferreira" of "Tomás Ferreira Lobo" (a Portuguese given name and first surname),
    "Vivian Tsang" of "Vivian Tsang Mei-ling" (an English given name and the surname before a
    Chinese given name). One of the two must be typed a person ("Sai Wan" of "Sai Wan Boxyard"
    is a district beside a yard); not when two longer names open so, nor a heading, a name
    typed as no person, or a party name into a GM-only person."""
    opening: dict[tuple[str, str], list[str]] = {}  # ("tomás", "ferreira") -> longer names
    for key, candidate in kept.items():
        words = display_name(candidate).split()
        if len(words) == 3 and _plain_person(candidate, words):
            opening.setdefault((words[0].casefold(), words[1].casefold()), []).append(key)
    for key in sorted(kept):
        short = kept.get(key)
        words = display_name(short).split() if short else []
        if short is None or short.heading or len(words) != 2 or not person_like(short):
            continue
        owners = [k for k in opening.get((words[0].casefold(), words[1].casefold()), [])]
        if len(owners) != 1 or owners[0] not in kept or _reveals(short, kept[owners[0]]):
            continue
        if _PEOPLE_TYPES.isdisjoint((best_type(short), best_type(kept[owners[0]]))):
            continue  # "Sai Wan" of "Sai Wan Boxyard": no one says either is a person
        absorb(kept[owners[0]], kept.pop(key))


_NASAB = frozenset(("ibn", "bin", "bint"))


def _arabic_words(name: str) -> list[str] | None:
    """The words of an Arabic name of two words or more, in lower case, opening with its
    given name: "Yazid ibn Hatim al-Muhallabi", "Ubayd al-Nabati"; ``None`` for another name
    or one headed otherwise ("Dar Ibn Natan", "Abu l-Hasan", "the Round City of al-Mansur")."""
    words = name.split()
    if len(words) < 2 or not all(w[:1].isupper() or _particle(w) for w in words):
        return None
    if not any(_particle(w) for w in words[1:]) or words[0].casefold() in ARABIC_HEADS:
        return None
    return [w.casefold() for w in words]


def _particle(word: str) -> bool:
    return word in _NASAB or word.startswith(("al-", "l-"))


def merge_arabic_names(kept: dict[str, Candidate]) -> None:
    """Fold the shorter forms of an Arabic name into the one longest that holds all their
    words: the given name alone or with a nasab or nisba ("Yazid", "Yazid al-Muhallabi" of
    Yazid ibn Hatim al-Muhallabi; "Maryam" of Maryam bint Wahb), and the nasab alone as the
    son is called ("Ibn Farrukh" of Mihran ibn Farrukh). Never a father's name ("Wahb" of
    Maryam bint Wahb is another man), not where two longest names fit ("Yazid ibn Hatim" and
    "Yazid ibn Khalid"), nor a name typed as no person, nor a party name into a GM-only
    person."""
    full: dict[str, list[str]] = {}
    for key, candidate in kept.items():
        words = _arabic_words(display_name(candidate))
        if words and best_type(candidate) in (*_PEOPLE, "Other") and not candidate.heading:
            full[key] = words
    longest = {
        key: words
        for key, words in full.items()
        if not any(set(words) < set(other) and other[0] == words[0] for other in full.values())
    }
    for key in sorted(kept):
        short = kept.get(key)
        if short is None or key in longest or short.heading:
            continue
        words = [w.casefold() for w in display_name(short).split()]
        if not words or best_type(short) not in (*_PEOPLE, "Other"):
            continue
        son = len(words) == 2 and words[0] == "ibn"
        owners = [
            k
            for k, name in longest.items()
            if k in kept
            and set(words) < set(name)
            and (words[0] == name[0] if not son else f"ibn {words[1]}" in " ".join(name))
        ]
        if len(owners) != 1 or _reveals(short, kept[owners[0]]):
            continue
        _fold(kept[owners[0]], kept.pop(key))  # "Maryam, a papermaker's daughter" types her


def merge_given_names(kept: dict[str, Candidate]) -> None:
    """Fold a lone short given name ("Toby", "Bill", "Kate", "Seun") into the one person whose
    first name it shortens ("Tobias Gossage", "William Hale", "Katherine Moss", "Oluwaseun
    Bamidele"; :func:`~extraction.nicknames.shortens`): not when two people
    fit, when the short name is also a word of another name, or when it is typed as no
    person, nor one the prose writes with the prefix "O-" (a whole given name:
    :func:`~extraction.prose_honorifics.o_prefixed`). A first name written whole ("Wes" of
    Wes Dunbar) folds before it
    (:func:`merge_whole_first_names`)."""
    by_first: dict[str, list[tuple[str, str]]] = {}  # "tob" / "tobias" -> (key, "Tobias")
    in_names: set[str] = set()  # the words of every name of two words or more
    for key, candidate in kept.items():
        words = display_name(candidate).split()
        in_names.update(w.casefold() for w in words if len(words) > 1)
        if len(words) > 1 and person_like(candidate) and not is_possessive(words[0]):
            indexes = {words[0][:3].casefold(), words[0].casefold(), unaccented(words[0])}
            for index in indexes | clipped_forms(words[0]):
                by_first.setdefault(index, []).append((key, words[0]))
    for key in sorted(kept):
        short = kept.get(key)
        words = display_name(short).split() if short else []
        if short is None or short.heading or len(words) != 1:
            continue
        lone = words[0].casefold()
        if best_type(short) not in (*_PEOPLE, "Other") or lone in in_names:
            continue
        if o_prefixed(short, words[0]):
            continue  # "O-Kin": a whole given name, not a short "Kingfisher"
        fitting = [
            *by_first.get(lone[:3], []),
            *by_first.get(unaccented(lone), []),
            *(p for f in HYPOCORISMS.get(lone, ()) for p in by_first.get(f, [])),
            *(p for f in foreign_fulls(lone) for p in by_first.get(f, [])),
        ]
        owners = {k for k, first in fitting if shortens(words[0], first)}
        if len(owners) == 1 and (owner := owners.pop()) in kept:
            absorb(kept[owner], kept.pop(key))


def merge_pet_names(kept: dict[str, Candidate]) -> None:
    """Fold a two-word person's name whose given name is a pet or short form ("Frankie
    Moretti", "Danny Doyle") into the one other person with that surname whose given name it
    stands for ("Frank Moretti", "Daniel Doyle"; "Frank" may clip "Frankie" too, so the
    longer given name is the pet form): not when two fit, nor over a heading."""
    by_surname: dict[str, list[tuple[str, str]]] = {}  # "moretti" -> [(key, "Frank")]
    for key, candidate in kept.items():
        words = display_name(candidate).split()
        if len(words) == 2 and person_like(candidate):
            by_surname.setdefault(words[1].casefold(), []).append((key, words[0]))
    for key in sorted(kept):
        short = kept.get(key)
        words = display_name(short).split() if short else []
        if short is None or short.heading or len(words) != 2 or not person_like(short):
            continue
        fits = {
            other
            for other, given in by_surname.get(words[1].casefold(), [])
            if other != key and other in kept and pet_form(words[0], given)
            and (len(words[0]) > len(given) or not pet_form(given, words[0]))
        }  # fmt: skip
        if len(fits) == 1:
            (owner,) = fits
            pet = kept.pop(key)
            absorb(kept[owner], pet)
            for alias, party in pet.aliases.items():  # "Teddy" of "Teddy Brandt"
                kept[owner].aliases[alias] = kept[owner].aliases.get(alias, False) or party


def _addressed(candidate: Candidate) -> set[str]:
    return {ADDRESS_SEXES.get(t.casefold().rstrip("."), "") for t in candidate.titles}


def merge_people_surnames(kept: dict[str, Candidate]) -> None:
    """Fold a lone surname written with a title of address ("Mrs Vance", "Miss Pruitt") into
    the one person whose name ends with it, though a place or thing is named after the family
    too ("Vance House"; ``merge_surnames`` keeps a surname any other name holds apart): not
    when another person's name holds that word ("Augustus Pell", "Evie Pell"), when it bears
    an office too ("Captain Tarrant" may be the late husband of the Tarrant Line's widow),
    when the person is addressed as of the other sex ("Mr Vance" of "Mrs Cordelia Vance"),
    nor a party surname into a GM-only person. Runs after the pet forms fold ("Aggie Pruitt"
    is Agatha Pruitt, one person)."""
    people: dict[str, list[str]] = {}  # "vance" -> the people's names holding the word
    for key, candidate in kept.items():
        words = [w.casefold() for w in display_name(candidate).split()]
        if len(words) > 1 and _person_shaped(candidate):
            for word in set(words):
                people.setdefault(word, []).append(key)
    for key in sorted(kept):
        lone = kept.get(key)
        words = display_name(lone).split() if lone else []
        if lone is None or lone.heading or len(words) != 1 or len(words[0]) < 3:
            continue
        address = _addressed(lone)
        if best_type(lone) not in _PEOPLE or not address or "" in address or len(address) > 1:
            continue
        owners = [k for k in people.get(words[0].casefold(), []) if k != key and k in kept]
        if len(owners) != 1 or _reveals(lone, kept[owners[0]]):
            continue
        person = kept[owners[0]]
        same = display_name(person).split()[-1].casefold() == words[0].casefold()
        if same and _addressed(person) - {""} <= address:
            absorb(person, kept.pop(key))


def _office_titles(candidate: Candidate) -> list[str]:
    """The titles a candidate is written with, its own and its aliases' ("Marshal Crane")."""
    return [*candidate.titles, *(t for alias in candidate.aliases for t in leading_titles(alias))]


def merge_sound_alikes(kept: dict[str, Candidate]) -> None:
    """Fold a person's name whose surname is a misheard spelling ("Teeg", "Marshal Crain",
    "Tomás Villanova"; :mod:`extraction.sound_alike`) into the one better-attested person
    (more mentions) whose surname it sounds like ("Absalom Teague", "Elias Crane", "Tomás
    Villanueva"). The rest must agree: a given name written is that person's (whole or as a
    pet form), the titles can be theirs. Not when the misheard word is a word of any other
    name (a real name: "Ned Hall" beside "Tom Hale" stays two people), when the two are as
    well attested (no telling which spelling is right), when two people fit, when either is
    typed as no person, nor a party name into a GM-only person."""
    words_in: dict[str, int] = {}  # word -> how many kept names hold it
    for candidate in kept.values():
        for word in {normalise_name(w) for w in display_name(candidate).split()}:
            words_in[word] = words_in.get(word, 0) + 1
    people = [key for key, c in kept.items() if _person_shaped(c)]
    for key in sorted(kept):
        heard = kept.get(key)
        words = display_name(heard).split() if heard else []
        if heard is None or heard.heading or not 1 <= len(words) <= 2:
            continue
        if best_type(heard) not in _PEOPLE or words_in.get(normalise_name(words[-1]), 0) > 1:
            continue
        owners = [
            other
            for other in people
            if other != key and other in kept and _sounds_like(words, heard, kept[other])
        ]
        if len(owners) != 1 or _reveals(heard, kept[owners[0]]):
            continue
        person = kept[owners[0]]
        if person.mentions > heard.mentions:
            absorb(person, kept.pop(key))
            for alias, party in heard.aliases.items():  # "Deputy Villanova", not strays
                if normalise_name(alias).split()[-1:] == [normalise_name(words[-1])]:
                    person.aliases[alias] = person.aliases.get(alias, False) or party


def _sounds_like(words: list[str], heard: Candidate, person: Candidate) -> bool:
    """Whether the name ``words`` of ``heard`` is ``person``'s surname misheard, the given
    name (when written) and the titles agreeing."""
    theirs = display_name(person).split()
    if not sounds_alike(words[-1], theirs[-1]) or len(theirs) < len(words):
        return False
    if len(words) == 2 and not (
        normalise_name(words[0]) == normalise_name(theirs[0]) or pet_form(words[0], theirs[0])
    ):
        return False
    return titles_agree(_office_titles(heard), _office_titles(person))


def _named_owner(kept: dict[str, Candidate], owner: str) -> str | None:
    """The one kept entity a name an alias was given to now stands for: itself, the one entity
    holding it as an alias (a surname or first name folded in), or the one person's name
    ending with it ("Ashcombe" of Miles Ashcombe)."""
    if owner in kept:
        return owner
    holding = {
        key
        for key, candidate in kept.items()
        if any(normalise_name(alias) == owner for alias in candidate.aliases)
    }
    if len(holding) == 1:
        return holding.pop()
    if holding or " " in owner:
        return None
    ending = {
        key
        for key, candidate in kept.items()
        if _person_shaped(candidate) and _words(display_name(candidate))[-1:] == [owner]
    }
    return ending.pop() if len(ending) == 1 else None


def _handle_fits(kept: dict[str, Candidate], key: str, target: str, beside: bool) -> bool:
    """Whether a handle a bracket gives a full name ("Zed (ZeroSum, Emeka Nwosu)") may join
    it: the full name is a person's, and the handle no other entity's alias. A handle among
    the bracket's items (``beside``) that the prose names on its own must be typed a person
    or written as a handle ("ZeroSum", "WIDOW-3"): "The Widow (Ilse Varga, Nightglass)" names
    the outfit she commands."""
    if not person_like(kept[target]):
        return False
    holding = {
        k
        for k, candidate in kept.items()
        if k != target and any(normalise_name(alias) == key for alias in candidate.aliases)
    }
    if holding:
        return False
    kind = best_type(kept[key]) if key in kept else "Other"
    if beside and key in kept and kind not in _PEOPLE:
        return handle_shaped(display_name(kept[key]))
    return kind in (*_PEOPLE, "Other")


def _titled_key(kept: dict[str, Candidate], key: str) -> str:
    """The kept candidate an alias written with "the" or a title of address names ("the Suit"
    is the candidate "Suit"; "Ms. Gray" the candidate "Gray" written "Ms Gray"); else
    ``key`` itself."""
    if key in kept or " " not in key:
        return key
    title, _, rest = key.partition(" ")
    candidate = kept.get(rest)
    if candidate is None:
        return key
    if title == "the":
        return rest
    written = {t.casefold().rstrip(".") for t in candidate.titles}
    return rest if title.rstrip(".") in written and title.rstrip(".") in ADDRESS_SEXES else key


def merge_named_aliases(
    kept: dict[str, Candidate], named: NamedAliases, *, into_lone: bool = True
) -> None:
    """Fold the aliases a file card or a bracket gives a name ("VORONIN, Arkady Semyonovich —
    crypt. CARDINAL", "Vera Pavlovna" of "VORONINA, Vera Pavlovna", "Miles Ashcombe (HERON)",
    "HERON (Ashcombe)", "Otto Kranz (Herr Ober)") into the one entity that name is now: the
    alias joins its names and the entity the prose made of the alias folds in. Not when the
    alias is given to two entities, when the entity made of it is a heading, a place, a group
    or a thing, when a codename in capitals is also written in lower case (a word, not a
    codename), nor a name the party reads into a GM-only entity. Without ``into_lone``
    nothing folds into a one-word name yet: a lone surname ("Brandt" of "MAGPIE (Brandt)")
    may itself fold into its person later, and its aliases would not go with it."""
    for key in sorted(named.owners):
        owners = named.owners[key]
        targets = {found for owner in owners if (found := _named_owner(kept, owner)) is not None}
        if len(targets) != 1 or len({_named_owner(kept, o) for o in owners}) != 1:
            continue
        (target,) = targets
        if target == key or (not into_lone and " " not in target):
            continue
        holder = kept[target]
        party = any(owners.values())
        if party and not holder.party:
            continue
        if key in named.handles and not _handle_fits(kept, key, target, key in named.besides):
            continue
        found = _titled_key(kept, key)  # "Ms. Gray" is the candidate "Gray" titled "Ms"
        short = kept.get(found)
        if short is not None:
            lower = key in named.codenames and any(not s.isupper() for s in short.surfaces)
            kind = best_type(short)
            if short.heading or lower or kind in ("Location", "Faction", "Item", "Deity"):
                continue
            if _reveals(short, holder):
                continue
            absorb(holder, kept.pop(found))
        alias = named.written[key]
        holder.aliases[alias] = holder.aliases.get(alias, False) or party


def keep_full_names(found: dict[str, Candidate], kept: dict[str, Candidate]) -> None:
    """Keep the full name of a person the prose mostly calls by a given name and a surname
    apart ("Teddy", 28 times; "Brandt", 7) but writes in full only once or twice ("Teddy
    Brandt", "Theodor Brandt"): a two-word person's name, not kept, whose first word is a kept
    lone name (or a full form of it, the lone name a pet form) and whose last word is a kept
    lone name too, when every such name has that surname, no kept name of two words or more
    opens with the given name nor ends with the surname (Thorne is Julian Thorne's), and
    neither lone name is typed as no person. The lone names then fold into it
    (:func:`merge_first_names`, :func:`merge_surnames`), and a pet form into the full given
    name (:func:`merge_pet_names`). Never a GM-only full name for a name the party reads."""
    opening, ending = set(), set()
    for candidate in kept.values():
        words = display_name(candidate).casefold().split()
        if len(words) > 1:
            opening.add(words[0])
            ending.add(words[-1])
    pairs = [
        (key, words)
        for key, c in found.items()
        if key not in kept
        and len(words := display_name(c).split()) == 2
        and person_like(c)
        and not _with_the(c)  # "the Mesa Cut" is a place
        and not re.search(r"['’]", words[0])  # "Teddy's Walther" is Teddy's gun
    ]
    for lone_key in sorted(kept):
        words = display_name(kept[lone_key]).split()
        if not _lone_person(kept[lone_key]) or len(words[0]) < 3 or words[0].isupper():
            continue
        word = words[0]
        if word.casefold() in opening:
            continue
        full = [
            key
            for key, (first, _last) in pairs
            if first.casefold() == word.casefold() or pet_form(word, first)
        ]
        surnames = {display_name(found[key]).split()[1].casefold() for key in full}
        if len(surnames) != 1 or any(_reveals(kept[lone_key], found[k]) for k in full):
            continue
        (surname,) = surnames
        last = kept.get(normalise_name(surname))
        if surname in ending or last is None or not _lone_person(last):
            continue
        for key in full:
            kept[key] = found[key]


def _lone_person(candidate: Candidate) -> bool:
    """A one-word name, no heading, typed a person or not at all."""
    words = display_name(candidate).split()
    return not candidate.heading and len(words) == 1 and best_type(candidate) in (*_PEOPLE, "Other")
