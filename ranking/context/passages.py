"""One passage (a chunk of a source): its preview and its expansion (the whole text, the
status of what it is about and of the unavailable entities it names)."""

from __future__ import annotations

from graphrag_core.models import CampaignView, Chunk
from ranking.context.handles import change_handle, passage_handle
from ranking.context.models import ContextLine, Expansion
from ranking.status import availability, effective_state
from ranking.text import clip

GIST_CHARS = 140


def passage_name(chunk: Chunk) -> str:
    return f"{chunk.source_path} § {chunk.heading}" if chunk.heading else chunk.source_path


def passage_gist(chunk: Chunk) -> str:
    return clip(chunk.text, GIST_CHARS)


def _status_lines(view: CampaignView, chunk: Chunk) -> list[ContextLine]:
    lines = []
    for entity_id in dict.fromkeys((chunk.subject or "", *chunk.mentions)):
        if entity_id not in view.entities:
            continue
        state = effective_state(view, entity_id)
        available, note = availability(state)
        if available or state is None:
            continue
        changed = state.status_change or state.attitude_change
        cites = (change_handle(changed),) if changed else (passage_handle(chunk.id),)
        name = view.entities[entity_id].name
        lines.append(ContextLine(section="fact", text=f"{name} is now {note}", cites=cites))
    return lines


def expand_passage(view: CampaignView, chunk: Chunk) -> Expansion:
    handle = passage_handle(chunk.id)
    text = ContextLine(section="excerpt", text=" ".join(chunk.text.split()), cites=(handle,))
    return Expansion(
        handle=handle,
        kind="passage",
        type="passage",
        name=passage_name(chunk),
        header=f"from {chunk.source_path}",
        lines=(*_status_lines(view, chunk), text),
    )
