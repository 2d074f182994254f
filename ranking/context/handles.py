"""Stable handles: ``e:<entity id>``, ``c:<community id>``, ``p:<chunk id>``, and ``ch:<change
id>`` for citing a change. Ids are stable across processes and rebuilds (entity slugs, chunk ids
from path + ordinal + content hash, change ids from session, revision and order, community ids
reused by the warm-started rebuild), so a handle is too."""

from __future__ import annotations

from typing import NamedTuple

from graphrag_core.errors import RequestError
from ranking.context.models import ItemKind

_PREFIX: dict[str, ItemKind] = {"e": "entity", "c": "community", "p": "passage"}
_KIND_PREFIX = {kind: prefix for prefix, kind in _PREFIX.items()}


class Handle(NamedTuple):
    kind: ItemKind
    id: str

    def __str__(self) -> str:
        return f"{_KIND_PREFIX[self.kind]}:{self.id}"


def entity_handle(entity_id: str) -> str:
    return f"e:{entity_id}"


def community_handle(community_id: str) -> str:
    return f"c:{community_id}"


def passage_handle(chunk_id: str) -> str:
    return f"p:{chunk_id}"


def change_handle(change_id: str) -> str:
    return f"ch:{change_id}"


def parse_handle(text: str) -> Handle:
    """``e:torven`` → Handle("entity", "torven"); a clear error for anything else."""
    prefix, sep, ident = text.strip().partition(":")
    if not sep or prefix not in _PREFIX or not ident:
        raise RequestError(
            f"{text!r} is not a handle: use e:<entity id>, c:<community id> or p:<chunk id> "
            "as `loregraph preview` prints them"
        )
    return Handle(_PREFIX[prefix], ident)
