"""The entities a passage names *where it answers the question*.

"Who can forge us harpoons?" finds the Skarn Shipyard passage: "South of the piers lie the
slipways of Skarn Shipyard. Gunnhild Adzehand, the best shipwright on the coast, ... forges the
long harpoons the whalers carry." The passage is about the shipyard, so the shipyard gets its
``support``; Gunnhild is only one of the names in it (``mention``, weighed at half), as is
every other name anywhere in the passage, though hers is the sentence that answers.

Here, in each candidate passage, the sentences that share the most content words with the
question (at least one; words compared after dropping a final "s", "es", "ed" or "ing") are
its **focus**; an entity of the asked answer type named in a focus sentence is credited the
passage's relevance as ``support`` (as if the passage were about it), when the question asks
for a type and not for a place: a place is what passages are about (their subject already
has the support), and the places a "where" question's focus sentence names are as often the
setting as the answer ("Where can we buy a sea chart?" lifted the coast above the shop). A
passage's subject keeps its own support; nothing here reads more than the candidate passages
the ranker already found.

Measured on four campaigns (issue 12, round 4 in ``docs/benchmarks.md``): "Who can tend our
wounds?" (the temple passage's sentence naming Sister Nahla), "Who opens the sluices of the
cistern?" and "Who can carry a message across Millbrook quickly?" rank the person first.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from graphrag_core.models import PARTY_ID, CampaignView
from ranking.cues import QuestionCues
from ranking.documents import ItemKey, sentences
from ranking.lexical import STOPWORDS
from ranking.names import NameIndex, question_words

_SUFFIXES = ("ing", "ed", "es", "s")


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """A text's words that carry meaning, crudely stemmed ("forges" ~ "forge")."""
    return {_stem(w) for w in question_words(text) if w not in STOPWORDS}


@lru_cache(maxsize=8192)
def _sentence_words(text: str) -> tuple[tuple[frozenset[str], str], ...]:
    """A passage's sentences with their content words: the same passages come back question
    after question, and splitting and stemming them was a tenth of a warm query's CPU."""
    return tuple((frozenset(content_words(s)), s) for s in sentences(text))


def focused_entities(
    question: str,
    cues: QuestionCues,
    relevance: Mapping[ItemKey, float],
    view: CampaignView,
    names: NameIndex,
) -> dict[str, float]:
    """Entity id → the best relevance of a candidate passage that names it, of the asked
    type, in one of the passage's sentences that best match the question."""
    wanted = content_words(question) - content_words(" ".join(_named_words(question, names)))
    if not cues.answer_types or "Location" in cues.answer_types or not wanted:
        return {}
    found: dict[str, float] = {}
    for key, value in relevance.items():
        if key.kind != "chunk" or value <= 0.0:
            continue
        scored = [
            (len(wanted & words), s) for words, s in _sentence_words(view.chunks[key.id].text)
        ]
        top = max((shared for shared, _ in scored), default=0)
        if top == 0:
            continue
        for shared, sentence in scored:
            if shared < top:
                continue
            for entity_id in names.find(sentence) - {PARTY_ID}:
                entity = view.entities.get(entity_id)
                if entity is not None and entity.type in cues.answer_types:
                    found[entity_id] = max(found.get(entity_id, 0.0), value)
    return found


def _named_words(question: str, names: NameIndex) -> list[str]:
    """The words of the names the question holds (a name is not a content word to match)."""
    words = question_words(question)
    return [w for span in names.spans(question) for w in words[span.start : span.end]]
