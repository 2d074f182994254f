"""The first ranker: hybrid BM25 + vector similarity, demoted by the changelog status.

For a question and a ``CampaignView``:

1. **candidates**: the lexical index's top ``settings.candidates`` per kind, and the store's
   nearest entities and chunks to the question's embedding; any candidate the view does not hold
   is dropped (the view is the source of truth for visibility, whatever the store returned),
   and so is any with neither semantic nor lexical relevance;
2. **signals**: ``semantic`` (store cosine, clipped to 0..1; 0 for lexical-only candidates),
   ``lexical`` (BM25 normalised to 0..1) and ``status_factor`` (``inactive_factor`` for dead,
   destroyed, hostile, ... items, and for passages about them, unless the question is
   historical); ``support``: the best blended relevance of a passage *about* the entity (its
   subject), so an inn described in a matching passage is found as the inn itself;
   ``mention``: the same for a passage that merely *names* the entity;
   ``score = (max(semantic_weight * semantic + lexical_weight * lexical,
   support_weight * support, mention_weight * mention, named_weight * named,
   relation_weight * relation, attitude_weight * attitude)
   + proximity_weight * proximity + type_weight * type) * factor``,
   where ``named`` is 1 for an entity the question names by name or alias, ``relation`` is 1
   for an entity one relation of the kind the question asks along away from a named one ("who
   *leads* the Merchants' Guild?", see :mod:`ranking.cues`) -- both are what the question is
   about, so they are never demoted, only marked --, ``attitude`` is 1 for an entity whose
   attitude toward the party is the one asked about ("our enemies": being hostile is then no
   reason to demote it), ``proximity`` is 1 for an entity one relation away from a named one,
   and ``type`` is 1 for an entity of a type the question asks for ("where" → Location).
   The party's own entity is the asker, not an answer, and is left out;
3. **results**: entities and passages interleaved by score, at most ``settings.passages``
   passages, ties broken by id.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from graphrag_core.config import RankingSettings
from graphrag_core.models import PARTY_ID, AskResult, CampaignView, RankedResult
from graphrag_core.ports import Embedder, GraphStore
from ranking.cues import question_cues
from ranking.documents import SEARCH_KINDS, ItemKey, in_view
from ranking.evidence import Evidence, mention_support, subject_support, with_attitude
from ranking.historical import is_historical
from ranking.lexical import STOPWORDS, LexicalIndex
from ranking.names import NameIndex, neighbours, neighbours_by
from ranking.results import ScoredItem, chunks_about, entity_result, passage_result
from ranking.status import effective_state, status_factor


def _clip_unit(value: float) -> float:
    return 0.0 if math.isnan(value) else min(max(value, 0.0), 1.0)


def select(items: Sequence[ScoredItem], k: int, passages: int) -> list[ScoredItem]:
    """The ``k`` best items, best first, ties by id, with at most ``passages`` passages."""
    chosen: list[ScoredItem] = []
    taken_passages = 0
    for item in sorted(items, key=lambda i: (-i.score, i.key.id, i.key.kind)):
        if len(chosen) >= k:
            break
        if item.key.kind == "chunk":
            if taken_passages >= passages:
                continue
            taken_passages += 1
        chosen.append(item)
    return chosen


class Ranker:
    """Ranks a view's entities and passages for a question; holds no per-campaign state."""

    def __init__(self, embedder: Embedder, store: GraphStore, settings: RankingSettings) -> None:
        self._embedder = embedder
        self._store = store
        self._settings = settings

    def rank(
        self,
        question: str,
        view: CampaignView,
        lexical: LexicalIndex,
        *,
        k: int = 10,
        historical: bool | None = None,
        names: NameIndex | None = None,
    ) -> AskResult:
        """Best ``k`` results; ``historical=None`` decides from the question's wording.
        ``names`` is the view's name index (built here when not given)."""
        past = is_historical(question) if historical is None else historical
        items = self.score(question, view, lexical, historical=past, names=names)
        chosen = select(items, k, self._settings.passages)
        return AskResult(
            question=question,
            campaign=view.campaign,
            as_player=view.as_player,
            historical=past,
            as_of_session=view.as_of_session,
            results=tuple(_results(chosen, view)),
        )

    def score(
        self,
        question: str,
        view: CampaignView,
        lexical: LexicalIndex,
        *,
        historical: bool,
        names: NameIndex | None = None,
    ) -> list[ScoredItem]:
        """Every visible candidate with some relevance, its signals and score, unordered."""
        names = names or NameIndex.build(view, ignore=STOPWORDS)
        evidence = self._evidence(question, view, lexical, names)
        return [
            self._blend(key, ev, view, historical) for key, ev in evidence.items() if ev.relevant
        ]

    def _evidence(
        self, question: str, view: CampaignView, lexical: LexicalIndex, names: NameIndex
    ) -> dict[ItemKey, Evidence]:
        """Candidates from vectors, BM25, passages about or naming entities, names in the
        question, the relations and attitude it asks about."""
        semantic = self._semantic(question, view)
        bm25 = {hit.key: hit.score for hit in lexical.search(question, self._settings.candidates)}
        keys = {k for k in semantic.keys() | bm25.keys() if in_view(view, k) and k != _PARTY}
        relevance = {k: self._weighted(semantic.get(k, 0.0), bm25.get(k, 0.0)) for k in keys}
        support, mention = subject_support(relevance, view), mention_support(relevance, view)
        cues = question_cues(question)
        named = names.find(question) - {PARTY_ID}
        near = neighbours(view.relations, named) - {PARTY_ID}
        answers = neighbours_by(view.relations, named, cues.relation_types) - {PARTY_ID}
        minded = with_attitude(view, cues.attitude)
        graph = {
            ItemKey("entity", e)
            for e in support.keys() | mention.keys() | named | near | answers | minded
        }
        return {
            key: Evidence(
                semantic=semantic.get(key, 0.0),
                lexical=bm25.get(key, 0.0),
                support=support.get(key.id, 0.0) if key.kind == "entity" else 0.0,
                mention=mention.get(key.id, 0.0) if key.kind == "entity" else 0.0,
                named=key.kind == "entity" and key.id in named,
                near=key.kind == "entity" and key.id in near,
                answer=key.kind == "entity" and key.id in answers,
                attitude=key.kind == "entity" and key.id in minded,
                typed=key.kind == "entity" and view.entities[key.id].type in cues.answer_types,
            )
            for key in keys | {k for k in graph if in_view(view, k)}
        }

    def _weighted(self, semantic: float, lexical: float) -> float:
        return self._settings.semantic_weight * semantic + self._settings.lexical_weight * lexical

    def _semantic(self, question: str, view: CampaignView) -> dict[ItemKey, float]:
        vector = self._embedder.embed([question])[0]
        found: dict[ItemKey, float] = {}
        for kind in SEARCH_KINDS:
            hits = self._store.vector_search(
                view.campaign, kind, vector, self._settings.candidates, view.visibilities
            )
            for hit in hits:
                key = ItemKey(kind, hit.id)
                found[key] = max(found.get(key, 0.0), _clip_unit(hit.score))
        return found

    def _blend(
        self, key: ItemKey, ev: Evidence, view: CampaignView, historical: bool
    ) -> ScoredItem:
        cfg = self._settings
        asked_for = ev.named or ev.answer
        factor = 1.0 if asked_for else self._status_factor(key, view, historical, ev.attitude)
        weighted = (
            max(
                self._weighted(ev.semantic, ev.lexical),
                cfg.support_weight * ev.support,
                cfg.mention_weight * ev.mention,
                cfg.named_weight * ev.named,
                cfg.relation_weight * ev.answer,
                cfg.attitude_weight * ev.attitude,
            )
            + cfg.proximity_weight * ev.near
            + cfg.type_weight * ev.typed
        )
        return ScoredItem(
            key,
            ev.semantic,
            ev.lexical,
            factor,
            weighted * factor,
            ev.support,
            named=float(ev.named),
            proximity=float(ev.near),
            mention=ev.mention,
            relation=float(ev.answer),
            attitude=float(ev.attitude),
            type_match=float(ev.typed),
        )

    def _status_factor(
        self, key: ItemKey, view: CampaignView, historical: bool, attitude_asked: bool
    ) -> float:
        entity_id = key.id if key.kind == "entity" else view.chunks[key.id].subject
        if entity_id is None or entity_id not in view.entities:
            return 1.0
        return status_factor(
            effective_state(view, entity_id),
            self._settings,
            historical=historical,
            attitude_counts=not attitude_asked,  # "our enemies": hostility is the answer
        )


_PARTY = ItemKey("entity", PARTY_ID)


def _results(chosen: Sequence[ScoredItem], view: CampaignView) -> list[RankedResult]:
    entity_ids = [item.key.id for item in chosen if item.key.kind == "entity"]
    chunks = chunks_about(view, entity_ids)
    return [
        entity_result(item, view, chunks[item.key.id])
        if item.key.kind == "entity"
        else passage_result(item, view)
        for item in chosen
    ]
