"""Entities named in a question, found by exact (case-insensitive) name or alias.

A question that names an entity is *about* it: "Is Torven alive?" must rank Torven first and
say he is dead, not demote him. The index maps each name's word sequence to entity ids; a
question is matched greedily, longest name first, left to right. Built once per view, so a
player view (which has no secret aliases) can never match a secret alias.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from graphrag_core.articles import without_article
from graphrag_core.models import CampaignView, Entity, Relation
from graphrag_core.titles import borne_titles
from ranking.cues import KIN_MODIFIERS, KIN_WORDS

_WORD = re.compile(r"[^\W_]+")
_LEADING = frozenset({"the", "a", "an"})
MAX_NAME_WORDS = 8


ADDRESS_WORDS = frozenset(
    ("herr", "frau", "fraulein", "fräulein", "mr", "mrs", "ms", "miss", "mister", "senor",
     "señor", "senora", "señora", "senorita", "señorita", "monsieur", "madame", "mademoiselle",
     "signor", "signora", "don", "dona", "doña")
)  # fmt: skip
"""Forms of address: an alias "Herr Ober" names its holder as "the Ober" too, when no other
name is that word."""
_CALENDAR = frozenset(
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
     "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december")
)  # fmt: skip


HONORIFICS = ADDRESS_WORDS | frozenset(
    ("doc", "dr", "doctor", "mama", "papa", "auntie", "aunt", "uncle", "granny", "gran",
     "sister", "brother", "father", "mother", "lady", "lord", "sir", "dame", "madam")
)  # fmt: skip
"""Words before a name that the table shortens the name after to its initial: "Mama N" for
"Mama Ngozi", "Dr. B" for "Dr. Bamidele"."""


def _initialled(phrases: dict[tuple[str, ...], set[str]]) -> dict[tuple[str, ...], set[str]]:
    """An honorific and an initial ("mama", "n") for each two-word name that is an honorific
    and a name of three letters or more, when exactly one entity's names shorten so."""
    found: dict[tuple[str, ...], set[str]] = {}
    for words, ids in phrases.items():
        if len(words) == 2 and words[0] in HONORIFICS and len(words[1]) >= 3:
            found.setdefault((words[0], words[1][0]), set()).update(ids)
    return {words: ids for words, ids in found.items() if len(ids) == 1}


def _owned_forms(entities: Iterable[Entity]) -> dict[tuple[str, ...], set[str]]:
    """ "the Sabian's book" for the one entity called "the Sabian book": an alias of "the", a
    capitalised word and a lower-case noun names its holder's thing, and the table says so
    in the possessive (written without the apostrophe, as questions are matched)."""
    found: dict[tuple[str, ...], set[str]] = {}
    for entity in entities:
        for name in _names(entity):
            parts = name.split()
            if (
                len(parts) == 3
                and parts[0].casefold() == "the"
                and parts[1][:1].isupper()
                and parts[2].isalpha()
                and parts[2].islower()
                and not parts[1].endswith(("'s", "’s", "'", "’"))
            ) and len(words := name_words(" ".join(parts[1:]))) == 2:
                found.setdefault((words[0] + "s", words[1]), set()).add(entity.id)
    return {words: ids for words, ids in found.items() if len(ids) == 1}


def _called_by_title(
    entities: Iterable[Entity], phrases: dict[tuple[str, ...], set[str]]
) -> dict[tuple[str, ...], set[str]]:
    """ "the Colonel" for the one entity called "Colonel Mawle" (:func:`graphrag_core.titles.
    borne_titles`) when nothing is called "Colonel" itself. Found only as a name is written,
    after "the" and capitalised, and not before "of" (:meth:`NameIndex.spans`): "Who's
    Governor now?", "the captain of the Blackwake" and "the widow's house" ask about an office
    or a person so described, not about the one the name list calls by the title."""
    listed = [(entity.id, _names(entity)) for entity in entities]
    return {
        ("the", title): {entity_id}
        for title, entity_id in borne_titles(listed).items()
        if (title,) not in phrases
    }


