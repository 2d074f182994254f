"""Withdrawing a change set over HTTP (``POST /campaigns/{c}/changesets/{session}/withdraw``)
and the 409 that says how a conflicting post differs: GM and recap keys may withdraw, players
never; refusals are problem details and write nothing; a withdrawal made by another process
reaches the server's cached views; players never see a withdrawal or what it took back.
Real embedded FalkorDB, real embedding model, the real app."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphrag_core.ports import Embedder
from graphrag_core.services.keys import KeyRing
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.surfaces.http.app import create_app
from graphrag_core.surfaces.web.routes import web_router
from graphrag_core.wiring import open_service
from tests.integration.cli_world import make_world, run
from tests.integration.http_world import new_key

pytestmark = pytest.mark.integration

SECRET_NOTE = "the Drowned Court paid for this recap"
S4 = {
    "session_id": 4,
    "title": "Salt and smoke",
    "entity_updates": [
        {"entity_id": "Torven Blackwater", "status": "missing"},
        {"entity_id": "Red Oak Tavern", "properties": {"keeper": "Marta"}, "visibility": "gm"},
    ],
}
S6 = {
    "session_id": 6,
    "entity_updates": [{"entity_id": "Quiet Lantern Inn", "status": "abandoned"}],
}


@dataclass
class World:
    service: LoregraphService
    http: TestClient
    data_dir: Path

    def keys(self, campaign: str) -> dict[str, dict[str, str]]:
        roles = ("gm", "recap", "player")
        return {role: new_key(self.data_dir, campaign, role) for role in roles}

    def fill(self, campaign: str) -> dict[str, dict[str, str]]:
        """The small world ingested into ``campaign``, sessions 4 and 6 posted; its keys."""
        assert not self.service.ingest(self.data_dir.parent / "world", campaign).failures
        keys = self.keys(campaign)
        for body in (S4, S6):
            done = self.http.post(
                f"/campaigns/{campaign}/changesets", json=body, headers=keys["recap"]
            )
            assert done.status_code == 201, done.text
        return keys

    def status(self, campaign: str, keys: dict[str, str], as_of: int | None = None) -> str:
        params = {"as_of": as_of} if as_of is not None else {}
        done = self.http.get(f"/campaigns/{campaign}/entities/Torven", params=params, headers=keys)
        assert done.status_code == 200, done.text
        status: str = done.json()["status"]
        return status

    def stored(self, campaign: str) -> str:
        store = self.service.store
        return json.dumps(
            [
                [r.model_dump(mode="json") for r in store.load_changesets(campaign)],
                [c.model_dump(mode="json") for c in store.load_changes(campaign)],
                store.campaign_revision(campaign),
            ]
        )


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder) -> Iterator[World]:
    work = tmp_path_factory.mktemp("withdraw")
    make_world(work)
    data_dir = work / "data"
    with open_service(Settings(data_dir=data_dir), embedder=real_embedder) as service:
        web = web_router(service, campaign="cli")  # the page's JSON, as the local GM's
        app = create_app(service, KeyRing(data_dir), extra_routers=(web,))
        with TestClient(app, raise_server_exceptions=False) as http:
            yield World(service, http, data_dir)


def _withdraw(world: World, campaign: str, keys: dict[str, str], body: Any = None) -> Any:
    url = f"/campaigns/{campaign}/changesets/4/withdraw"
    return world.http.post(url, json=body, headers=keys)


def test_a_recap_key_withdraws_and_the_old_state_holds_before_it(world: World) -> None:
    keys = world.fill("recap-withdraws")
    assert world.status("recap-withdraws", keys["gm"]) == "missing"
    player = _withdraw(world, "recap-withdraws", keys["player"])
    assert player.status_code == 403 and "player key may not" in player.json()["detail"]
    done = _withdraw(world, "recap-withdraws", keys["recap"], {"note": "wrong table"})
    assert done.status_code == 201, done.text
    assert {k: done.json()[k] for k in ("revision", "withdrawn_revision", "at_session")} == {
        "revision": 2,
        "withdrawn_revision": 1,
        "at_session": 6,
    }
    assert done.json()["withdrawn_changes"] == 2
    assert "changes" not in done.json()  # counts only: a recap key reads no GM-only update
    assert world.status("recap-withdraws", keys["gm"]) == "alive"
    assert world.status("recap-withdraws", keys["gm"], as_of=5) == "missing"
    assert world.status("recap-withdraws", keys["gm"], as_of=6) == "alive"
    listed = world.http.get("/campaigns/recap-withdraws/changesets", headers=keys["gm"]).json()
    withdrawal = listed[1]
    assert (withdrawal["session_id"], withdrawal["withdraws"], withdrawal["note"]) == (
        4,
        1,
        "wrong table",
    )
    assert withdrawal["source"].startswith("http recap key")


def test_refusals_are_problems_and_write_nothing(world: World) -> None:
    keys = world.fill("refusals")
    assert _withdraw(world, "refusals", keys["gm"]).status_code == 201
    before = world.stored("refusals")
    again = _withdraw(world, "refusals", keys["gm"])
    assert again.status_code == 409 and again.json()["type"] == "urn:loregraph:withdrawal-refused"
    assert "already withdrawn" in again.json()["detail"]
    unknown = world.http.post("/campaigns/refusals/changesets/9/withdraw", headers=keys["gm"])
    assert unknown.status_code == 404 and "session 9" in unknown.json()["detail"], unknown.text
    no_revision = _withdraw(world, "refusals", keys["gm"], {"revision": 7})
    assert no_revision.status_code == 404 and "no revision 7" in no_revision.json()["detail"]
    for bad, field in (({"revision": 0}, "body.revision"), ({"bogus": 1}, "body.bogus")):
        answer = _withdraw(world, "refusals", keys["gm"], bad)
        assert answer.status_code == 422, answer.text
        assert [e["field"] for e in answer.json()["errors"]] == [field]
    early = world.http.post(
        "/campaigns/refusals/changesets/6/withdraw", json={"at_session": 2}, headers=keys["gm"]
    )
    assert early.status_code == 422 and "at_session 2 is before session 6" in early.text
    nul = world.http.post(
        "/campaigns/refusals/changesets/6/withdraw", json={"note": "a\u0000b"}, headers=keys["gm"]
    )
    assert nul.status_code == 422 and "NUL" in nul.json()["detail"], nul.text
    assert world.stored("refusals") == before


def test_posting_again_after_a_withdrawal_is_a_new_revision_then_a_duplicate(
    world: World,
) -> None:
    keys = world.fill("repost")
    assert _withdraw(world, "repost", keys["gm"]).status_code == 201
    url = "/campaigns/repost/changesets"
    first = world.http.post(url, json=S4, headers=keys["recap"])
    assert first.status_code == 201 and first.json()["revision"] == 3, first.text
    again = world.http.post(url, json=S4, headers=keys["recap"])
    assert again.status_code == 200 and again.json()["action"] == "duplicate"
    assert world.status("repost", keys["gm"]) == "missing"


def test_a_conflicting_post_carries_the_difference(world: World) -> None:
    keys = world.fill("conflict")
    other = {
        "session_id": 4,
        "entity_updates": [
            {"entity_id": "Torven Blackwater", "status": "dead"},
            {"entity_id": "Quiet Lantern Inn", "status": "abandoned"},
        ],
    }
    before = world.stored("conflict")
    gm = world.http.post("/campaigns/conflict/changesets", json=other, headers=keys["gm"])
    assert gm.status_code == 409, gm.text
    body = gm.json()
    assert [r["revision"] for r in body["stored"]] == [1]
    diff = body["difference"]
    assert (diff["session_id"], diff["stored_revision"], diff["hidden"]) == (4, 1, 0)
    by_entity = {(u["entity"], u["field"]): (u["stored"], u["posted"]) for u in diff["updates"]}
    assert by_entity == {
        ("Quiet Lantern Inn", "status"): (None, "abandoned"),
        ("Red Oak Tavern", "keeper"): ("Marta (GM-only)", None),
        ("Torven Blackwater", "status"): ("missing", "dead"),
    }
    assert "Torven Blackwater status: stored 'missing', posted 'dead'" in diff["summary"]
    assert "Torven Blackwater status: stored 'missing', posted 'dead'" in body["detail"]
    recap = world.http.post("/campaigns/conflict/changesets", json=other, headers=keys["recap"])
    assert recap.status_code == 409
    assert "Marta" not in recap.text and recap.json()["difference"]["hidden"] == 1
    assert world.stored("conflict") == before
    amended = world.http.post(
        "/campaigns/conflict/changesets", params={"amend": "true"}, json=other, headers=keys["gm"]
    )
    assert amended.status_code == 201 and amended.json()["action"] == "amend"


def test_a_withdrawal_by_another_process_reaches_the_cached_views(world: World) -> None:
    keys = world.fill("cli")  # the campaign the page opens on
    assert world.status("cli", keys["gm"]) == "missing"  # cached now
    env = {"LOREGRAPH_DATA_DIR": str(world.data_dir), "LOREGRAPH_CAMPAIGN": "cli"}
    code, output = run(env, "changelog", "withdraw", "4", "--yes", "--note", SECRET_NOTE)
    assert code == 0, output
    assert world.status("cli", keys["gm"]) == "alive"  # the revision bump dropped the cache
    gm_page = world.http.get("/web/api/changelog", params={"c": "cli"}).json()
    assert [s["withdrawn_by"] is not None for s in gm_page] == [True, False, False]
    assert gm_page[1]["note"] == SECRET_NOTE
    player_page = world.http.get("/web/api/changelog", params={"c": "cli", "player": True})
    assert player_page.status_code == 200
    assert [s["session_id"] for s in player_page.json()] == [6]
    assert SECRET_NOTE not in player_page.text and "missing" not in player_page.text
    player = world.http.get("/campaigns/cli/entities/Torven", headers=keys["player"])
    assert player.json()["status"] == "alive" and SECRET_NOTE not in player.text
