"""Which revision of each session is in effect, read from the change-set records.

A session's records are its posted revisions (content) and its withdrawals. A withdrawal is a
revision of its own that holds no changes; it names the revision it withdraws and the session
``at_session`` from which it takes effect. As of session N, a session's effective revision is
its latest posted revision that no withdrawal with ``at_session <= N`` took back (with no N:
any withdrawal). Withdrawing the latest revision of an amended session therefore brings the
revision before it back into effect; withdrawing the only one leaves the session with no
effect at all. Nothing is ever deleted, so every earlier as-of view stays as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from graphrag_core.models import ChangeSetRecord

__all__ = ["effective_revisions", "live_posts", "withdrawn"]


def withdrawn(records: Iterable[ChangeSetRecord]) -> dict[tuple[int, int], ChangeSetRecord]:
    """(session, withdrawn revision) → the withdrawal that took it back."""
    return {
        (record.session_id, record.withdraws): record
        for record in records
        if record.withdraws is not None
    }


def live_posts(records: Sequence[ChangeSetRecord], session_id: int) -> list[ChangeSetRecord]:
    """The posted revisions of ``session_id`` that no withdrawal took back, oldest first."""
    gone = withdrawn(records)
    return [
        record
        for record in records
        if record.session_id == session_id
        and not record.is_withdrawal
        and (session_id, record.revision) not in gone
    ]


def effective_revisions(
    records: Iterable[ChangeSetRecord], as_of_session: int | None = None
) -> dict[int, int]:
    """Session → the revision whose changes are in effect as of ``as_of_session`` (sessions
    with none in effect are absent)."""
    records = list(records)
    gone = {
        key: record.at_session if record.at_session is not None else 0
        for key, record in withdrawn(records).items()
    }
    latest: dict[int, int] = {}
    for record in records:
        if record.is_withdrawal:
            continue
        at = gone.get((record.session_id, record.revision))
        if at is not None and (as_of_session is None or at <= as_of_session):
            continue
        if latest.get(record.session_id, 0) < record.revision:
            latest[record.session_id] = record.revision
    return latest