def _bare_name(word: str, skip: frozenset[str]) -> bool:
    """A word an alias of address may be shortened to: not a weekday or month ("Mr
    Thursday" is never "Thursday"), not a word the index ignores, four letters or more."""
    return len(word) >= 4 and word not in _CALENDAR and word not in skip


def name_words(text: str) -> tuple[str, ...]:
    """Lowercase words without apostrophes; a leading article is dropped."""
    words = _WORD.findall(text.lower().replace("'", "").replace("’", ""))
    while words and words[0] in _LEADING:
        words = words[1:]
    return tuple(words)


def question_words(question: str) -> list[str]:
    """The question's lowercase words without apostrophes, as names are matched in them."""
    return _WORD.findall(question.lower().replace("'", "").replace("’", ""))


_POSSESSIVE = re.compile(r"['’]s\b", re.IGNORECASE)

NOT_OWNED = frozenset(
    ("gone", "been", "got", "dead", "alive", "not", "still", "here", "there", "back", "away",
     "out", "in", "on", "at", "a", "an", "the", "now", "missing", "left", "done", "going",
     "coming", "run", "fled", "taken", "just", "no", "never", "always", "off", "up", "down")
)  # fmt: skip
"""Words after "'s" that make it "is" or "has", not a possessive ("now old Fenner*'s gone*")."""


def possessives(question: str) -> list[str | None]:
    """Per word of ``question_words``, the word without its possessive "'s" when it had one
    ("Bryony's mum" → "bryony"), else None; "'s" before :data:`NOT_OWNED` is "is" or "has"."""
    words = question_words(question)
    plain = question_words(_POSSESSIVE.sub("", question))
    if len(plain) != len(words):
        return [None] * len(words)
    found: list[str | None] = []
    for i, (word, bare) in enumerate(zip(words, plain, strict=True)):
        after = words[i + 1] if i + 1 < len(words) else ""
        found.append(bare if bare != word and after not in NOT_OWNED else None)
    return found


class NameSpan(NamedTuple):
    """One name found in a question: its first and past-last word (in ``question_words``)
    and the ids it names."""

    start: int
    end: int
    ids: frozenset[str]


