"""Finding mentions of known entities in text.

The gazetteer holds every name, alias and GM alias as a tuple of word tokens, indexed by its
first token, so a scan costs one dict lookup per word of text whatever the number of names.
Matching is leftmost-longest at word boundaries and never inside a longer match:

- a form of several words matches in any case ("the red oak" finds "The Red Oak");
- a one-word form matches only as written, and only when it starts with a capital letter
  or is written in a script without case (the alias "Redoak" finds "Redoak", never "redoak";
  an alias "oak" is never looked for; "محمد" is);
- the words of a form may be separated in the text by whitespace, an apostrophe or a hyphen,
  never by other punctuation ("Merchants' Guild" finds "Merchants Guild", not "Merchants. Guild").

An alias with a Japanese honorific is also looked for without it when what is left is a word of
the entity's name ("Isobe-sama" finds "Isobe" for Isobe Gendayū).

A title one entity alone bears ("Colonel Mawle" bears "colonel": :func:`graphrag_core.titles.
borne_titles`) is looked for as "the Colonel" (or "The Colonel"), the title capitalised as a
name is: "the colonel" in lower case is anyone's, and so is "the Colonel Smith" (the title of
another name). A longer form still wins ("the Governor's house" is a house). The title is a
GM form when the bearer is GM-only or bears it only in a GM alias.

When two entities share a form, a primary name beats an alias, a party alias beats a GM alias,
an alias beats a title, then the smaller id wins.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from extraction.honorifics import bare_name
from extraction.slugs import normalise_name
from graphrag_core.models import Entity
from graphrag_core.titles import borne_titles, title_bearers

_TOKEN = re.compile(r"\w+")
_GAP = re.compile(r"[\s'’\-]{1,4}")


@dataclass(frozen=True)
class Mention:
    """One occurrence of an entity in a text: ``text[start:end] == surface``."""

    entity_id: str
    start: int
    end: int
    surface: str
    gm_alias: bool


@dataclass(frozen=True)
class _Form:
    tokens: tuple[str, ...]
    gaps: tuple[str, ...]  # the form's own text between its tokens
    exact: bool  # one-word form: compare case-sensitively
    entity_id: str
    gm_alias: bool
    rank: tuple[int, int, str]  # lower wins among forms with the same tokens
    title: bool = False  # "the Colonel": not before another capitalised word ("the Colonel Smith")


class Gazetteer:
    """The known names of a set of entities, ready to scan texts."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        every = list(entities)
        best: dict[tuple[tuple[str, ...], bool], _Form] = {}
        for form in [*itertools.chain.from_iterable(map(_forms, every)), *_title_forms(every)]:
            tokens = form.tokens if form.exact else tuple(t.casefold() for t in form.tokens)
            key = (tokens, form.exact)
            if key not in best or form.rank < best[key].rank:
                best[key] = form
        self._by_first: dict[str, list[_Form]] = {}
        for form in best.values():
            self._by_first.setdefault(form.tokens[0].casefold(), []).append(form)
        for forms in self._by_first.values():
            forms.sort(key=lambda form: (-len(form.tokens), form.rank))

    def __len__(self) -> int:
        return sum(len(forms) for forms in self._by_first.values())

    def find_mentions(self, text: str) -> list[Mention]:
        """Every mention in ``text``, in order, none overlapping another."""
        words = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
        mentions: list[Mention] = []
        index = 0
        while index < len(words):
            found = self._match_at(text, words, index)
            if found is None:
                index += 1
                continue
            form, last = found
            start, end = words[index][0], words[last][1]
            mentions.append(Mention(form.entity_id, start, end, text[start:end], form.gm_alias))
            index = last + 1
        return mentions

    def _match_at(
        self, text: str, words: list[tuple[int, int]], index: int
    ) -> tuple[_Form, int] | None:
        start, end = words[index]
        candidates = self._by_first.get(text[start:end].casefold())
        if not candidates:
            return None
        for form in candidates:
            last = index + len(form.tokens) - 1
            if last < len(words) and _matches(text, words, index, form):
                if form.title and _name_goes_on(text, words, last):
                    continue
                return form, last
        return None


