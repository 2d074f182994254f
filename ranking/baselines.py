"""What each system offers for a question, as entities in rank order (``Offer``s):

- the **ranker**: an entity result offers itself; a passage its ``names`` (its subject, then
  the entities it names, those the ranker scored for the question best first, see
  :mod:`ranking.item_names`); a community summary its ``names`` (members, the scored ones
  best first, the others most central first); each with the
  availability and status the ranker reported (for named entities and members: their
  effective state in the view); an entity any result marks as a former holder, leader or
  member of what a question about now asks (``RankedResult.former``) as unavailable;
- the **semantic-only baseline**: the store's nearest chunks to the question's embedding;
- the **BM25-only baseline**: the lexical index's best chunks.

A baseline offers the subject and then the named entities of each chunk (in the order the
chunk writes them: a baseline scores no entity) in rank order, every one as available (it
knows nothing of the changelog). Both baselines read the same view (same audience, same
sources) as the ranker.
"""

from __future__ import annotations

from collections.abc import Iterator

from graphrag_core.models import PARTY_ID, AskResult, CampaignView, Chunk, RankedResult
from graphrag_core.ports import Embedder, GraphStore
from ranking.documents import ItemKey, in_view
from ranking.eval_models import Offer
from ranking.evaluation import dedupe
from ranking.item_names import reading_order
from ranking.lexical import LexicalIndex
from ranking.status import availability, effective_state

DEPTH = 10


def _state_offer(view: CampaignView, entity_id: str) -> Offer:
    """An entity as offered with its effective state in the view."""
    state = effective_state(view, entity_id)
    available, _ = availability(state)
    return Offer(entity_id=entity_id, available=available, status=state.status if state else None)


def _named(view: CampaignView, chunk: Chunk) -> Iterator[Offer]:
    return (_state_offer(view, e) for e in reading_order(chunk, view) if e != PARTY_ID)


def ranker_offers(result: AskResult, view: CampaignView) -> tuple[Offer, ...]:
    offers: list[Offer] = []
    for item in result.results:
        offers.extend(_item_offers(item, view))
    former = {e for item in result.results for e in item.former}
    return dedupe([_marked(o, former) for o in offers if o.entity_id != PARTY_ID])


def _marked(offer: Offer, former: set[str]) -> Offer:
    """An entity a result marks as a former holder (``RankedResult.former``: "tied to what is
    asked about before, not now") is not offered as available for the question."""
    if offer.available and offer.entity_id in former:
        return Offer(entity_id=offer.entity_id, available=False, status=offer.status)
    return offer


def _item_offers(item: RankedResult, view: CampaignView) -> list[Offer]:
    if item.kind == "entity":
        return [Offer(entity_id=item.id, available=item.available, status=item.status)]
    if item.kind == "community":
        return [_state_offer(view, m) for m in item.names or item.members if m != PARTY_ID]
    chunk = view.chunks.get(item.id)
    if chunk is None:
        return []
    if item.names:
        return [_passage_offer(view, item, e) for e in item.names if e != PARTY_ID]
    subject = (
        [Offer(entity_id=chunk.subject, available=item.available, status=item.status)]
        if chunk.subject
        else []
    )
    return [*subject, *_named(view, chunk)]


def _passage_offer(view: CampaignView, item: RankedResult, entity_id: str) -> Offer:
    """A passage's subject as the ranker reported it; another entity it names in its
    effective state in the view."""
    chunk = view.chunks[item.id]
    if entity_id == chunk.subject:
        return Offer(entity_id=entity_id, available=item.available, status=item.status)
    return _state_offer(view, entity_id)


def chunk_offers(view: CampaignView, chunk_ids: list[str]) -> tuple[Offer, ...]:
    """A baseline's offers: per chunk its subject, then what it names in the order it writes
    them, all as available."""
    offers: list[Offer] = []
    for chunk_id in chunk_ids:
        chunk = view.chunks[chunk_id]
        named = reading_order(chunk, view)
        ids = (chunk.subject, *named) if chunk.subject else named
        offers.extend(Offer(entity_id=e) for e in ids if e in view.entities and e != PARTY_ID)
    return dedupe(offers)


def semantic_chunks(
    question: str, view: CampaignView, embedder: Embedder, store: GraphStore, k: int = DEPTH
) -> list[str]:
    vector = embedder.embed([question])[0]
    hits = store.vector_search(view.campaign, "chunk", vector, k, view.visibilities)
    return [h.id for h in hits if in_view(view, ItemKey("chunk", h.id))]


def lexical_chunks(
    question: str, view: CampaignView, lexical: LexicalIndex, k: int = DEPTH
) -> list[str]:
    hits = lexical.search(question, k)
    return [h.key.id for h in hits if h.key.kind == "chunk" and in_view(view, h.key)][:k]
