"""Withdrawing change-set revisions (changelog.posting, changelog.revisions), the overlay that
reads the records, and the difference a conflicting post reports (changelog.diff)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from changelog.diff import changeset_difference
from changelog.impact import RebuildPolicy
from changelog.overlay import effective_changes, effective_states
from changelog.posting import plan_post, plan_withdraw
from changelog.revisions import effective_revisions
from graphrag_core.errors import ChangelogError, WithdrawalError
from graphrag_core.models import Change, ChangeSetRecord, Entity
from graphrag_core.services.withdrawal import WithdrawResult, withdraw_changeset
from tests.memory_store import MemoryStore

ALL = ("gm", "party")
TORVEN = {"torven": Entity(id="torven", name="Torven", type="NPC", status="alive")}


def post(session: int, revision: int, digest: str = "") -> ChangeSetRecord:
    return ChangeSetRecord(
        session_id=session,
        revision=revision,
        content_hash=digest or f"h{session}.{revision}",
        source=f"s{session}.yaml",
        posted_at="2026-01-01T00:00:00Z",
        change_count=1,
    )


def withdrawal(session: int, revision: int, withdraws: int, at: int) -> ChangeSetRecord:
    return ChangeSetRecord(
        session_id=session,
        revision=revision,
        content_hash=f"withdraws:{withdraws}",
        source="cli",
        posted_at="2026-01-02T00:00:00Z",
        withdraws=withdraws,
        at_session=at,
    )


def status(session: int, revision: int, value: str, entity: str = "torven", **kw: object) -> Change:
    return Change.model_validate(
        {
            "id": f"s{session}-r{revision}-1",
            "session_id": session,
            "revision": revision,
            "seq": 1,
            "kind": "entity_status",
            "entity_id": entity,
            "field": "status",
            "new_value": value,
            **kw,
        }
    )


# ---------------------------------------------------------------- which revision counts, when


def test_a_withdrawn_revision_counts_from_its_at_session_on() -> None:
    records = [post(4, 1), post(6, 1), withdrawal(4, 2, 1, at=6)]
    assert effective_revisions(records) == {6: 1}
    assert effective_revisions(records, as_of_session=5) == {4: 1, 6: 1}  # 6: cut later
    assert effective_revisions(records, as_of_session=6) == {6: 1}


def test_withdrawing_an_amendment_brings_the_revision_before_it_back() -> None:
    records = [post(4, 1), post(4, 2), withdrawal(4, 3, 2, at=4)]
    assert effective_revisions(records) == {4: 1}


def test_a_withdrawn_session_holds_no_state_but_as_of_before_it_does() -> None:
    changes = [status(4, 1, "missing"), status(7, 1, "captured", entity="red-oak")]
    records = [post(4, 1), post(7, 1), withdrawal(4, 2, 1, at=7)]
    now = effective_states(TORVEN, changes, visibilities=ALL, records=records)
    before = effective_states(TORVEN, changes, visibilities=ALL, records=records, as_of_session=6)
    assert now["torven"].status == "alive" and now["torven"].status_change is None
    assert before["torven"].status == "missing"
    # without records the overlay cannot know: the withdrawn change would count
    assert effective_states(TORVEN, changes, visibilities=ALL)["torven"].status == "missing"


def test_an_amendment_without_changes_supersedes_when_records_are_read() -> None:
    changes = [status(4, 1, "missing")]
    assert effective_changes(changes, visibilities=ALL, records=[post(4, 1), post(4, 2)]) == []


# ---------------------------------------------------------------- the withdrawal decision


def test_withdraw_defaults_to_the_latest_live_revision_at_the_latest_session() -> None:
    plan = plan_withdraw([post(4, 1), post(4, 2), post(9, 1)], 4, None, None)
    assert (plan.revision, plan.withdrawn.revision, plan.at_session) == (3, 2, 9)


def test_withdraw_of_the_latest_session_takes_effect_at_it() -> None:
    plan = plan_withdraw([post(2, 1), post(4, 1)], 4, None, None)
    assert plan.at_session == 4


@pytest.mark.parametrize(
    ("session", "revision", "missing", "says"),
    [
        (9, None, True, "session 9 has no posted change set"),
        (4, 7, True, "session 4 has no revision 7 (it has r1, r2)"),
        (4, 1, False, "revision 1 of session 4 is already withdrawn"),
        (4, 2, False, "revision 2 of session 4 is itself a withdrawal"),
        (4, None, False, "every revision of session 4 is already withdrawn"),
    ],
)
def test_nothing_to_withdraw_is_refused(
    session: int, revision: int | None, missing: bool, says: str
) -> None:
    with pytest.raises(WithdrawalError) as info:
        plan_withdraw([post(4, 1), withdrawal(4, 2, 1, at=4)], session, revision, None)
    assert info.value.missing is missing and str(info.value).startswith(says)


def test_a_withdrawal_before_its_session_is_refused() -> None:
    with pytest.raises(ChangelogError, match="at_session 3 is before session 4"):
        plan_withdraw([post(4, 1)], 4, None, 3)


def test_posting_again_after_a_withdrawal_is_a_new_revision_then_a_duplicate() -> None:
    records = [post(4, 1, "a"), withdrawal(4, 2, 1, at=4)]
    plan = plan_post(records, 4, "a", amend=False)
    assert (plan.action, plan.revision) == ("new", 3)
    assert plan_post([*records, post(4, 3, "a")], 4, "a", amend=False).action == "duplicate"
    other = plan_post(records, 4, "b", amend=False)  # nothing live: no conflict either
    assert (other.action, other.revision) == ("new", 3)


# ---------------------------------------------------------------- the conflict's difference


def test_the_difference_names_each_update_either_side_lacks_or_sets_otherwise() -> None:
    stored = [status(4, 1, "missing"), status(4, 1, "intact", entity="red-oak", seq=2)]
    stored[1] = stored[1].model_copy(update={"id": "s4-r1-2", "visibility": "gm"})
    posted = [status(4, 2, "dead"), status(4, 2, "owned", entity="mira")]
    names = {"torven": "Torven", "red-oak": "Red Oak", "mira": "Mira"}
    diff = changeset_difference(post(4, 1), stored, posted, names)
    assert diff.summary == (
        "posted has Mira status 'owned', the stored one lacks it",
        "stored has Red Oak status 'intact (GM-only)', the posted one lacks it",
        "Torven status: stored 'missing', posted 'dead'",
    )
    assert diff.message().startswith("session 4 was already posted with different content")
    hidden = diff.for_gm(False)
    assert [u.entity for u in hidden.updates] == ["Mira", "Torven"] and hidden.hidden == 1
    assert not any("Red Oak" in line for line in hidden.summary)
    assert "1 GM-only stored update(s) differ too" in hidden.message(limit=5)


# ---------------------------------------------------------------- the service function


def _store() -> MemoryStore:
    store = MemoryStore(dimension=4)
    store.append_changeset("c", post(4, 1), [status(4, 1, "missing")])
    store.append_changeset("c", post(4, 2), [status(4, 2, "dead")])
    store.append_changeset("c", post(6, 1), [status(6, 1, "damaged", entity="red-oak")])
    return store


def _withdraw(store: MemoryStore, revision: int | None, since: int = 0) -> WithdrawResult:
    return withdraw_changeset(
        store,
        "c",
        4,
        revision=revision,
        at_session=None,
        note="",
        by="test",
        now=datetime(2026, 1, 3, tzinfo=UTC),
        importance={"torven": 2.0},
        policy=RebuildPolicy(
            schedule_threshold=30.0, force_threshold=100.0, min_sessions_between=0
        ),
        since_session=since,
    )


def test_withdrawing_a_superseded_revision_moves_nothing() -> None:
    store = _store()
    before = store.campaign_revision("c")
    done = _withdraw(store, 1)
    assert (done.revision, done.withdrawn_revision, done.in_effect_revision) == (3, 1, 2)
    assert (done.impact, done.cumulative_impact, done.rebuild) == (0.0, 25.0, "none")
    assert (
        store.campaign_revision("c") == before + 1 and store.load_changesets("c")[2].withdraws == 1
    )


def test_withdrawing_the_latest_counts_both_what_leaves_and_what_comes_back() -> None:
    done = _withdraw(_store(), None)  # r2 (dead: 2 x 10) leaves, r1 (missing: 2 x 5) is back
    assert (done.withdrawn_revision, done.in_effect_revision, done.at_session) == (2, 1, 6)
    assert (done.impact, done.cumulative_impact, done.rebuild) == (30.0, 15.0, "scheduled")


def test_a_withdrawal_the_last_build_summarised_counts_in_full() -> None:
    since = _withdraw(_store(), None, since=5)  # session 4 is in the last build
    # only session 6 (5.0) since the build; the withdrawal's 30 makes the summaries stale
    assert (since.cumulative_impact, since.impact, since.rebuild) == (5.0, 30.0, "scheduled")
