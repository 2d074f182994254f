"""One entity: its preview (status, gist, key relations) and its expansion (full description,
facts, recent changes, source excerpts), every line cited."""

from __future__ import annotations

from dataclasses import dataclass, field
from threading import Lock

from graphrag_core.models import PARTY_ID, CampaignView, Change, Chunk, Relation
from ranking.context.changes import change_lines, changes_by_entity, detail_text
from ranking.context.handles import change_handle, entity_handle, passage_handle
from ranking.context.models import ContextLine, Expansion
from ranking.status import availability, effective_state
from ranking.text import clip, gist

GIST_CHARS = 140
KEY_RELATIONS = 3
FACTS = 20
EXCERPTS = 5
EXCERPT_CHARS = 600


class EntityStatus:
    """An entity's effective status, why, and the change that set it."""

    def __init__(self, view: CampaignView, entity_id: str) -> None:
        entity = view.entities[entity_id]
        state = effective_state(view, entity_id)
        self.status = state.status if state else entity.status
        self.assumed = state.status_assumed if state else False
        self.available, self.note = availability(state)
        changed = state.status_change or state.attitude_change if state else None
        self.change = change_handle(changed) if changed else None
        details = view.changes[changed].details if changed in view.changes else {}
        self.details = detail_text(details, view.entities) if changed else ""

    def header(self) -> str:
        status = f"{self.status} (assumed)" if self.status and self.assumed else self.status
        parts = [status or "status unknown"]
        if self.note:
            parts.append(self.note)
        if self.details:
            parts.append(self.details)
        return "; ".join(parts)


@dataclass(frozen=True)
class Neighbourhood:
    """Every entity's relations, source chunks and changes, gathered in one pass over a view
    and kept for the view's lifetime (see ``of``); each entity's lists are put in order the
    first time they are read (relations by type, chunks about it first)."""

    relations: dict[str, list[Relation]]
    chunks: dict[str, list[tuple[int, Chunk]]]
    changes: dict[str, list[Change]]
    costs: dict[str, int] = field(default_factory=dict)
    """Tokens of each handle's full expansion, filled as previews count them."""
    ordered: set[str] = field(default_factory=set)
    lock: Lock = field(default_factory=Lock)
    """Sorting in place hides a list from other threads: readers of one view take turns."""

    @classmethod
    def of(cls, view: CampaignView) -> Neighbourhood:
        """The view's neighbourhood, built on first use; the service keeps its views, so a
        warm preview pays a lookup (the memo holds the view, so its ``id`` stays unique)."""
        with _MEMO_LOCK:
            kept = _MEMO.get(id(view))
            if kept is not None and kept[0] is view:
                return kept[1]
            built = cls._build(view)
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.pop(next(iter(_MEMO)))
            _MEMO[id(view)] = (view, built)
            return built

    @classmethod
    def _build(cls, view: CampaignView) -> Neighbourhood:
        relations: dict[str, list[Relation]] = {}
        for r in view.relations:
            relations.setdefault(r.source, []).append(r)
            if r.target != r.source:
                relations.setdefault(r.target, []).append(r)
        chunks: dict[str, list[tuple[int, Chunk]]] = {}
        for chunk in view.chunks.values():
            if chunk.visibility in view.visibilities:
                for entity_id in {chunk.subject or "", *chunk.mentions} - {""}:
                    chunks.setdefault(entity_id, []).append((chunk.subject != entity_id, chunk))
        return cls(relations, chunks, changes_by_entity(view))

    def _order(self, entity_id: str) -> None:
        if entity_id not in self.ordered:
            self.relations.get(entity_id, []).sort(key=lambda r: (r.type, r.source, r.target))
            self.chunks.get(entity_id, []).sort(key=_citation_order)
            self.ordered.add(entity_id)

    def relations_of(self, entity_id: str) -> list[Relation]:
        with self.lock:
            self._order(entity_id)
            return list(self.relations.get(entity_id, []))

    def chunks_of(self, entity_id: str) -> list[Chunk]:
        with self.lock:
            self._order(entity_id)
            return [chunk for _, chunk in self.chunks.get(entity_id, [])]

    def changes_of(self, entity_id: str) -> list[Change]:
        return self.changes.get(entity_id, [])


