"""The idempotent posting decision (changelog.posting)."""

from __future__ import annotations

import pytest

from changelog.posting import plan_post
from graphrag_core.errors import ChangelogConflictError
from graphrag_core.models import ChangeSetRecord


def record(session: int, revision: int, digest: str) -> ChangeSetRecord:
    return ChangeSetRecord(
        session_id=session,
        revision=revision,
        content_hash=digest,
        source=f"recap-{session}-{revision}.yaml",
        posted_at="2026-01-01T00:00:00Z",
    )


def test_first_post_is_new_revision_one() -> None:
    plan = plan_post([record(11, 1, "x")], 12, "a", amend=False)
    assert (plan.action, plan.revision, plan.writes, plan.previous) == ("new", 1, True, None)


@pytest.mark.parametrize("amend", [False, True])
def test_same_content_is_a_duplicate(amend: bool) -> None:
    existing = [record(12, 1, "a"), record(12, 2, "b")]
    plan = plan_post(existing, 12, "a", amend=amend)
    assert (plan.action, plan.revision, plan.writes) == ("duplicate", 1, False)


def test_different_content_without_amend_conflicts() -> None:
    with pytest.raises(ChangelogConflictError) as info:
        plan_post([record(12, 1, "a")], 12, "b", amend=False)
    assert str(info.value) == (
        "session 12 was already posted with different content (revision 1, recap-12-1.yaml); "
        "pass --amend to post a correction that supersedes it"
    )


def test_amend_takes_the_next_revision() -> None:
    existing = [record(12, 1, "a"), record(12, 2, "b"), record(13, 5, "c")]
    plan = plan_post(existing, 12, "d", amend=True)
    assert (plan.action, plan.revision) == ("amend", 3)
    assert plan.previous == existing[1]


def test_amend_of_a_new_session_is_just_new() -> None:
    assert plan_post([], 3, "a", amend=True).action == "new"
