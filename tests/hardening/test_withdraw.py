"""Case 10, a change set posted by mistake: ``changelog withdraw SESSION [--revision R]`` takes
it back append-only. The withdrawal is itself a recorded revision of the session, stamped with
the session it holds from (``--at-session``, default the campaign's latest posted one):
``ask``/``entity`` now show the old state, ``--as-of`` before that session still shows the
withdrawn change, ``changelog list`` marks it, posting the session again restores it, and a
withdrawal with nothing to withdraw is a one-line error that writes nothing. Real CLI, real
embedded FalkorDB, real embedding model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from graphrag_core.ports import Embedder
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service
from tests.hardening.cli import changesets, invoke, refused

pytestmark = pytest.mark.integration

S4 = {
    "session_id": 4,
    "title": "Salt and smoke",
    "entity_updates": [{"entity_id": "Torven Blackwater", "status": "missing"}],
}
S6 = {"session_id": 6, "entity_updates": [{"entity_id": "Red Oak Tavern", "status": "damaged"}]}


def _post(env: dict[str, str], folder: Path, data: object, *args: str) -> str:
    path = folder / "session.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = invoke(env, "changelog", "post", str(path), *args)
    assert done.code == 0, done.output
    return done.output


def _status(env: dict[str, str], *args: str) -> str:
    done = invoke(env, "entity", "Torven", "--json", *args)
    assert done.code == 0, done.output
    status: str = json.loads(done.output)["status"]
    return status


def _digest(env: dict[str, str], embedder: Embedder) -> str:
    """Everything stored for the campaign's changelog, and its revision (a write bumps it)."""
    settings = Settings(data_dir=Path(env["LOREGRAPH_DATA_DIR"]))
    with open_service(settings, embedder=embedder) as service:
        store = service.store
        state = [
            [r.model_dump_json() for r in store.load_changesets("cli")],
            [c.model_dump_json() for c in store.load_changes("cli")],
            store.campaign_revision("cli"),
        ]
    return hashlib.sha256(json.dumps(state).encode()).hexdigest()


@pytest.fixture()
def posted(env: dict[str, str], world: Path, tmp_path: Path) -> dict[str, str]:
    assert invoke(env, "ingest", str(world), "--no-build").code == 0
    _post(env, tmp_path, S4)
    _post(env, tmp_path, S6)
    return env


def test_a_withdrawn_change_set_leaves_the_state_but_not_the_history(
    posted: dict[str, str],
) -> None:
    assert _status(posted) == "missing"
    done = invoke(posted, "changelog", "withdraw", "4", "--yes", "--note", "wrong table")
    assert done.code == 0, done.output
    assert "Withdrew session 4 revision 1" in done.output and "from session 6 on" in done.output
    assert _status(posted) == "alive"
    assert _status(posted, "--as-of", "5") == "missing"  # before the withdrawal: as it was
    assert _status(posted, "--as-of", "6") == "alive"
    asked = invoke(posted, "ask", "Where is Torven Blackwater?", "--json")
    assert asked.code == 0, asked.output
    found = [r for r in json.loads(asked.output)["results"] if r["name"] == "Torven Blackwater"]
    assert found and found[0]["status"] == "alive", asked.output
    records = changesets(posted)
    assert [(r["session_id"], r["revision"], r["withdraws"]) for r in records] == [
        (4, 1, None),
        (4, 2, 1),
        (6, 1, None),
    ]
    assert (records[1]["at_session"], records[1]["note"], records[1]["source"]) == (
        6,
        "wrong table",
        "cli",
    )
    listed = invoke(posted, "changelog", "list")
    assert "session 4 r1: 1 change(s)" in listed.output
    assert "[WITHDRAWN by r2, from session 6 on]" in listed.output
    assert "session 4 r2: withdraws r1 from session 6 on, by cli" in listed.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("4",), "every revision of session 4 is already withdrawn"),
        (("4", "--revision", "1"), "revision 1 of session 4 is already withdrawn"),
        (("4", "--revision", "2"), "is itself a withdrawal"),
        (("4", "--revision", "9"), "session 4 has no revision 9"),
        (("5",), "session 5 has no posted change set"),
        (("6", "--at-session", "3"), "at_session 3 is before session 6"),
        (("6", "--note", "a\x00b"), "NUL"),
    ],
)
def test_nothing_to_withdraw_is_one_line_and_writes_nothing(
    posted: dict[str, str], real_embedder: Embedder, args: tuple[str, ...], says: str
) -> None:
    assert invoke(posted, "changelog", "withdraw", "4", "--yes").code == 0
    before = _digest(posted, real_embedder)
    done = invoke(posted, "changelog", "withdraw", *args, "--yes")
    assert refused(done) and says in done.output, done.output
    assert len(done.output.strip().splitlines()) <= 3, done.output
    assert _digest(posted, real_embedder) == before


def test_a_declined_confirmation_withdraws_nothing(posted: dict[str, str]) -> None:
    from typer.testing import CliRunner

    from graphrag_core.surfaces.cli.app import app

    done = CliRunner().invoke(app, ["changelog", "withdraw", "4"], env=posted, input="n\n")
    assert done.exit_code == 1 and "Nothing withdrawn" in done.output, done.output
    assert len(changesets(posted)) == 2 and _status(posted) == "missing"


def test_posting_again_after_a_withdrawal_restores_it_once(
    posted: dict[str, str], tmp_path: Path
) -> None:
    assert invoke(posted, "changelog", "withdraw", "4", "--yes").code == 0
    assert "Posted session 4 (revision 3)" in _post(posted, tmp_path, S4)
    assert "already posted with this content (revision 3)" in _post(posted, tmp_path, S4)
    assert _status(posted) == "missing"
    amended = {**S4, "entity_updates": [{"entity_id": "Torven", "status": "dead"}]}
    _post(posted, tmp_path, amended, "--amend")  # r4 supersedes r3
    assert _status(posted) == "dead"
    done = invoke(posted, "changelog", "withdraw", "4", "--yes")  # the amendment: r3 is back
    assert done.code == 0 and "revision 3 is in effect" in done.output, done.output
    assert _status(posted) == "missing"


def test_a_conflicting_post_says_what_differs(posted: dict[str, str], tmp_path: Path) -> None:
    other = {**S4, "entity_updates": [{"entity_id": "Torven", "status": "captured"}]}
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other), encoding="utf-8")
    done = invoke(posted, "changelog", "post", str(path))
    assert refused(done), done.output
    assert "Torven Blackwater status: stored 'missing', posted 'captured'" in done.output
    assert "--amend" in done.output and len(changesets(posted)) == 2
