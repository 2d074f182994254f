"""Whom "her" or "his" stands for in prose: the person a possessive pronoun refers back to.

"Hild Varr keeps the mill. *Her* son Tam carts the flour" states that Hild is Tam's parent,
but only a reader who knows whom "her" means can say so. :class:`Antecedents` follows one
document's prose sentence by sentence and keeps the people it names (entities of a person type,
:data:`PEOPLE_TYPES`) and what the prose says of their gender:

- a gendered title before or opening the name ("*Mother* Orla", "*Sir* Edric", "Mrs Dunn");
- an apposition right after it ("Hild Varr, *a broad, loud woman*,");
- the pronouns of a sentence that opens with the name and names no other person ("Edric Lune
  sold *his* boat"), and a sentence that opens with "He"/"She" right after one that opened
  with the name and named no other person.

Evidence of both genders leaves a person's gender unknown. :meth:`Antecedents.owner` walks
back from the pronoun over at most :data:`WINDOW` sentences (the previous chunk of the same
document and visibility included, never across a heading) and takes the nearest person not
known to be of the other gender: when their gender is the pronoun's, they are the owner; when
it is unknown, only when no other such person is named in their sentence. Anything else is
ambiguous and states nothing ("related_to when unsure" is the rule; here: nothing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from extraction.gazetteer import Mention
from extraction.honorifics import O_PREFIX

Gender = Literal["f", "m"]

PEOPLE_TYPES = frozenset({"NPC", "PC", "Deity"})
"""Entity types a possessive pronoun may stand for (an untyped entity counts when the prose
gives it a gender)."""

_MAYBE_PEOPLE = PEOPLE_TYPES | {"Other"}

WINDOW = 5
"""How many sentences back a pronoun may reach for its person."""

_TITLES: dict[str, Gender] = {
    **dict.fromkeys(
        ("mother", "sister", "lady", "dame", "mrs", "miss", "ms", "madam", "madame", "queen",
         "princess", "duchess", "countess", "baroness", "abbess", "prioress", "forewoman",
         "widow", "aunt", "auntie", "granny", "goodwife", "empress", "matron", "sultana",
         "mistress", "grandmother"),
        "f",
    ),
    **dict.fromkeys(
        ("father", "brother", "lord", "sir", "mr", "king", "prince", "duke", "baron", "abbot",
         "prior", "foreman", "uncle", "sultan", "emperor", "grandfather", "earl"),
        "m",
    ),
}  # fmt: skip
"""Titles that say a person's gender ("Mother Orla", "Sir Edric")."""

_NOUNS: dict[str, Gender] = {
    **dict.fromkeys(
        ("woman", "girl", "lass", "widow", "matron", "maid", "maiden", "lady", "mother",
         "daughter", "wife", "sister", "priestess", "grandmother", "crone", "hag"),
        "f",
    ),
    **dict.fromkeys(
        ("man", "boy", "lad", "widower", "fellow", "father", "son", "husband", "brother",
         "priest", "grandfather", "gentleman"),
        "m",
    ),
}  # fmt: skip
"""Nouns of an apposition that say a person's gender ("Orm, a thin and careful man,")."""

_PRONOUNS: dict[str, Gender] = {
    **dict.fromkeys(("she", "her", "hers", "herself"), "f"),
    **dict.fromkeys(("he", "him", "his", "himself"), "m"),
}
_APPOSITION = re.compile(r",\s+(?:a|an)\s+((?:[\w-]+,?\s+){0,5}[\w-]+)")
_APPOSITION_ENDS = frozenset({"of", "who", "whom", "whose", "which", "that", "with", "from", "for"})
_WORDS = re.compile(r"[^\W\d_]+")
_OPENING = re.compile(r"^(?:[A-Z][\w'’-]*\s+){0,2}$")
"""What may stand before a sentence's opening name: a title or "The", nothing lower-case."""
_STARTS_PRONOUN = re.compile(r"^(He|She|His|Her)\b")


def pronoun_gender(word: str) -> Gender | None:
    """The gender of a possessive or personal pronoun ("her" → ``f``), else None."""
    return _PRONOUNS.get(word.casefold())


@dataclass
class _Named:
    entity_id: str
    sentence: int


