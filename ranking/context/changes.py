"""Changes as cited lines: what changed, in which session, with its details in words
(``killed_by: Ashen Choir; note: fell defending the gate``). The view has already removed the
details a player may not read, so every detail shown here is one the audience may see."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphrag_core.models import CampaignView, Change, Entity
from ranking.context.handles import change_handle
from ranking.context.models import ContextLine

RECENT_CHANGES = 10
"""At most this many changes per expanded entity, newest first."""


def _name(value: object, entities: Mapping[str, Entity]) -> str:
    text = str(value)
    entity = entities.get(text)
    return entity.name if entity else text


def detail_text(details: Mapping[str, object], entities: Mapping[str, Entity]) -> str:
    """``{"killed_by": ["ashen-choir"], "note": "…"}`` → ``killed_by: Ashen Choir; note: …``."""
    parts = []
    for key in sorted(details):
        value = details[key]
        values = value if isinstance(value, list | tuple) else [value]
        shown = ", ".join(_name(v, entities) for v in values if v not in (None, ""))
        if shown:
            parts.append(f"{key}: {shown}")
    return "; ".join(parts)


def change_text(change: Change, view: CampaignView) -> str:
    """One sentence about one change, in the audience's names."""
    subject = _name(change.entity_id, view.entities)
    if change.field == "relation":
        target_name = _name(change.target_id or "?", view.entities)
        verb = "started" if change.new_value == "start" else "ended"
        text = f"Session {change.session_id}: {subject} {change.relation_type} {target_name} {verb}"
        details = detail_text(change.details, view.entities)
        return f"{text} ({details})" if details else text
    target = f" toward {_name(change.target_id, view.entities)}" if change.target_id else ""
    relation = f" ({change.relation_type})" if change.relation_type else ""
    text = (
        f"Session {change.session_id}: {subject}{target}{relation} {change.field} "
        f"{change.old_value or '?'} → {change.new_value}"
    )
    details = detail_text(change.details, view.entities)
    return f"{text} ({details})" if details else text


def changes_by_entity(view: CampaignView) -> dict[str, list[Change]]:
    """The view's changes per entity they touch (subject or target), newest first."""
    found: dict[str, list[Change]] = {}
    for change in sorted(view.changes.values(), key=lambda c: (c.session_id, c.seq), reverse=True):
        for entity_id in {change.entity_id, change.target_id or change.entity_id}:
            found.setdefault(entity_id, []).append(change)
    return found


def change_lines(view: CampaignView, changes: Sequence[Change]) -> list[ContextLine]:
    """``changes`` (newest first) as cited lines, the ``RECENT_CHANGES`` newest."""
    return [
        ContextLine(section="change", text=change_text(c, view), cites=(change_handle(c.id),))
        for c in changes[:RECENT_CHANGES]
    ]
