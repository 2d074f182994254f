"""Entity profiles: what the prose says about an entity that its own record does not.

A name list declares "Gunnhild Adzehand (NPC), alias the shipwright" and nothing more; every
fact about her is in the prose ("Gunnhild Adzehand, the best shipwright on the coast, builds
the town's longships there"). An entity whose own description is empty or short gets a
**profile**: the few sentences of the campaign's prose that name it (by name or party alias),
best first, capped. It is derived, never authored: it lives beside the description
(:attr:`Entity.profile`), each sentence citing its chunk.

Visibility: a profile is built only from what every audience may see, so one profile serves
players and the game master alike and may shape the entity's vector:

- only ``party`` chunks of prose sources (never a world pack's or a GM section's text);
- never a sentence that names a GM-only entity or uses any GM alias (the gazetteer finds
  both, as it finds the mentions the extractor drops from party chunks);
- never for a GM-only entity (players never see it; its GM notes describe it).

A sentence ranks higher when it defines the entity: it opens with the entity's name and goes
on with an appositive or a verb ("X, the shipwright of Skarn, ...", "X runs the inn"), or
names it in an appositive elsewhere; then lore before session records, the section about the
entity before others, and fewer other names in the sentence; ties go to document order.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from extraction.gazetteer import Gazetteer, Mention
from extraction.markdown import unwrapped
from extraction.prose_entities import sentences
from graphrag_core.models import Chunk, Entity, ProfileSentence

_APPOSITIVE = re.compile(r",\s+(?:the|a|an|who|whose|once|now|our|its|his|her|their)\b")
_VERB = re.compile(r"\s+(?:[a-z]+s|is|was|are|were|has|had|can|will|keeps|runs)\b")
_MARKUP = re.compile(r"^(?:[-*+>]|\d+[.)])\s+|\*\*|__|`")
_MIN_WORDS = 4


@dataclass(frozen=True)
class ProfileLimits:
    """How long a profile may be, and which entities get one."""

    max_sentences: int = 3
    max_chars: int = 400
    below_description_chars: int = 80
    """An entity whose description is shorter than this gets a profile (0: none does)."""


@dataclass(frozen=True)
class _Candidate:
    score: float
    order: tuple[str, int, int]
    sentence: ProfileSentence


def needs_profile(entity: Entity, limits: ProfileLimits) -> bool:
    """Party-visible, with an empty or short description."""
    return entity.visibility == "party" and len(entity.description) < limits.below_description_chars


def entity_profiles(
    entities: Sequence[Entity],
    chunks: Iterable[Chunk],
    limits: ProfileLimits,
    *,
    prose_paths: Collection[str],
) -> dict[str, tuple[ProfileSentence, ...]]:
    """Entity id -> its profile, for every entity of ``entities`` that needs one (an entity
    the prose never names gets an empty one); ``chunks`` of sources outside ``prose_paths``
    (world packs) are not read."""
    wanted = {e.id: e for e in entities if needs_profile(e, limits)}
    if not wanted or limits.max_sentences <= 0 or limits.max_chars <= 0:
        return {entity_id: () for entity_id in wanted}
    secret = frozenset(e.id for e in entities if e.visibility != "party")
    gazetteer = Gazetteer(entities)
    found: dict[str, list[_Candidate]] = {entity_id: [] for entity_id in wanted}
    for chunk in chunks:
        if chunk.visibility != "party" or chunk.source_path not in prose_paths:
            continue
        for candidate_id, candidate in _chunk_candidates(chunk, gazetteer, secret, wanted):
            found[candidate_id].append(candidate)
    return {entity_id: _pick(found[entity_id], wanted[entity_id], limits) for entity_id in wanted}


def _chunk_candidates(
    chunk: Chunk, gazetteer: Gazetteer, secret: frozenset[str], wanted: Collection[str]
) -> Iterable[tuple[str, _Candidate]]:
    mentions = gazetteer.find_mentions(chunk.text)
    text_of = unwrapped(chunk.text)
    for start, end in sentences(text_of):
        inside = [m for m in mentions if m.start >= start and m.end <= end]
        if not inside or any(m.gm_alias or m.entity_id in secret for m in inside):
            continue
        text = clean_sentence(text_of[start:end])
        if text.startswith("#") or len(text.split()) < _MIN_WORDS:  # a heading line
            continue
        named = list(dict.fromkeys(m.entity_id for m in inside))
        for entity_id in named:
            if entity_id not in wanted:
                continue
            first = next(m for m in inside if m.entity_id == entity_id)
            score = sentence_score(text_of, start, end, first)
            score += 0.5 * (chunk.session is None) + 0.5 * (chunk.subject == entity_id)
            score -= 0.25 * min(len(named) - 1, 3)
            sentence = ProfileSentence(
                text=text, chunk_id=chunk.id, source_path=chunk.source_path, session=chunk.session
            )
            yield entity_id, _Candidate(score, (chunk.source_path, chunk.start, start), sentence)


def sentence_score(text: str, start: int, end: int, mention: Mention) -> float:
    """How well the sentence ``text[start:end]`` defines the entity ``mention`` names: 4 it
    opens with the name and defines it (an appositive or a verb follows), 3 an appositive
    follows the name elsewhere, 2 it opens with the name, 1 it names it."""
    before = _MARKUP.sub("", text[start : mention.start]).strip()
    opens = before in ("", "The", "the")
    after = text[mention.end : end]
    appositive = bool(_APPOSITIVE.match(after))
    if opens and (appositive or _VERB.match(after)):
        return 4.0
    if appositive:
        return 3.0
    return 2.0 if opens else 1.0


def clean_sentence(raw: str) -> str:
    """One line, without list markers or emphasis marks."""
    return " ".join(_MARKUP.sub("", raw.strip()).replace("**", "").split())


def _pick(
    candidates: list[_Candidate], entity: Entity, limits: ProfileLimits
) -> tuple[ProfileSentence, ...]:
    chosen: list[ProfileSentence] = []
    used = 0
    seen = {" ".join(entity.description.split())} if entity.description else set()
    for candidate in sorted(candidates, key=lambda c: (-c.score, c.order)):
        text = candidate.sentence.text
        if text in seen or any(text in s for s in seen):
            continue
        if not chosen and len(text) > limits.max_chars:
            text = clip_words(text, limits.max_chars)
        elif used + len(text) + len(chosen) > limits.max_chars:
            continue
        chosen.append(candidate.sentence.model_copy(update={"text": text}))
        seen.add(candidate.sentence.text)
        used += len(text)
        if len(chosen) >= limits.max_sentences:
            break
    return tuple(chosen)


def clip_words(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, ending in an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 1, 1)].rsplit(" ", 1)[0].rstrip(",;: ")
    return cut + "…"