@dataclass
class Antecedents:
    """The people one document's prose has named so far, and their genders (see the module).
    Fed sentence by sentence, in order, by :func:`extraction.prose_relations.sentence_relations`.
    """

    kinds: Mapping[str, str]
    """Entity id → type, for telling people from places and things."""
    named: list[_Named] = field(default_factory=list)
    genders: dict[str, set[Gender]] = field(default_factory=dict)
    sentence: int = 0
    visibility: str | None = None
    _opener: str | None = None  # the person the previous sentence opened with, alone
    through: dict[str, str] = field(default_factory=dict)
    """Person → the owner of the pronoun that brought them in ("*His* deputy Sōhachi": Gonzō,
    whose "his" it was): a later pronoun of that gender is the same owner's ("*His*
    daughter Mitsu" is Gonzō's daughter too, not Sōhachi's)."""

    def start_chunk(self, visibility: str) -> None:
        """A chunk of ``visibility`` begins: people named in a chunk of another visibility
        are forgotten (a GM section's people are never a party sentence's antecedent)."""
        if visibility != self.visibility:
            self.named.clear()
            self.genders.clear()
            self.through.clear()
            self._opener = None
            self.visibility = visibility

    def owner(
        self, gender: Gender, inside: Sequence[Mention], before: int, exclude: str
    ) -> str | None:
        """The person a pronoun of ``gender`` stands for: from the mentions of the current
        sentence that end before offset ``before``, then the earlier sentences; None when
        ambiguous (see the module)."""
        here = [_Named(m.entity_id, self.sentence) for m in inside if m.end <= before]
        recent = [n for n in self.named if self.sentence - n.sentence <= WINDOW]
        people = [n for n in (*recent, *here) if self._person(n.entity_id)]  # oldest first
        people = [n for n in people if n.entity_id != exclude]
        for index in range(len(people) - 1, -1, -1):
            candidate = people[index]
            earlier = self.through.get(candidate.entity_id)
            if earlier is not None and earlier != exclude and self._may_be(earlier, gender):
                return earlier  # "His deputy Sōhachi … His daughter Mitsu": both Gonzō's
            known = self.genders.get(candidate.entity_id, set())
            if known == {_other(gender)}:
                continue
            if known == {gender}:
                return candidate.entity_id
            rivals = {
                n.entity_id
                for n in people[:index]
                if n.sentence == candidate.sentence
                and n.entity_id != candidate.entity_id
                and self.genders.get(n.entity_id, set()) != {_other(gender)}
            }
            return None if rivals else candidate.entity_id
        return None

    def heading(self) -> None:
        """A heading: what came before it is another topic."""
        self.named.clear()
        self.through.clear()
        self._opener = None
        self.sentence += 1

    def add_sentence(self, text: str, offset: int, inside: Sequence[Mention]) -> None:
        """Record the people of one sentence and what it says of their genders."""
        people = [m for m in inside if self.kinds.get(m.entity_id) in _MAYBE_PEOPLE]
        ids = {m.entity_id for m in people}
        for mention in people:
            title = self._title(text, offset, mention)
            if title:
                self._vote(mention.entity_id, title)
            noun = _apposition_noun(text, mention.end - offset)
            if noun:
                self._vote(mention.entity_id, noun)
        opener = self._opening(text, offset, people) if len(ids) == 1 else None
        starts = _STARTS_PRONOUN.match(text)
        if starts and self._opener is not None and not ids - {self._opener}:
            self._vote(self._opener, _PRONOUNS[starts.group(1).casefold()])
        if opener is not None:
            said = {
                _PRONOUNS[w.casefold()] for w in _WORDS.findall(text) if w.casefold() in _PRONOUNS
            }
            if len(said) == 1:
                self._vote(opener, said.pop())
        self._opener = opener
        recent = [n for n in self.named if self.sentence - n.sentence < WINDOW]
        self.named = recent + [_Named(m.entity_id, self.sentence) for m in people]
        self.sentence += 1

    def brought_in(self, entity_id: str, owner: str) -> None:
        """``entity_id`` was named through ``owner``'s pronoun ("his deputy Sōhachi")."""
        self.through[entity_id] = owner

    def _may_be(self, entity_id: str, gender: Gender) -> bool:
        return self.genders.get(entity_id, set()) != {_other(gender)}

    def _person(self, entity_id: str) -> bool:
        kind = self.kinds.get(entity_id)
        return kind in PEOPLE_TYPES or (kind == "Other" and bool(self.genders.get(entity_id)))

    def _vote(self, entity_id: str, gender: Gender) -> None:
        self.genders.setdefault(entity_id, set()).add(gender)

    @staticmethod
    def _title(text: str, offset: int, mention: Mention) -> Gender | None:
        at = mention.start - offset
        if O_PREFIX.match(mention.surface) or text[max(0, at - 2) : at] == "O-":
            return "f"  # "O-Tsuru", "O-Kin": the Japanese honorific of a woman's given name
        words = _WORDS.findall(mention.surface)
        if len(words) > 1 and words[0].casefold() in _TITLES:
            return _TITLES[words[0].casefold()]
        before = _WORDS.findall(text[max(0, mention.start - offset - 20) : mention.start - offset])
        if before and before[-1][:1].isupper() and before[-1].casefold() in _TITLES:
            return _TITLES[before[-1].casefold()]
        return None

    @staticmethod
    def _opening(text: str, offset: int, people: Sequence[Mention]) -> str | None:
        """The person the sentence opens with ("Sir Edric Lune sold ..."), if any."""
        first = people[0] if people else None
        if first is None or not _OPENING.match(text[: first.start - offset]):
            return None
        return first.entity_id


def _apposition_noun(text: str, at: int) -> Gender | None:
    """The gender an apposition right after a name states: the first gendered noun of ", a
    thin and careful *man*", before any "of", "who", … ("a friend of the widow" says
    nothing of the friend)."""
    found = _APPOSITION.match(text, at)
    for word in _WORDS.findall(found.group(1)) if found else ():
        if word.casefold() in _APPOSITION_ENDS:
            return None
        if word.casefold() in _NOUNS:
            return _NOUNS[word.casefold()]
    return None


def _other(gender: Gender) -> Gender:
    return "m" if gender == "f" else "f"
