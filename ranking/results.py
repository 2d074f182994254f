"""Turning scored candidates into ``RankedResult``: names, status, notes, text, citations.

Everything here reads only the ``CampaignView``, which the application service has already cut
to what the audience may see; change ids the view does not hold are left out of notes too.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from graphrag_core.models import CampaignView, Change, Chunk, Citation, RankedResult
from ranking.communities import community_result
from ranking.context.changes import detail_text
from ranking.documents import ItemKey
from ranking.inputs import RankInputs
from ranking.item_names import passage_names
from ranking.status import availability, effective_state
from ranking.text import clip, gist

CITATIONS_PER_ENTITY = 3
QUOTE_CHARS = 160
GIST_CHARS = 200
PASSAGE_CHARS = 400


@dataclass(frozen=True)
class ScoredItem:
    """One candidate with its signals and blended score."""

    key: ItemKey
    semantic: float
    lexical: float
    status_factor: float
    score: float
    support: float = 0.0
    named: float = 0.0
    anchor: float = 0.0
    """1.0 when the named entity is the question's setting (see :mod:`ranking.anchors`)."""
    proximity: float = 0.0
    mention: float = 0.0
    relation: float = 0.0
    attitude: float = 0.0
    status_asked: float = 0.0
    took_part: float = 0.0
    type_match: float = 0.0
    centrality: float = 0.0
    recency: float = 0.0
    match: float = 0.0
    """The best match before bonuses and status (what the relevance floor is compared with)."""
    former: bool = False
    """A former holder, leader or member along the relation a question about now asks
    (:func:`ranking.graph.former_along`): demoted, and marked as such in the results."""

    @property
    def signals(self) -> dict[str, float]:
        """The named signals, then the cues, then the status factor (twice: ``status`` is its
        signal name, ``status_factor`` the name earlier releases used)."""
        return {
            "semantic": self.semantic,
            "lexical": self.lexical,
            "centrality": self.centrality,
            "recency": self.recency,
            "support": self.support,
            "mention": self.mention,
            "named": self.named,
            "anchor": self.anchor,
            "relation": self.relation,
            "attitude": self.attitude,
            "status_asked": self.status_asked,
            "took_part": self.took_part,
            "proximity": self.proximity,
            "type": self.type_match,
            "status": self.status_factor,
            "status_factor": self.status_factor,
        }


def chunk_citation(chunk: Chunk) -> Citation:
    return Citation(
        kind="chunk",
        id=chunk.id,
        source=chunk.source_path,
        quote=clip(chunk.text, QUOTE_CHARS),
        session_id=chunk.session,
        page=chunk.page,
    )


def chunk_place(chunk: Chunk) -> str:
    """``book.pdf p. 47 § Taverns``: the source, its page if any, the heading if any."""
    page = f" p. {chunk.page}" if chunk.page is not None else ""
    heading = f" § {chunk.heading}" if chunk.heading else ""
    return f"{chunk.source_path}{page}{heading}"


def change_citation(change: Change) -> Citation:
    quote = f"{change.field}: {change.old_value or '?'} → {change.new_value}"
    return Citation(
        kind="change",
        id=change.id,
        source=change.source,
        quote=quote,
        session_id=change.session_id,
    )


def _change_citations(view: CampaignView, entity_id: str) -> list[Citation]:
    """The changes that set the entity's status and attitude, then those that started its
    relations ("killed_by: [cinder-knives]" cites Torven's death on the Cinder Knives too)."""
    state = effective_state(view, entity_id)
    if state is None:
        return []
    ids = dict.fromkeys(c for c in (state.status_change, state.attitude_change) if c)
    ids.update(dict.fromkeys(view.relation_changes(entity_id)))
    return [change_citation(view.changes[change_id]) for change_id in ids]


def details_note(view: CampaignView, change_id: str | None) -> str:
    """The details of the change that set a status, in words (``killed_by: Cinder Knives``)."""
    change = view.changes.get(change_id) if change_id else None
    return detail_text(change.details, view.entities) if change else ""


def _with_details(note: str, view: CampaignView, change_id: str | None) -> str:
    details = details_note(view, change_id) if note else ""
    return f"{note}; {details}" if details else note


def _citation_order(pair: tuple[int, Chunk]) -> tuple[int, str, int, str]:
    rank, chunk = pair
    return (rank, chunk.source_path, chunk.start, chunk.id)


def chunks_about(view: CampaignView, entity_ids: Iterable[str]) -> dict[str, list[Chunk]]:
    """Visible chunks per entity: those about it first, then those that mention it."""
    return {
        entity_id: [
            chunk for _, chunk in sorted(view.chunks_naming(entity_id), key=_citation_order)
        ]
        for entity_id in set(entity_ids)
    }


