"""The entities a passage names or a community holds, in the order a reader of the answer
should meet them.

A passage's ``mentions`` are stored sorted by id, and a community's members most central
first: neither says which of them the question is about. Taken in that order, a recap that
names twelve people put the first five of the alphabet ahead of the one the question asked
for. So a result's ``names`` are ordered:

1. a passage's subject (what it is about);
2. the entities the ranker scored for this question, best score first (the score carries the
   status factor, so the dead and the destroyed come after the living);
3. the rest in the order the passage first writes them (a community: most central first);
4. last, the scored ones the ranker demoted as no answer (``last``: a status factor below 1,
   dead, destroyed, hostile when allies are asked for, the one who held the key before):
   a recap of the night the card was lifted names the thief, who is not who carries it now.

``reading_order`` alone is what a reader of the passage meets first; the baselines, which
score no entity, offer a passage's names in that order.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from graphrag_core.models import CampaignView, Chunk


def _first_position(text: str, spellings: Iterable[str]) -> int:
    found = [text.find(s.casefold()) for s in spellings if s]
    return min((p for p in found if p >= 0), default=len(text))


def reading_order(chunk: Chunk, view: CampaignView) -> tuple[str, ...]:
    """The passage's named entities (those the view holds) in the order the text first
    writes one of their names or aliases; ties and unwritten ones by id."""
    text = chunk.text.casefold()
    placed = []
    for entity_id in dict.fromkeys(chunk.mentions):
        entity = view.entities.get(entity_id)
        if entity is not None:
            position = _first_position(text, (entity.name, *entity.aliases))
            placed.append((position, entity_id))
    return tuple(entity_id for _, entity_id in sorted(placed))


def by_relevance(
    ids: Iterable[str], scores: Mapping[str, float], last: Collection[str] = ()
) -> tuple[str, ...]:
    """``ids`` with the scored ones first, best first, the others after in their order, and
    the ones in ``last`` (demoted: no answer) after all of them, best first."""
    ordered = list(dict.fromkeys(ids))
    scored = sorted((e for e in ordered if e in scores), key=lambda e: -scores[e])
    return (
        *(e for e in scored if e not in last),
        *(e for e in ordered if e not in scores and e not in last),
        *(e for e in scored if e in last),
        *(e for e in ordered if e not in scores and e in last),
    )


def passage_names(
    chunk: Chunk, view: CampaignView, scores: Mapping[str, float], last: Collection[str] = ()
) -> tuple[str, ...]:
    """The passage's subject, then its named entities by relevance to the question, the
    demoted ones (``last``) at the end."""
    subject = (chunk.subject,) if chunk.subject and chunk.subject in view.entities else ()
    named = by_relevance(reading_order(chunk, view), scores, last)
    return (*subject, *(e for e in named if e not in subject))