class NameIndex:
    """Word sequences of entity names and aliases → entity ids."""

    def __init__(
        self,
        phrases: dict[tuple[str, ...], frozenset[str]],
        titles: frozenset[tuple[str, ...]] = frozenset(),
    ) -> None:
        self._phrases = phrases
        self._titles = titles
        """Phrases found only as a title is written (:func:`_called_by_title`)."""
        self._longest = max((len(p) for p in phrases), default=0)

    @classmethod
    def build(cls, view: CampaignView, ignore: Iterable[str] = ()) -> NameIndex:
        skip = frozenset(ignore)
        phrases: dict[tuple[str, ...], set[str]] = {}
        for entity in view.entities.values():
            for name in _names(entity):
                words = name_words(name)
                if (
                    words
                    and len(words) <= MAX_NAME_WORDS
                    and not (len(words) == 1 and words[0] in skip)
                ):
                    phrases.setdefault(words, set()).add(entity.id)
        unarticled: dict[tuple[str, ...], set[str]] = {}  # "the Magnifico" of "il Magnifico"
        for entity in view.entities.values():
            for name in _names(entity):
                if (plain := without_article(name)) is not None and (words := name_words(plain)):
                    unarticled.setdefault(words, set()).add(entity.id)
        for words, ids in unarticled.items():
            if words not in phrases and len(ids) == 1:
                phrases[words] = ids
        for words, ids in _owned_forms(view.entities.values()).items():
            phrases.setdefault(words, ids)  # "the Sabian's book" of "the Sabian book"
        bare: dict[tuple[str, ...], set[str]] = {}
        for words, ids in phrases.items():
            if len(words) == 2 and words[0] in ADDRESS_WORDS and _bare_name(words[1], skip):
                bare.setdefault(words[1:], set()).update(ids)
        for words, ids in bare.items():
            if words not in phrases and len(ids) == 1:  # "the Ober" of "Herr Ober" alone
                phrases[words] = ids
        for words, ids in _initialled(phrases).items():
            phrases.setdefault(words, ids)  # "Mama N" of "Mama Ngozi"
        titles = _called_by_title(view.entities.values(), phrases)  # "the Colonel"
        for words, ids in titles.items():
            phrases.setdefault(words, ids)
        return cls({words: frozenset(ids) for words, ids in phrases.items()}, frozenset(titles))

    def find(self, question: str) -> set[str]:
        """Ids of the entities the question names."""
        return {entity_id for span in self.spans(question) for entity_id in span.ids}

    def find_owners(self, text: str) -> set[str]:
        """Ids of the entities the text names, in the possessive too ("found in *Nepos's*
        cellar")."""
        return {entity_id for span in self.spans(text, possessive=True) for entity_id in span.ids}

    def spans(self, question: str, *, possessive: bool = False) -> list[NameSpan]:
        """Where the question names entities, left to right. ``possessive``: a name in the
        possessive is found too ("Who is *Bryony's* mother?") where no name as written is
        ("*Gossage's*", the inn so called, stays the inn)."""
        words = question_words(question)
        cased = _WORD.findall(question.replace("'", "").replace("’", ""))
        found = self._spans(words, [None] * len(words), cased)
        if not possessive:
            return found
        owners = possessives(question)
        found = [span for span in found if not _kin_after_possessive(span, words, owners)]
        taken = {i for span in found for i in range(span.start, span.end)}
        owned = [owner if owner and i not in taken else None for i, owner in enumerate(owners)]
        more = [
            span
            for span in self._spans(words, owned, cased)
            if owned[span.end - 1] and taken.isdisjoint(range(span.start, span.end))
        ]
        return sorted([*found, *more])

    def _spans(
        self, words: list[str], owners: list[str | None], cased: list[str]
    ) -> list[NameSpan]:
        found: list[NameSpan] = []
        i = 0
        while i < len(words):
            step = 1
            for size in range(min(self._longest, len(words) - i), 0, -1):
                phrase = tuple(words[i : i + size])
                if phrase in self._titles and not _as_title(words, cased, i, size):
                    continue
                ids = self._phrases.get(phrase)
                owner = owners[i + size - 1]
                if owner:  # "Bryony's mum": Bryony
                    ids = self._phrases.get((*words[i : i + size - 1], owner)) or ids
                if ids:
                    found.append(NameSpan(i, i + size, ids))
                    step = size
                    break
            i += step
        return found


def _as_title(words: list[str], cased: list[str], start: int, size: int) -> bool:
    """Whether "the <title>" at ``start`` is written as a name: the title capitalised, no
    "of" after it ("the captain of the Blackwake"; "the Governor's house" is "governors" in
    ``words``, no title)."""
    end = start + size
    capital = len(cased) == len(words) and cased[end - 1][:1].isupper()
    return capital and words[end : end + 1] != ["of"]


def _kin_after_possessive(span: NameSpan, words: list[str], owners: list[str | None]) -> bool:
    """A one-word name that is a kin noun after a possessive ("Lucky's big *sister*" is no
    "Sister Perpetua", called "the Sister"): the kinship asked, not a name."""
    if span.end - span.start != 1 or words[span.start] not in KIN_WORDS:
        return False
    before = span.start - 1
    if before >= 0 and words[before] in KIN_MODIFIERS:
        before -= 1
    return before >= 0 and owners[before] is not None


def _names(entity: Entity) -> tuple[str, ...]:
    return (entity.name, *entity.aliases, *entity.gm_aliases)


def neighbours(relations: Iterable[Relation], seeds: set[str]) -> set[str]:
    """Entities one relation away from any seed (the seeds themselves excluded)."""
    found: set[str] = set()
    for rel in relations:
        if rel.source in seeds:
            found.add(rel.target)
        if rel.target in seeds:
            found.add(rel.source)
    return found - seeds


def neighbours_by(relations: Iterable[Relation], seeds: set[str], types: Iterable[str]) -> set[str]:
    """Entities one relation of one of ``types`` away from any seed (seeds excluded)."""
    wanted = frozenset(types)
    return neighbours((r for r in relations if r.type in wanted), seeds) if wanted else set()
