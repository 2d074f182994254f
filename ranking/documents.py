"""The searchable text of each item of a campaign view, and the keys that name items.

An entity's document is its name, aliases, type, description and attribute values; in a GM view
(``"gm" in view.visibilities``) its secret aliases and notes join it, so a game master can find
"the Masked Lord" by the name only the GM knows, while a player view never indexes them. A
chunk's document is its heading path and its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal, NamedTuple

from graphrag_core.models import CampaignView, Chunk, Entity
from graphrag_core.ports import SearchKind

SEARCH_KINDS: tuple[SearchKind, ...] = ("entity", "chunk")
"""The kinds of searchable item, in the order results list them on ties."""


ItemKind = Literal["entity", "chunk", "community"]


class ItemKey(NamedTuple):
    """Names one ranked item: entity, chunk and community ids live in separate namespaces."""

    kind: ItemKind
    id: str


class Document(NamedTuple):
    key: ItemKey
    text: str


def is_gm_view(view: CampaignView) -> bool:
    return "gm" in view.visibilities


def entity_document(entity: Entity, *, gm: bool) -> str:
    """Name, aliases, type, description, attribute values; GM aliases and notes for a GM."""
    parts = [entity.name, *entity.aliases, entity.type, entity.description]
    if gm:
        parts.extend((*entity.gm_aliases, entity.gm_notes))
    parts.extend(entity.attributes[name] for name in sorted(entity.attributes))
    return "\n".join(part for part in parts if part)


def chunk_document(chunk: Chunk) -> str:
    return f"{chunk.heading}\n{chunk.text}" if chunk.heading else chunk.text


def view_documents(view: CampaignView, kind: SearchKind) -> Iterator[Document]:
    """Every visible item of one kind, in id order (so indexes are deterministic)."""
    if kind == "entity":
        gm = is_gm_view(view)
        for entity_id in sorted(view.entities):
            entity = view.entities[entity_id]
            if entity.visibility in view.visibilities:
                yield Document(ItemKey("entity", entity_id), entity_document(entity, gm=gm))
        return
    for chunk_id in sorted(view.chunks):
        chunk = view.chunks[chunk_id]
        if chunk.visibility in view.visibilities:
            yield Document(ItemKey("chunk", chunk_id), chunk_document(chunk))


def in_view(view: CampaignView, key: ItemKey) -> bool:
    """True when the entity or chunk exists in the view and the view's audience may see it
    (community summaries are the audience's own: see :mod:`ranking.communities`)."""
    if key.kind == "community":
        return False
    item: Entity | Chunk | None = (
        view.entities.get(key.id) if key.kind == "entity" else view.chunks.get(key.id)
    )
    return item is not None and item.visibility in view.visibilities


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*(?:[-*+>#|]|\d+[.)]\s))")
_LINE = re.compile(r"\n")


def sentences(text: str) -> list[str]:
    """The sentences of a passage: a sentence ends at its stop, a blank line, a heading line
    or before a list item; a soft line break inside a hard-wrapped paragraph does not end it
    ("a man called⏎Silas Crane" is one sentence)."""
    found: list[str] = []
    for line_block in _heading_blocks(text):
        found += [s for s in _SENTENCE_END.split(line_block) if s.strip()]
    return found


def _heading_blocks(text: str) -> list[str]:
    """``text`` split after each Markdown heading line (a heading is a sentence of its own)."""
    blocks: list[str] = []
    current: list[str] = []
    for line in _LINE.split(text):
        if line.lstrip().startswith("#"):
            blocks += ["\n".join(current), line]
            current = []
        else:
            current.append(line)
    return [b for b in [*blocks, "\n".join(current)] if b.strip()]
