"""Summaries never state a stale fact: a community finding citing an entity whose effective
state (status, attitude toward the party) differs from its state when the summary was written
is patched from the overlay — "Torven (dead since session 8) runs the potion stall" — and cites
the change that made it stale. Applied at query time in every surface that shows findings."""

from __future__ import annotations

import re
from collections.abc import Mapping

from graphrag_core.analytics_models import CommunityView, Finding
from graphrag_core.models import CampaignView, EffectiveState


def _key(state: EffectiveState | None) -> tuple[str | None, str | None]:
    return (state.status, state.attitude) if state else (None, None)


def _since(session: int | None, as_of: int | None) -> str:
    if session is not None:
        return f" since session {session}"
    return f" as of session {as_of}" if as_of is not None else ""


def stale_note(now: EffectiveState, as_of: int | None, then: EffectiveState | None) -> str:
    """``dead since session 8``; ``hostile to the party since session 5``; both, joined."""
    before = then or EffectiveState(entity_id=now.entity_id, status=None)
    parts = []
    if now.status != before.status:
        parts.append(f"{now.status or 'status unknown'}{_since(now.status_session, as_of)}")
    if now.attitude != before.attitude and (now.attitude or before.attitude):
        session = _change_session(now.attitude_change)
        parts.append(f"{now.attitude or 'no attitude'} to the party{_since(session, as_of)}")
    return ", ".join(parts)


def _change_session(change_id: str | None) -> int | None:
    match = re.match(r"^s(\d+)-", change_id or "")
    return int(match.group(1)) if match else None


def patch_finding(
    finding: Finding, view: CampaignView, written: Mapping[str, EffectiveState]
) -> Finding:
    """``finding`` with every changed entity it cites annotated, and its changes cited.
    ``written``: the states when the summary was written (the view as of the build's session)."""
    text, changes = finding.text, list(finding.change_ids)
    for entity_id in finding.entity_ids:
        now, entity = view.states.get(entity_id), view.entities.get(entity_id)
        if now is None or entity is None or _key(now) == _key(written.get(entity_id)):
            continue
        note = stale_note(now, view.as_of_session, written.get(entity_id))
        text = _annotate(text, entity.name, note)
        changes += [c for c in (now.status_change, now.attitude_change) if c in view.changes]
    if text == finding.text:
        return finding
    return finding.model_copy(update={"text": text, "change_ids": tuple(dict.fromkeys(changes))})


def _annotate(text: str, name: str, note: str) -> str:
    """The first mention of ``name`` followed by ``(note)``, or the note appended."""
    found = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE)
    if found is None:
        return f"{text.rstrip()} [{name}: {note}]"
    return f"{text[: found.end()]} ({note}){text[found.end() :]}"


def patch_findings(
    findings: tuple[Finding, ...], view: CampaignView, written: Mapping[str, EffectiveState]
) -> tuple[Finding, ...]:
    return tuple(patch_finding(f, view, written) for f in findings)


def patched_summary(findings: tuple[Finding, ...]) -> str:
    return " ".join(f.text for f in findings)


def patch_community(
    community: CommunityView, view: CampaignView, written: Mapping[str, EffectiveState]
) -> CommunityView:
    """The community with its findings (and so its summary) patched from the overlay."""
    findings = patch_findings(community.findings, view, written)
    if findings == community.findings:
        return community
    return community.model_copy(update={"findings": findings, "summary": patched_summary(findings)})