def _citation_order(pair: tuple[int, Chunk]) -> tuple[int, str, int, str]:
    rank, chunk = pair
    return (rank, chunk.source_path, chunk.start, chunk.id)


_MEMO_SIZE = 8  # views: GM and player, now and a few as-of sessions
_MEMO: dict[int, tuple[CampaignView, Neighbourhood]] = {}
_MEMO_LOCK = Lock()


def _end_name(entity_id: str, view: CampaignView) -> str:
    if entity_id == PARTY_ID:
        return "the party"
    return view.entities[entity_id].name if entity_id in view.entities else "?"


def relation_text(relation: Relation, view: CampaignView) -> str:
    source, target = _end_name(relation.source, view), _end_name(relation.target, view)
    attitude = f" ({relation.attitude})" if relation.attitude else ""
    return f"{source} {relation.type} {target}{attitude}"


def key_relations(view: CampaignView, entity_id: str, near: Neighbourhood) -> tuple[str, ...]:
    return tuple(relation_text(r, view) for r in near.relations_of(entity_id)[:KEY_RELATIONS])


def _relation_cites(
    relation: Relation, view: CampaignView, fallback: tuple[str, ...]
) -> tuple[str, ...]:
    if relation.change_id and relation.change_id in view.changes:
        return (change_handle(relation.change_id),)
    if relation.chunk_id and relation.chunk_id in view.chunks:
        return (passage_handle(relation.chunk_id),)
    return fallback


def _facts(
    view: CampaignView, entity_id: str, cites: tuple[str, ...], near: Neighbourhood
) -> list[ContextLine]:
    entity = view.entities[entity_id]
    lines = [
        ContextLine(
            section="fact", text=relation_text(r, view), cites=_relation_cites(r, view, cites)
        )
        for r in near.relations_of(entity_id)
    ]
    lines += [
        ContextLine(
            section="fact", text=f"{entity.name} {key}: {entity.attributes[key]}", cites=cites
        )
        for key in sorted(entity.attributes)
    ]
    return lines[:FACTS]


def _summary(view: CampaignView, entity_id: str, cites: tuple[str, ...]) -> list[ContextLine]:
    entity = view.entities[entity_id]
    lines = []
    if entity.description:
        lines.append(
            ContextLine(section="summary", text=" ".join(entity.description.split()), cites=cites)
        )
    lines += [  # derived from the prose this view holds, each sentence citing its passage
        ContextLine(section="summary", text=s.text, cites=(passage_handle(s.chunk_id),))
        for s in view.profile(entity_id)
    ]
    if entity.gm_notes:  # empty in a player view: build_view redacts it
        lines.append(
            ContextLine(section="summary", text=f"GM notes: {entity.gm_notes}", cites=cites)
        )
    return lines


def expand_entity(
    view: CampaignView, entity_id: str, near: Neighbourhood | None = None
) -> Expansion:
    near = near or Neighbourhood.of(view)
    entity = view.entities[entity_id]
    chunks = near.chunks_of(entity_id)
    cites = (passage_handle(chunks[0].id),) if chunks else (entity_handle(entity_id),)
    excerpts = [
        ContextLine(
            section="excerpt", text=clip(c.text, EXCERPT_CHARS), cites=(passage_handle(c.id),)
        )
        for c in chunks[:EXCERPTS]
    ]
    return Expansion(
        handle=entity_handle(entity_id),
        kind="entity",
        type=entity.type,
        name=entity.name,
        header=EntityStatus(view, entity_id).header(),
        lines=(
            *_summary(view, entity_id, cites),
            *_facts(view, entity_id, cites, near),
            *change_lines(view, near.changes_of(entity_id)),
            *excerpts,
        ),
    )


def entity_gist(view: CampaignView, entity_id: str) -> str:
    return gist(view.entities[entity_id].description or view.profile_text(entity_id), GIST_CHARS)
