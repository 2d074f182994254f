"""When each entity was last in play, in sessions, and the recency signal that decays with it.

``last_sessions(view)`` reads what the view holds: the session of every effective change that
touches an entity (as subject or target), the sessions the view's session stamps say each
entity was mentioned in (``view.mentioned_sessions``), and the session of every session record
(a recap chunk: its ``session`` stamp, else its file name, ``session-07.md``) that is about or
names it; ``merge_sessions`` folds in any other source of the same mapping (entity id → last
session).

``recency = 0.5 ** ((now - last) / half_life)``: 1 for something that changed in the latest
session, 0.5 ``half_life`` sessions earlier, 0 for what no session ever touched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from graphrag_core.models import CampaignView, Chunk

_RECAP_FILE = re.compile(r"(?:^|/)session[\s_-]*0*(\d+)[^/]*$", re.IGNORECASE)


def chunk_session(chunk: Chunk) -> int | None:
    """The session a session-record chunk belongs to (its stamp, else its file name)."""
    if chunk.session is not None:
        return chunk.session
    return _file_session(chunk.source_path)


@lru_cache(maxsize=4096)
def _file_session(path: str) -> int | None:
    """The session a recap's file name gives (read once per path: the ranker asks it of every
    candidate passage)."""
    match = _RECAP_FILE.search(path)
    return int(match.group(1)) if match else None


def _touch(found: dict[str, int], entity_id: str | None, session: int) -> None:
    if entity_id is not None and found.get(entity_id, -1) < session:
        found[entity_id] = session


def last_sessions(view: CampaignView) -> dict[str, int]:
    """Entity id → the last session a change or a session record touched it."""
    found: dict[str, int] = {}
    for change in view.changes.values():
        _touch(found, change.entity_id, change.session_id)
        _touch(found, change.target_id, change.session_id)
    for mentioned, sessions in view.mentioned_sessions.items():
        if sessions:
            _touch(found, mentioned, sessions[-1])
    for chunk in view.chunks.values():
        session = chunk_session(chunk)
        if session is None or (view.as_of_session is not None and session > view.as_of_session):
            continue
        for entity_id in (chunk.subject, *chunk.mentions):
            _touch(found, entity_id, session)
    return found


def merge_sessions(*sources: Mapping[str, int]) -> dict[str, int]:
    """Entity id → the latest session any source gives."""
    merged: dict[str, int] = {}
    for source in sources:
        for entity_id, session in source.items():
            _touch(merged, entity_id, session)
    return merged


def current_session(view: CampaignView, last: Mapping[str, int]) -> int | None:
    """The session the view stands at: ``as_of_session``, else the latest one known."""
    if view.as_of_session is not None:
        return view.as_of_session
    return max(last.values(), default=None)


def decayed(last: int | None, now: int | None, half_life: float) -> float:
    """``0.5 ** ((now - last) / half_life)``; 0 when either is unknown."""
    if last is None or now is None:
        return 0.0
    return float(0.5 ** (max(now - last, 0) / half_life))
