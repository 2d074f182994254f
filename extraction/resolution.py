"""Entity resolution: from a name, alias or id to a canonical id, and merging the definitions
of one entity found in several sources.

``EntityResolver.resolve`` tries, in order: the exact id; the slug of the text as an id; the
normalised name; a normalised alias (a name or alias with a lower-case foreign article also
without it: "il Magnifico" as "Magnifico", :mod:`graphrag_core.articles`); a normalised GM
alias (each also with ``-``/``_`` read as spaces, so ``mother-orla`` finds the alias "Mother
Orla"); the party's common names. It never guesses.

``EntityResolver.resolve_near`` is the last, opt-in step for change sets written against
another extraction of the same world: the one entity whose name or alias has the same words as
the text up to extra words and plural forms ("Garran the Eel" → Garran, "reef-drake" → "Reef
Drakes"), of the declared type (or typed ``Other``), or, failing that, the one person named
with the given name written short or in full ("Michael Brennan" → "Mickey Brennan", see
:mod:`extraction.nicknames`); none when two entities fit. A misspelt
word is never "near": it only feeds ``suggest`` for error messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rapidfuzz import fuzz, process

from extraction.nicknames import shortens
from extraction.slugs import normalise_name, slugify
from graphrag_core.articles import without_article
from graphrag_core.errors import ExtractionError
from graphrag_core.models import PARTY_ID, Entity, Relation

PARTY_NAMES = frozenset(
    normalise_name(name)
    for name in (
        *("party", "player_party", "player party", "the party", "players", "the players"),
        *("pcs", "the pcs", "player characters", "the player characters"),
    )
)
"""Names that always mean the player characters' group (``PARTY_ID``)."""


