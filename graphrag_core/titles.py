"""Titles the table uses alone for the one person who bears them: "the Colonel", "the Padre",
"the Don".

A name list gives "Colonel Mawle" and "Padre Cormac" as aliases, and the prose and the table
then say "the Colonel" and "the Padre" far more often than either. :func:`borne_titles` reads,
from every entity's name and aliases, the title words of :data:`OFFICE_TITLES` written before
a name ("Colonel Mawle" bears ``colonel``), and keeps a title borne by exactly one entity:
"Captain Tench" and "Captain Mott" make "the Captain" nobody's. A title that is itself an
entity's whole name or alias ("the Reeve", listed so) is that entity's already and is not
read. Extraction finds "the Colonel" in prose as a mention of its bearer
(:mod:`extraction.gazetteer`), and the ranker finds it in a question (:mod:`ranking.names`).

Words of address that say nothing of an office ("Mr", "Miss", "Sir", "Old") and kinship
words ("Father", "Mother", "Sister": "the Father" is a god as often as a priest) are not
titles here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

OFFICE_TITLES = frozenset(
    ("captain", "colonel", "commodore", "admiral", "general", "major", "lieutenant",
     "sergeant", "corporal", "commander", "marshal", "sheriff", "mayor", "magistrate", "judge",
     "inspector", "detective", "constable", "governor", "reeve", "chancellor", "ambassador",
     "senator", "bishop", "abbot", "abbess", "prior", "prioress", "reverend", "vicar",
     "parson", "pastor", "padre", "rabbi", "doctor", "professor", "baron", "baroness", "duke",
     "duchess", "count", "countess", "earl", "margrave", "king", "queen", "prince",
     "princess", "emperor", "empress", "regent", "harbourmaster", "bosun", "boatswain",
     "gunner", "quartermaster", "skipper", "widow", "don", "doña", "dona", "capitán",
     "capitan", "teniente", "comandante", "alcalde", "mijnheer", "juffrouw", "qadi",
     "vizier", "wazir", "shaykh", "sheikh", "amir", "emir", "ustadh", "sahib", "muhtasib",
     "khalifa", "caliph")
)  # fmt: skip
"""Words that, before a name, give the office or standing its bearer is called by alone."""

SAME_OFFICE = (
    ("bosun", "boatswain"),
    ("capitán", "capitan"),
    ("doña", "dona"),
    ("vizier", "wazir"),
    ("shaykh", "sheikh"),
    ("amir", "emir"),
    ("khalifa", "caliph"),
)
"""Words of one office ("Bosun Billy" is "the Boatswain" of the ship's articles) or one word
spelt two ways ("Capitán", "Capitan", "Shaykh", "Sheikh", "Vizier", "Wazir"): bearing one,
an entity bears them all."""
_OFFICES = {word: group for group in SAME_OFFICE for word in group}
_WORD = re.compile(r"[^\W_]+")
_ARTICLES = frozenset(("the", "a", "an"))


def _words(name: str) -> list[str]:
    words = _WORD.findall(name.casefold())
    while words and words[0] in _ARTICLES:
        words = words[1:]
    return words


def _same_office(title: str) -> tuple[str, ...]:
    """``title`` and the words of the same office (:data:`SAME_OFFICE`)."""
    return _OFFICES.get(title, (title,))


def _read(forms: Iterable[str]) -> tuple[set[str], set[str]]:
    """``(titles, whole)`` of one entity's names: the titles written before a name in them
    (with every word of the same office), and the words that are a whole name of theirs."""
    titles: set[str] = set()
    whole: set[str] = set()
    for form in forms:
        words = _words(form)
        if len(words) == 1:
            whole.update(_same_office(words[0]))
        elif len(words) > 1 and words[0] in OFFICE_TITLES and words[1] != "s":
            titles.update(_same_office(words[0]))
    return titles, whole


def title_bearers(names: Iterable[tuple[str, Iterable[str]]]) -> dict[str, set[str]]:
    """Title word → the ids of every entity bearing it, from ``(id, names)`` pairs (an
    entity's name and aliases), with every word of the same office (:data:`SAME_OFFICE`:
    "Bosun Billy" bears "bosun" and "boatswain"); not a title that is a whole name of the same
    entity's. A title in the possessive bears nothing: "the Governor's house" is the
    Governor's, not a governor."""
    bearers: dict[str, set[str]] = {}
    for entity_id, forms in names:
        titles, whole = _read(forms)
        for title in titles - whole:
            bearers.setdefault(title, set()).add(entity_id)
    return bearers


def borne_titles(names: Iterable[tuple[str, Iterable[str]]]) -> dict[str, str]:
    """Title word → the id of the one entity bearing it (:func:`title_bearers`); a title two
    entities bear, or that is some entity's whole name, is left out."""
    listed = [(entity_id, tuple(forms)) for entity_id, forms in names]
    whole = set().union(*(_read(forms)[1] for _, forms in listed))
    return {
        title: next(iter(ids))
        for title, ids in title_bearers(listed).items()
        if len(ids) == 1 and title not in whole
    }
