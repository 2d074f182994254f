"""The pure decision behind idempotent posting of a session change set.

Posting the same content twice changes nothing; posting different content for a session that
was already posted is a conflict unless the caller asks to amend, in which case the new revision
supersedes every earlier one of that session (see ``changelog.overlay``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.errors import ChangelogConflictError
from graphrag_core.models import ChangeSetRecord

__all__ = ["PostAction", "PostPlan", "plan_post"]

PostAction = Literal["duplicate", "new", "amend"]


class PostPlan(BaseModel):
    """What to do with a change set about to be posted."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: PostAction = Field(
        description="duplicate: already stored, write nothing; new: first revision of the "
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


def plan_post(
    existing: Sequence[ChangeSetRecord],
    session_id: int,
    content_hash: str,
    *,
    amend: bool,
) -> PostPlan:
    """Decide whether a change set is a duplicate, a new session or an amendment.

    ``existing`` may hold records of any session; only ``session_id``'s count. Raises
    ``ChangelogConflictError`` when the session was posted with other content and ``amend`` is
    false.
    """
    mine = [record for record in existing if record.session_id == session_id]
    same = [record for record in mine if record.content_hash == content_hash]
    if same:
        match = max(same, key=lambda record: record.revision)
        return _plan("duplicate", session_id, content_hash, match.revision, match)
    if not mine:
        return _plan("new", session_id, content_hash, 1, None)
    latest = max(mine, key=lambda record: record.revision)
    if not amend:
        raise ChangelogConflictError(
            f"session {session_id} was already posted with different content "
            f"(revision {latest.revision}, {latest.source}); pass --amend to post a correction "
            "that supersedes it"
        )
    return _plan("amend", session_id, content_hash, latest.revision + 1, latest)


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
