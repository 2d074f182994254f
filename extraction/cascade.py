"""Entity resolution as a cascade, for names an LLM extracted:

exact name → alias table → fuzzy (``rapidfuzz``, see :mod:`extraction.name_match`)
→ embedding similarity → optional LLM arbitration for the uncertain band → a new entity.

Only entities of the same type are merged, with one exception: a person the model typed PC
where a known NPC has that name (or the other way round) joins that person; the exact, alias
and fuzzy steps look at the other person type after their own. The same name with another
type becomes an entity of its own (``red-oak`` and ``red-oak-faction``), and that is
recorded too. Every merge but
the plain exact-name ones records why ("'the merchant Torven' → torven-blackwater: fuzzy ...");
exact-name merges are counted.

A GM-only candidate (its own visibility, or from a GM chunk) that joins a party entity adds its
names to ``gm_aliases`` and its description to ``gm_notes``, never to public fields.

New entities get an id from their name; :meth:`ResolutionCascade.stable_ids` then gives them
ids that do not depend on the order of the chunks (see there)."""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz

from extraction.name_match import PERSON_TYPES, core_words, similarity
from extraction.resolution import EntityResolver
from extraction.slugs import normalise_name, slugify
from graphrag_core.models import Entity
from graphrag_core.ports import Embedder

Arbiter = Callable[[Entity, Entity], bool]
"""Decides whether two entities in the uncertain band are one (an LLM, in practice)."""


@dataclass(frozen=True)
class Thresholds:
    fuzzy: float = 90.0
    embed_accept: float = 0.85
    embed_uncertain: float = 0.70
    embed_prefilter: float = 60.0