class EntityResolver:
    """Resolves names, aliases and ids against a fixed set of entities."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        self._entities = {entity.id: entity for entity in sorted(entities, key=lambda e: e.id)}
        self._names: dict[str, str] = {}
        self._aliases: dict[str, str] = {}
        self._gm_aliases: dict[str, str] = {}
        for entity in self._entities.values():
            self._names.setdefault(normalise_name(entity.name), entity.id)
            for alias in entity.aliases:
                self._aliases.setdefault(normalise_name(alias), entity.id)
            for alias in entity.gm_aliases:
                self._gm_aliases.setdefault(normalise_name(alias), entity.id)
        self._add_unarticled()

    def _add_unarticled(self) -> None:
        """A name or alias with a lower-case foreign article ("il Magnifico") is also an alias
        without it ("the Magnifico": :mod:`graphrag_core.articles`), where that form names
        nothing already and no other entity's name gives it too."""
        for table, names_of in (
            (self._aliases, lambda e: (e.name, *e.aliases)),
            (self._gm_aliases, lambda e: e.gm_aliases),
        ):
            found: dict[str, set[str]] = {}
            for entity in self._entities.values():
                for name in names_of(entity):
                    if (bare := without_article(name)) is not None:
                        found.setdefault(normalise_name(bare), set()).add(entity.id)
            for key, ids in found.items():
                taken = key in self._names or key in self._aliases or key in self._gm_aliases
                if len(ids) == 1 and not taken:
                    table[key] = next(iter(ids))

    def __contains__(self, entity_id: object) -> bool:
        return entity_id in self._entities

    def get(self, entity_id: str) -> Entity | None:
        return self._entities.get(entity_id)

    def entities(self) -> list[Entity]:
        """Every entity it resolves to, by id."""
        return list(self._entities.values())

    def resolve(self, name_or_id: str, *, include_gm: bool = True) -> str | None:
        """The canonical id ``name_or_id`` denotes, or ``None``. With ``include_gm=False`` a GM
        alias does not count (resolving it would reveal the secret identity)."""
        text = name_or_id.strip()
        if text in self._entities:
            return text
        if slugify(text) in self._entities:
            return slugify(text)
        key = normalise_name(text.replace("_", " "))
        spaced = normalise_name(text.replace("_", " ").replace("-", " "))
        found = self._names.get(key) or self._aliases.get(key)
        found = found or self._names.get(spaced) or self._aliases.get(spaced)
        if found is None and include_gm:
            found = self._gm_aliases.get(key) or self._gm_aliases.get(spaced)
        if found is None and key in PARTY_NAMES:
            return PARTY_ID
        return found

    def resolve_near(self, name: str, entity_type: str | None = None) -> str | None:
        """The one entity whose name or alias has the same words as ``name`` up to extra
        words and plurals, of type ``entity_type`` (any case) or ``Other`` when given; None
        when none or several fit (see the module docstring)."""
        words = name_words(name)
        if not words:
            return None
        fits = {
            entity_id
            for key, entity_id in [*self._names.items(), *self._aliases.items()]
            if _type_fits(self._entities[entity_id].type, entity_type)
            and (other := name_words(key))
            and (words <= other or other <= words)
        }
        if not fits:
            fits = self._short_given_names(name, entity_type)
        return fits.pop() if len(fits) == 1 else None

    def _short_given_names(self, name: str, entity_type: str | None) -> set[str]:
        """The people whose name or alias is ``name`` with the given name written short or in
        full: "Michael Brennan" of "Mickey Brennan", "Mickey Brennan" of "Michael Brennan"."""
        words = normalise_name(name).split()
        if len(words) != 2 or (entity_type or "NPC").upper() not in _PEOPLE:
            return set()
        fits: set[str] = set()
        for key, entity_id in [*self._names.items(), *self._aliases.items()]:
            other = key.split()
            if self._entities[entity_id].type not in (*_PEOPLE, "Other") or len(other) != 2:
                continue
            if other[1] == words[1] and (
                shortens(words[0], other[0]) or shortens(other[0], words[0])
            ):
                fits.add(entity_id)
        return fits

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` near matches, as ``"Name (id)"``, best first."""
        choices: dict[str, str] = {}
        for key, entity_id in [*self._names.items(), *self._aliases.items()]:
            choices.setdefault(key, entity_id)
        matches = process.extract(
            normalise_name(name),
            list(choices),
            scorer=fuzz.WRatio,
            limit=limit * 3,
            score_cutoff=60,
        )
        shown: list[str] = []
        for key, _score, _index in matches:
            entity = self._entities[choices[key]]
            label = f"{entity.name} ({entity.id})"
            if label not in shown:
                shown.append(label)
        return shown[:limit]


_PEOPLE = ("NPC", "PC")
_FILLER = frozenset({"the", "a", "an", "of"})


def name_words(text: str) -> frozenset[str]:
    """The words of a name for near matching: ``-``/``_`` as spaces, no articles or "of", a
    plural ``s`` dropped from words longer than three letters."""
    words = normalise_name(text.replace("_", " ").replace("-", " ")).split()
    return frozenset(
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in words
        if w not in _FILLER
    )


def _type_fits(actual: str, declared: str | None) -> bool:
    return declared is None or actual.lower() in (declared.lower(), "other")


def remap_ends(relation: Relation, moved: Mapping[str, str]) -> Relation:
    """``relation`` with each end ``moved`` maps (old id → new id) replaced."""
    if relation.source not in moved and relation.target not in moved:
        return relation
    return relation.model_copy(
        update={"source": moved.get(relation.source, relation.source),
                "target": moved.get(relation.target, relation.target)}
    )  # fmt: skip


def canonical_ids(entities: Sequence[Entity]) -> dict[str, str]:
    """Map each id to the id it merges into: definitions sharing a normalised name and a type
    merge into the first one's id; same name with different types stay apart."""
    first_by_key: dict[tuple[str, str], str] = {}
    mapping: dict[str, str] = {}
    for entity in entities:
        key = (normalise_name(entity.name), entity.type)
        target = mapping.get(entity.id) or first_by_key.setdefault(key, entity.id)
        mapping.setdefault(entity.id, target)
    return mapping


def merge_entities(entities: Sequence[Entity]) -> list[Entity]:
    """One entity per canonical id (see ``canonical_ids``), in first-seen order."""
    mapping = canonical_ids(entities)
    groups: dict[str, list[Entity]] = {}
    for entity in entities:
        groups.setdefault(mapping[entity.id], []).append(entity)
    return [_merge(entity_id, group) for entity_id, group in groups.items()]


def _merge(entity_id: str, group: list[Entity]) -> Entity:
    """Union aliases, sources and attributes (first wins); longest description; first status;
    visible to the party if any definition is; other names become aliases. The description is
    the longest of the party definitions when there are any: a GM-only definition's description
    becomes a GM note, never public text.

    An empty id, or one id for a GM-only and a party definition whose names do not match
    (neither's name is a name or alias of the other), is a collision: an ``ExtractionError``
    naming both, never a merge (a merge would show the GM-only one to players)."""
    first = group[0]
    if not entity_id.strip():
        raise ExtractionError(
            f"{first.name!r} ({', '.join(first.sources)}) has an empty id; give it an 'id:'"
        )
    if len(group) == 1:
        return first
    _check_collision(entity_id, group)
    # the description players see comes from party definitions when there are any; a GM-only
    # definition's description is kept as a GM note (a near-duplicate GM-only "Torvén" must
    # not lend its secret text to the public "Torven")
    public = [e for e in group if e.visibility == "party"] or group
    gm_notes = [e.gm_notes for e in group if e.gm_notes]
    gm_notes += [e.description for e in group if e not in public and e.description]
    names = _unique(e.name for e in group)
    aliases = _unique([*names[1:], *(a for e in group for a in e.aliases)])
    attributes: dict[str, str] = {}
    for entity in group:
        attributes.update({k: v for k, v in entity.attributes.items() if k not in attributes})
    entity_type = next((e.type for e in group if e.type != "Other"), first.type)
    return first.model_copy(
        update={
            "id": entity_id,
            "type": entity_type,
            "aliases": tuple(a for a in aliases if normalise_name(a) != normalise_name(first.name)),
            "gm_aliases": tuple(_unique(a for e in group for a in e.gm_aliases)),
            "status": next((e.status for e in group if e.status is not None), None),
            "visibility": "party" if any(e.visibility == "party" for e in group) else "gm",
            "description": max((e.description for e in public), key=len),
            "gm_notes": "\n\n".join(_unique(gm_notes)),
            "attributes": attributes,
            "sources": tuple(_unique(s for e in group for s in e.sources)),
        }
    )


def _check_collision(entity_id: str, group: list[Entity]) -> None:
    for gm in (e for e in group if e.visibility == "gm"):
        for party in (e for e in group if e.visibility == "party"):
            if not _same_names(gm, party):
                raise ExtractionError(
                    f"id {entity_id!r} is given to the GM-only {gm.name!r} "
                    f"({', '.join(gm.sources)}) and to {party.name!r} "
                    f"({', '.join(party.sources)}), which are not the same name; give one of "
                    "them its own 'id:' (never merged: the GM-only one would reach players)"
                )


def _same_names(a: Entity, b: Entity) -> bool:
    names_a = {normalise_name(n) for n in (a.name, *a.aliases, *a.gm_aliases)}
    names_b = {normalise_name(n) for n in (b.name, *b.aliases, *b.gm_aliases)}
    return normalise_name(a.name) in names_b or normalise_name(b.name) in names_a


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
