"""Entity resolution as a cascade, for names an LLM extracted:

exact name → alias table → fuzzy (``rapidfuzz``: one name's core words inside the other's)
→ embedding similarity → optional LLM arbitration for the uncertain band → a new entity.

Only entities of the same type are ever merged: the same name with a different type becomes
an entity of its own (``red-oak`` and ``red-oak-faction``), and that is recorded too. Every
merge records why ("'the merchant Torven' → torven-blackwater: fuzzy, core words ...")."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz

from extraction.slugs import normalise_name, slugify
from graphrag_core.models import Entity
from graphrag_core.ports import Embedder

Arbiter = Callable[[Entity, Entity], bool]
"""Decides whether two entities in the uncertain band are one (an LLM, in practice)."""

TITLES = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "lord",
        "lady",
        "sir",
        "king",
        "queen",
        "prince",
        "princess",
        "brother",
        "sister",
        "master",
        "mistress",
        "captain",
        "old",
        "young",
        "mother",
        "father",
        "saint",
    ]
)


@dataclass(frozen=True)
class Thresholds:
    fuzzy: float = 90.0
    embed_accept: float = 0.85
    embed_uncertain: float = 0.70
    embed_prefilter: float = 60.0


def core_words(name: str) -> frozenset[str]:
    """The distinctive words of a name: capitalised ones when there are any (so "the
    merchant Torven" → {torven}), titles and short words left out."""
    words = name.replace("'s ", " ").split()
    capitalised = [w for w in words if w[:1].isupper()] or words
    return frozenset(
        w for w in (normalise_name(x) for x in capitalised) if len(w) >= 3 and w not in TITLES
    )


class ResolutionCascade:
    """Resolves candidate entities into a growing set of canonical ones."""

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

    def resolve(self, candidate: Entity) -> str:
        """The canonical id of ``candidate``; a new entity is added when nothing matches."""
        for step in (self._exact, self._alias, self._fuzzy, self._embedding):
            found = step(candidate)
            if found is not None:
                entity_id, why = found
                self.records.append(f"merge: {candidate.name!r} → {entity_id}: {why}")
                self._absorb(entity_id, candidate)
                return entity_id
        return self._add(candidate)

    def _same_type(self, candidate: Entity) -> list[Entity]:
        return [e for e in self.entities.values() if e.type == candidate.type]

    def _exact(self, candidate: Entity) -> tuple[str, str] | None:
        key = normalise_name(candidate.name)
        for entity in self._same_type(candidate):
            if normalise_name(entity.name) == key:
                return entity.id, "exact name"
        return None

    def _alias(self, candidate: Entity) -> tuple[str, str] | None:
        names = {normalise_name(n) for n in (candidate.name, *candidate.aliases)}
        for entity in self._same_type(candidate):
            table = {normalise_name(n) for n in (entity.name, *entity.aliases)}
            if names & table:
                return entity.id, f"alias table ({sorted(names & table)[0]!r})"
        return None

    def _fuzzy(self, candidate: Entity) -> tuple[str, str] | None:
        mine = core_words(candidate.name)
        if not mine:
            return None
        hits = []
        for entity in self._same_type(candidate):
            theirs = core_words(entity.name)
            score = fuzz.token_set_ratio(" ".join(sorted(mine)), " ".join(sorted(theirs)))
            if theirs and score >= self.limits.fuzzy and (mine <= theirs or theirs <= mine):
                hits.append((entity.id, score))
        if len(hits) != 1:
            if len(hits) > 1:
                self.records.append(
                    f"ambiguous: {candidate.name!r} fits {', '.join(h[0] for h in hits)}; "
                    "kept apart (merge by hand with `loregraph entity merge`)"
                )
            return None
        entity_id, score = hits[0]
        return entity_id, f"fuzzy (core words {sorted(mine)}, token_set_ratio {score:.0f})"

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
        """The merged candidate's names become aliases; its description fills a gap."""
        entity = self.entities[entity_id]
        known = {normalise_name(n) for n in (entity.name, *entity.aliases, *entity.gm_aliases)}
        new = [n for n in (candidate.name, *candidate.aliases) if normalise_name(n) not in known]
        self.entities[entity_id] = entity.model_copy(
            update={
                "aliases": (*entity.aliases, *dict.fromkeys(new)),
                "description": entity.description or candidate.description,
                "sources": tuple(dict.fromkeys([*entity.sources, *candidate.sources])),
            }
        )

    def _add(self, candidate: Entity) -> str:
        entity_id = slugify(candidate.name) or "entity"
        if entity_id in self.entities:
            other = self.entities[entity_id]
            self.records.append(
                f"kept apart: {candidate.name!r} ({candidate.type}) and {other.id} "
                f"({other.type}): same name, different type"
            )
            entity_id = f"{entity_id}-{slugify(candidate.type)}"
        base, n = entity_id, 2
        while entity_id in self.entities:
            entity_id, n = f"{base}-{n}", n + 1
        self.entities[entity_id] = candidate.model_copy(update={"id": entity_id})
        return entity_id


def _text(entity: Entity) -> str:
    return f"{entity.name} ({entity.type}). {entity.description}"


def _cosine(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0