class ResolutionCascade:
    """Resolves candidate entities into a growing set of canonical ones. ``created`` holds the
    ids it added, ``touched`` the known ids a candidate joined."""

    def __init__(
        self,
        known: Iterable[Entity],
        *,
        embedder: Embedder | None = None,
        arbiter: Arbiter | None = None,
        thresholds: Thresholds | None = None,
    ) -> None:
        self.entities: dict[str, Entity] = {e.id: e for e in known}
        self.embedder = embedder
        self.arbiter = arbiter
        self.limits = thresholds or Thresholds()
        self.records: list[str] = []
        self.exact_merges = 0
        self.created: set[str] = set()
        self.touched: set[str] = set()
        self._resolver: EntityResolver | None = None

    def resolver(self) -> EntityResolver:
        """An :class:`EntityResolver` over the entities, for names: rebuilt only once a name,
        an alias or an id has changed (its entities may lag behind on other fields)."""
        if self._resolver is None:
            self._resolver = EntityResolver(self.entities.values())
        return self._resolver

    def resolve(self, candidate: Entity) -> str:
        """The canonical id of ``candidate``; a new entity is added when nothing matches."""
        for step in (self._exact, self._alias, self._fuzzy, self._embedding):
            found = step(candidate)
            if found is not None:
                entity_id, why = found
                if why == "exact name":
                    self.exact_merges += 1
                else:
                    self.records.append(f"merge: {candidate.name!r} → {entity_id}: {why}")
                self._absorb(entity_id, candidate)
                return entity_id
        return self._add(candidate)

    def _same_type(self, candidate: Entity) -> list[Entity]:
        return [e for e in self.entities.values() if e.type == candidate.type]

    def _other_person(self, candidate: Entity) -> list[Entity]:
        """Entities of the other person type (NPC ↔ PC); none for other types."""
        person = {"NPC", "PC"}
        return [
            e
            for e in self.entities.values()
            if e.type != candidate.type and {e.type, candidate.type} <= person
        ]

    def _compatible(self, candidate: Entity) -> list[Entity]:
        """Same type first, then the other person type (NPC ↔ PC)."""
        return [*self._same_type(candidate), *self._other_person(candidate)]

    def _exact(self, candidate: Entity) -> tuple[str, str] | None:
        key = normalise_name(candidate.name)
        for entity in self._compatible(candidate):
            if normalise_name(entity.name) == key:
                return entity.id, _typed("exact name", candidate, entity)
        return None

    def _alias(self, candidate: Entity) -> tuple[str, str] | None:
        names = {normalise_name(n) for n in (candidate.name, *candidate.aliases)}
        for entity in self._compatible(candidate):
            table = {normalise_name(n) for n in (entity.name, *entity.aliases)}
            if names & table:
                why = f"alias table ({sorted(names & table)[0]!r})"
                return entity.id, _typed(why, candidate, entity)
        return None

    def _fuzzy(self, candidate: Entity) -> tuple[str, str] | None:
        """Same type first; a person of the other person type only when no same-type name
        fits ("Torven", typed PC, joins the NPC "Torven Blackwater")."""
        mine = core_words(candidate.name)
        person = candidate.type in PERSON_TYPES
        hits: list[tuple[Entity, float]] = []
        for group in (self._same_type(candidate), self._other_person(candidate)):
            scored = ((e, similarity(mine, core_words(e.name), person)) for e in group)
            hits = [(e, score) for e, score in scored if score >= self.limits.fuzzy]
            if hits:
                break
        if len(hits) != 1:
            if len(hits) > 1:
                self.records.append(
                    f"ambiguous: {candidate.name!r} fits {', '.join(h[0].id for h in hits)}; "
                    "kept apart (merge by hand with `loregraph entity merge`)"
                )
            return None
        entity, score = hits[0]
        why = f"fuzzy (core words {list(mine)}, similarity {score:.0f})"
        return entity.id, _typed(why, candidate, entity)

    def _embedding(self, candidate: Entity) -> tuple[str, str] | None:
        if self.embedder is None or not candidate.description:
            return None
        near = [
            e
            for e in self._same_type(candidate)
            if e.description and fuzz.WRatio(candidate.name, e.name) >= self.limits.embed_prefilter
        ]
        if not near:
            return None
        vectors = self.embedder.embed([_text(candidate), *(_text(e) for e in near)])
        scored = sorted(
            ((_cosine(vectors[0], v), e) for v, e in zip(vectors[1:], near, strict=True)),
            key=lambda pair: -pair[0],
        )
        best, entity = scored[0]
        if best >= self.limits.embed_accept:
            return entity.id, f"embedding similarity {best:.2f}"
        uncertain = best >= self.limits.embed_uncertain and self.arbiter is not None
        if uncertain and self.arbiter is not None and self.arbiter(candidate, entity):
            return entity.id, f"LLM arbitration (embedding similarity {best:.2f})"
        return None

    def _absorb(self, entity_id: str, candidate: Entity) -> None:
        """The candidate's new names become aliases, its description and status fill gaps;
        a secret candidate joining a party entity fills ``gm_aliases`` and ``gm_notes``."""
        entity = self.entities[entity_id]
        known = {normalise_name(n) for n in (entity.name, *entity.aliases, *entity.gm_aliases)}
        names = (candidate.name, *candidate.aliases)
        new = _unique(n for n in names if normalise_name(n) not in known)
        if new:
            self._resolver = None
        update: dict[str, object] = {
            "sources": tuple(dict.fromkeys([*entity.sources, *candidate.sources]))
        }
        if candidate.visibility == "gm" and entity.visibility == "party":
            update["gm_aliases"] = (*entity.gm_aliases, *new)
            notes = [entity.gm_notes] if entity.gm_notes else []
            if candidate.description and candidate.description not in entity.gm_notes:
                notes.append(candidate.description)
            update["gm_notes"] = "\n\n".join(notes)
        else:
            update["aliases"] = (*entity.aliases, *new)
            update["description"] = entity.description or candidate.description
            update["status"] = entity.status or candidate.status
        self.entities[entity_id] = entity.model_copy(update=update)
        if entity_id not in self.created:
            self.touched.add(entity_id)

    def _add(self, candidate: Entity) -> str:
        entity_id = slugify(candidate.name) or "entity"
        if entity_id in self.entities:
            other = self.entities[entity_id]
            self.records.append(
                f"kept apart: {candidate.name!r} ({candidate.type}) and {other.id} "
                f"({other.type}): same name, different type"
            )
            entity_id = f"{entity_id}-{slugify(candidate.type)}"
        entity_id = _free(entity_id, self.entities)
        own = normalise_name(candidate.name)
        aliases = _unique(a for a in candidate.aliases if normalise_name(a) != own)
        self.entities[entity_id] = candidate.model_copy(
            update={"id": entity_id, "aliases": tuple(aliases)}
        )
        self._resolver = None
        self.created.add(entity_id)
        return entity_id

    def stable_ids(self, hints: Mapping[tuple[str, str], str] | None = None) -> dict[str, str]:
        """Give the created entities ids that do not depend on chunk order, and return the
        renames (old id → new id). ``hints`` maps (normalised name, type) to the id such an
        entity had before (the store's): it is kept when free. Otherwise the entities sharing a
        slug take it in (type, name) order: the first gets the bare slug, the others
        ``<slug>-<type>``, then ``-2``, ``-3``."""
        fixed = {i: e for i, e in self.entities.items() if i not in self.created}
        created = sorted(
            (self.entities[i] for i in self.created), key=lambda e: (e.type, e.name, e.id)
        )
        taken = set(fixed)
        final: dict[str, str] = {}
        for entity in created:
            hint = (hints or {}).get((normalise_name(entity.name), entity.type))
            if hint is not None and hint not in taken:
                final[entity.id] = hint
                taken.add(hint)
        for entity in (e for e in created if e.id not in final):
            slug = slugify(entity.name) or "entity"
            wanted = slug if slug not in taken else f"{slug}-{slugify(entity.type)}"
            final[entity.id] = _free(wanted, taken)
            taken.add(final[entity.id])
        self.entities = {
            **fixed,
            **{final[e.id]: e.model_copy(update={"id": final[e.id]}) for e in created},
        }
        self.created = set(final.values())
        self._resolver = None
        return {old: new for old, new in final.items() if old != new}


def _typed(why: str, candidate: Entity, entity: Entity) -> str:
    if candidate.type == entity.type:
        return why
    return f"{why}, type {candidate.type} → {entity.type} (the name is a known {entity.type}'s)"


def _free(wanted: str, taken: Container[str]) -> str:
    entity_id, n = wanted, 2
    while entity_id in taken:
        entity_id, n = f"{wanted}-{n}", n + 1
    return entity_id


def _unique(names: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(normalise_name(name), name)
    return list(seen.values())


def _text(entity: Entity) -> str:
    return f"{entity.name} ({entity.type}). {entity.description}"


def _cosine(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0
