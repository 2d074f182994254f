"""Withdrawing a posted change-set revision: append-only, under the campaign's posting lock.

The withdrawal is recorded as a new revision of the session (a ``ChangeSetRecord`` with
``withdraws`` and ``at_session``, holding no changes), written through the same port call as a
post, so it bumps the campaign revision and every cached view drops the withdrawn changes.

Impact: a withdrawal's ``impact`` is that of every change it moves in or out of effect (the
withdrawn revision's, and those of an earlier revision that comes back). Its rebuild decision
weighs the impact accumulated since the last rebuild *after* the withdrawal (the withdrawn
changes no longer count there) plus its own impact: taking back a change made since the last
rebuild about cancels out, taking back one the last rebuild already summarised counts in full.
Later posts count only the changes in effect, as always.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from changelog.impact import RebuildDecision, RebuildPolicy, rebuild_decision, total_impact
from changelog.overlay import effective_changes
from changelog.posting import plan_withdraw
from changelog.revisions import effective_revisions
from graphrag_core.errors import ChangelogError
from graphrag_core.input_safety import value_problem
from graphrag_core.models import Change, ChangeSetRecord
from graphrag_core.ports import GraphStore
from graphrag_core.services.changelog import accumulated

ALL = ("gm", "party")


class WithdrawResult(BaseModel):
    """What withdrawing a revision did. Counts only: never the withdrawn changes themselves."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    campaign: str
    session_id: int
    revision: int = Field(description="The withdrawal's own revision of the session.")
    withdrawn_revision: int
    at_session: int = Field(description="As-of views before this session still show it.")
    withdrawn_changes: int = Field(description="How many changes the withdrawn revision held.")
    in_effect_revision: int | None = Field(
        default=None,
        description="The session's revision in effect now (an earlier one, when the latest was "
        "withdrawn); null: none, the session has no effect.",
    )
    impact: float
    cumulative_impact: float
    rebuild: RebuildDecision


def withdraw_changeset(
    store: GraphStore,
    campaign: str,
    session_id: int,
    *,
    revision: int | None,
    at_session: int | None,
    note: str,
    by: str,
    now: datetime,
    importance: Mapping[str, float],
    policy: RebuildPolicy,
    since_session: int = 0,
) -> WithdrawResult:
    """Record the withdrawal of ``revision`` (None: the latest live one) of ``session_id``;
    raises ``WithdrawalError`` (nothing to withdraw) before anything is written."""
    if (problem := value_problem({"note": note, "by": by})) is not None:
        raise ChangelogError(f"{problem}; nothing was withdrawn")
    existing = store.load_changesets(campaign)
    plan = plan_withdraw(existing, session_id, revision, at_session)
    record = ChangeSetRecord(
        session_id=session_id,
        revision=plan.revision,
        content_hash=f"withdraws:{plan.withdrawn.revision}",
        source=by,
        posted_at=now.isoformat(),
        title=f"withdraws r{plan.withdrawn.revision}",
        withdraws=plan.withdrawn.revision,
        at_session=plan.at_session,
        note=note,
    )
    changes = store.load_changes(campaign)
    before = effective_changes(changes, visibilities=ALL, records=existing)
    store.append_changeset(campaign, record, [])
    after = effective_changes(changes, visibilities=ALL, records=[*existing, record])
    moved = _moved(before, after)
    impact = total_impact(moved, importance)
    cumulative, sessions = accumulated(after, importance, since_session)
    return WithdrawResult(
        campaign=campaign,
        session_id=session_id,
        revision=plan.revision,
        withdrawn_revision=plan.withdrawn.revision,
        at_session=plan.at_session,
        withdrawn_changes=plan.withdrawn.change_count,
        in_effect_revision=effective_revisions([*existing, record]).get(session_id),
        impact=impact,
        cumulative_impact=cumulative,
        rebuild=rebuild_decision(cumulative + impact, sessions, policy),
    )


def _moved(before: list[Change], after: list[Change]) -> list[Change]:
    """The changes in effect on one side only."""
    was = {c.id: c for c in before}
    now = {c.id: c for c in after}
    return [
        *(c for i, c in was.items() if i not in now),
        *(c for i, c in now.items() if i not in was),
    ]