def _name_goes_on(text: str, words: list[tuple[int, int]], last: int) -> bool:
    """Whether a capitalised word follows ``words[last]`` across spaces alone: the title of
    "the Colonel Smith" belongs to that name."""
    if last + 1 >= len(words):
        return False
    start, _end = words[last + 1]
    return text[words[last][1] : start].isspace() and text[start].isupper()


def _matches(text: str, words: list[tuple[int, int]], index: int, form: _Form) -> bool:
    for offset, token in enumerate(form.tokens):
        start, end = words[index + offset]
        word = text[start:end]
        if (word != token) if form.exact else (word.casefold() != token.casefold()):
            return False
        if offset and not _gap_ok(
            text[words[index + offset - 1][1] : start], form.gaps[offset - 1]
        ):
            return False
    return True


def _gap_ok(gap: str, expected: str) -> bool:
    return gap == expected or _GAP.fullmatch(gap) is not None


def _forms(entity: Entity) -> list[_Form]:
    named = [(entity.name, 0, False)]
    named += [(alias, 1, False) for alias in entity.aliases]
    named += [(alias, 2, True) for alias in entity.gm_aliases]
    forms: list[_Form] = []
    own_words = {normalise_name(word) for word in entity.name.split()}
    for surface, kind, gm in named:
        for variant in _variants(surface, own_words):
            spans = [(m.start(), m.end()) for m in _TOKEN.finditer(variant)]
            tokens = tuple(variant[s:e] for s, e in spans)
            gaps = tuple(variant[a[1] : b[0]] for a, b in itertools.pairwise(spans))
            rank = (kind, int(gm), entity.id)
            if len(tokens) > 1:
                forms.append(_Form(tokens, gaps, False, entity.id, gm, rank))
            elif tokens and _name_like(tokens[0]):
                forms.append(_Form(tokens, gaps, True, entity.id, gm, rank))
    return forms


def _title_forms(entities: list[Entity]) -> list[_Form]:
    """The forms "the Colonel" and "The Colonel" of the one entity bearing the title
    "colonel": tokens compared as written, so the title must be capitalised."""
    everyone = [(e.id, (e.name, *e.aliases, *e.gm_aliases)) for e in entities]
    openly = title_bearers((e.id, (e.name, *e.aliases)) for e in entities)  # no GM alias
    by_id = {e.id: e for e in entities}
    forms: list[_Form] = []
    for title, entity_id in sorted(borne_titles(everyone).items()):
        entity = by_id[entity_id]
        gm = entity.visibility == "gm" or entity_id not in openly.get(title, ())
        written = title[:1].upper() + title[1:]
        for article in ("the", "The"):
            rank = (3, int(gm), entity.id)
            forms.append(_Form((article, written), (" ",), True, entity.id, gm, rank, True))
    return forms


def _name_like(word: str) -> bool:
    """A one-word form worth looking for: capitalised, or in a script without case
    (Arabic, CJK, ...), where no capital marks a name."""
    first = word[0]
    return first.isupper() or (first.isalpha() and first.lower() == first.upper())


def _variants(surface: str, own_words: set[str]) -> list[str]:
    """The form itself, and without a leading "The" when several words remain; without its
    honorific when what is left is a word of the entity's own name ("Isobe-sama" of Isobe
    Gendayū is found as "Isobe"; "Suijin-sama" of the river goddess Kurogawa-hime is not
    "Suijin", the shrine's name)."""
    words = surface.split()
    found = [surface]
    if len(words) > 2 and words[0].casefold() == "the":
        found.append(" ".join(words[1:]))
    bare = bare_name(surface)
    if bare != surface and normalise_name(bare) in own_words:
        found.append(bare)
    return found
