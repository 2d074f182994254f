"""The pure decisions behind idempotent posting and append-only withdrawing of session change
sets.

Posting the same content twice changes nothing; posting different content for a session that
was already posted is a conflict unless the caller asks to amend, in which case the new revision
supersedes every earlier one of that session (see ``changelog.overlay``). A withdrawn revision
no longer counts for either: posting its content again after a withdrawal is a new revision, and
a session whose every posted revision was withdrawn takes any content as new.

Withdrawing records a new revision of the session that names the revision it takes back (the
latest live one by default) and the session from which that holds (see ``changelog.revisions``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from changelog.revisions import live_posts
from graphrag_core.errors import ChangelogConflictError, ChangelogError, WithdrawalError
from graphrag_core.models import ChangeSetRecord

__all__ = ["PostAction", "PostPlan", "WithdrawPlan", "latest_live", "plan_post", "plan_withdraw"]

PostAction = Literal["duplicate", "new", "amend"]


class PostPlan(BaseModel):
    """What to do with a change set about to be posted."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: PostAction = Field(
        description="duplicate: already stored, write nothing; new: first live revision of the "
        "session; amend: a correction superseding the earlier revisions."
    )
    session_id: int
    revision: int = Field(description="Revision to write; for a duplicate, the stored one.")
    content_hash: str
    previous: ChangeSetRecord | None = Field(
        default=None, description="The matching record (duplicate) or the latest one (amend)."
    )

    @property
    def writes(self) -> bool:
        return self.action != "duplicate"


class WithdrawPlan(BaseModel):
    """The withdrawal record to write: revision ``revision`` of the session takes back
    ``withdrawn``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    session_id: int
    revision: int
    withdrawn: ChangeSetRecord
    at_session: int


def plan_post(
    existing: Sequence[ChangeSetRecord],
    session_id: int,
    content_hash: str,
    *,
    amend: bool,
) -> PostPlan:
    """Decide whether a change set is a duplicate, a new session or an amendment.

    ``existing`` may hold records of any session; only ``session_id``'s count. Raises
    ``ChangelogConflictError`` when the session's live revision has other content and ``amend``
    is false.
    """
    live = live_posts(existing, session_id)
    same = [record for record in live if record.content_hash == content_hash]
    if same:
        match = max(same, key=lambda record: record.revision)
        return _plan("duplicate", session_id, content_hash, match.revision, match)
    following = _next_revision(existing, session_id)
    if not live:
        return _plan("new", session_id, content_hash, following, None)
    latest = max(live, key=lambda record: record.revision)
    if not amend:
        raise ChangelogConflictError(
            f"session {session_id} was already posted with different content "
            f"(revision {latest.revision}, {latest.source}); pass --amend to post a correction "
            "that supersedes it"
        )
    return _plan("amend", session_id, content_hash, following, latest)


def latest_live(existing: Sequence[ChangeSetRecord], session_id: int) -> ChangeSetRecord | None:
    """The session's latest posted revision that no withdrawal took back."""
    live = live_posts(existing, session_id)
    return max(live, key=lambda record: record.revision) if live else None


def plan_withdraw(
    existing: Sequence[ChangeSetRecord],
    session_id: int,
    revision: int | None,
    at_session: int | None,
) -> WithdrawPlan:
    """Which record to write to withdraw ``revision`` of ``session_id`` (None: its latest live
    revision), taking effect from ``at_session`` (None: the campaign's latest posted session,
    and never before the withdrawn session itself).

    Raises ``WithdrawalError`` when there is nothing to withdraw, and ``ChangelogError`` (its
    parent) for an ``at_session`` before the withdrawn session."""
    mine = [record for record in existing if record.session_id == session_id]
    if not mine:
        raise WithdrawalError(
            f"session {session_id} has no posted change set; nothing was withdrawn "
            "(`loregraph changelog list` shows the posted ones)",
            missing=True,
        )
    target = _target(existing, mine, session_id, revision)
    latest_session = max(record.session_id for record in existing)
    at = at_session if at_session is not None else max(latest_session, session_id)
    if at < session_id:
        raise ChangelogError(
            f"at_session {at} is before session {session_id}: a withdrawal takes effect in "
            "or after the session it withdraws; nothing was withdrawn"
        )
    return WithdrawPlan(
        session_id=session_id,
        revision=_next_revision(existing, session_id),
        withdrawn=target,
        at_session=at,
    )


def _target(
    existing: Sequence[ChangeSetRecord],
    mine: Sequence[ChangeSetRecord],
    session_id: int,
    revision: int | None,
) -> ChangeSetRecord:
    live = live_posts(existing, session_id)
    if revision is None:
        if not live:
            raise WithdrawalError(
                f"every revision of session {session_id} is already withdrawn; nothing was "
                "withdrawn",
                missing=False,
            )
        return max(live, key=lambda record: record.revision)
    found = next((record for record in mine if record.revision == revision), None)
    if found is None:
        known = ", ".join(f"r{record.revision}" for record in mine)
        raise WithdrawalError(
            f"session {session_id} has no revision {revision} (it has {known}); nothing was "
            "withdrawn",
            missing=True,
        )
    if found.is_withdrawal:
        raise WithdrawalError(
            f"revision {revision} of session {session_id} is itself a withdrawal (of revision "
            f"{found.withdraws}); post the change set again to restore it",
            missing=False,
        )
    if found not in live:
        raise WithdrawalError(
            f"revision {revision} of session {session_id} is already withdrawn; nothing was "
            "withdrawn",
            missing=False,
        )
    return found


def _next_revision(existing: Sequence[ChangeSetRecord], session_id: int) -> int:
    revisions = [record.revision for record in existing if record.session_id == session_id]
    return max(revisions, default=0) + 1


def _plan(
    action: PostAction,
    session_id: int,
    digest: str,
    revision: int,
    previous: ChangeSetRecord | None,
) -> PostPlan:
    return PostPlan(
        action=action,
        session_id=session_id,
        revision=revision,
        content_hash=digest,
        previous=previous,
    )