FORMER_NOTE = "tied to what is asked about before, not now (a change ended it)"
"""The note of a former holder, leader or member (``ScoredItem.former``)."""


def _former_notes(view: CampaignView, ids: Iterable[str]) -> list[str]:
    return [f"{view.entities[e].name} — {FORMER_NOTE}" for e in ids if e in view.entities]


def entity_result(item: ScoredItem, view: CampaignView, chunks: list[Chunk]) -> RankedResult:
    entity = view.entities[item.key.id]
    state = effective_state(view, entity.id)
    available, note = availability(state)
    note = _with_details(note, view, state.status_change if state else None)
    if item.former:
        note = "; ".join(n for n in (FORMER_NOTE, note) if n)
    citations = [chunk_citation(c) for c in chunks[:CITATIONS_PER_ENTITY]]
    return RankedResult(
        id=entity.id,
        kind="entity",
        name=entity.name,
        type=entity.type,
        status=state.status if state else entity.status,
        status_assumed=state.status_assumed if state else False,
        attitude=state.attitude if state else None,
        available=available,
        score=item.score,
        signals=item.signals,
        citations=(*citations, *_change_citations(view, entity.id)),
        text=gist(entity.description or view.profile_text(entity.id), GIST_CHARS),
        status_note=note,
        former=(entity.id,) if item.former else (),
    )


def _mention_notes(view: CampaignView, chunk: Chunk) -> list[str]:
    notes: list[str] = []
    for entity_id in dict.fromkeys(chunk.mentions):
        entity = view.entities.get(entity_id)
        if entity is None or entity_id == chunk.subject:
            continue
        available, note = availability(effective_state(view, entity_id))
        if not available:
            notes.append(f"{entity.name} — {note}")
    return notes


def passage_result(
    item: ScoredItem,
    view: CampaignView,
    relevance: Mapping[str, float] | None = None,
    demoted: Collection[str] = (),
    former: Collection[str] = (),
) -> RankedResult:
    """``relevance``: the ranker's score of each entity it scored for the question, which
    orders the result's ``names``, the ``demoted`` ones last (see :mod:`ranking.item_names`);
    ``former``: the former holders among them (``ScoredItem.former``), marked and noted."""
    chunk = view.chunks[item.key.id]
    subject = view.entities.get(chunk.subject) if chunk.subject else None
    state = effective_state(view, subject.id) if subject else None
    available, note = availability(state)
    notes = [f"about {subject.name}, {note}"] if subject and note else []
    notes.extend(_mention_notes(view, chunk))
    names = passage_names(chunk, view, relevance or {}, demoted)
    stale = tuple(e for e in names if e in former)
    notes.extend(_former_notes(view, stale))
    changes = _change_citations(view, subject.id) if subject and not available else []
    return RankedResult(
        id=chunk.id,
        kind="passage",
        type="passage",
        name=chunk_place(chunk),
        status=state.status if state else None,
        status_assumed=state.status_assumed if state else False,
        attitude=state.attitude if state else None,
        available=available,
        score=item.score,
        signals=item.signals,
        citations=(chunk_citation(chunk), *changes),
        text=clip(chunk.text, PASSAGE_CHARS),
        status_note="; ".join(notes),
        names=names,
        former=stale,
    )


def _result(
    item: ScoredItem,
    view: CampaignView,
    inputs: RankInputs,
    chunks: dict[str, list[Chunk]],
    relevance: Mapping[str, float],
    demoted: Collection[str],
    former: Collection[str],
) -> RankedResult:
    if item.key.kind == "entity":
        return entity_result(item, view, chunks[item.key.id])
    if item.key.kind == "chunk":
        return passage_result(item, view, relevance, demoted, former)
    summary = inputs.summaries[item.key.id]
    result = community_result(
        item.key, item.score, item.signals, summary, inputs.centrality, relevance, demoted
    )
    stale = tuple(e for e in result.names if e in former)
    return result.model_copy(update={"former": stale}) if stale else result


def ranked_results(
    chosen: Sequence[ScoredItem],
    view: CampaignView,
    inputs: RankInputs,
    scored: Sequence[ScoredItem] = (),
) -> list[RankedResult]:
    """The chosen items as results, in order; ``scored``: every item scored for the question,
    whose entities' scores order a passage's or a community's ``names`` (the demoted ones,
    a status factor below 1, last)."""
    chunks = chunks_about(view, [item.key.id for item in chosen if item.key.kind == "entity"])
    entities = [i for i in scored if i.key.kind == "entity"]
    relevance = {i.key.id: i.score for i in entities}
    demoted = frozenset(i.key.id for i in entities if i.status_factor < 1.0)
    former = frozenset(i.key.id for i in entities if i.former)
    return [_result(item, view, inputs, chunks, relevance, demoted, former) for item in chosen]
