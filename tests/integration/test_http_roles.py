"""Who may do what over HTTP: no key → 401, another campaign → 404, a role that may not → 403,
and a player key never gets GM-only content from any endpoint, whatever it asks for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphrag_core.ports import Embedder
from graphrag_core.services.keys import revoke_key
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.cli.demo import load_questions
from tests.integration.http_world import (
    CAMPAIGN,
    client,
    example_service,
    new_key,
    oracle_for,
)
from tests.integration.test_player_leaks import Oracle

pytestmark = [pytest.mark.integration, pytest.mark.slow]

C = f"/campaigns/{CAMPAIGN}"
SESSION = {
    "session_id": 50,
    "title": "Recap",
    "entity_updates": [{"entity_id": "Torven", "properties": {"mood": "wary"}}],
}


EVAL = {
    "questions": [
        {
            "question": "Where can the party rest?",
            "type": "current_state",
            "gold": ["the-weary-wagon"],
        }
    ]
}


@dataclass
class World:
    service: LoregraphService
    http: TestClient
    keys: dict[str, dict[str, str]]


@pytest.fixture(scope="module")
def world(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder, example_dir: Path
) -> Iterator[World]:
    with example_service(tmp_path_factory.mktemp("roles"), real_embedder, example_dir) as svc:
        keys = {role: new_key(svc.data_dir, CAMPAIGN, role) for role in ("gm", "player", "recap")}
        keys["other-gm"] = new_key(svc.data_dir, "other", "gm")
        with client(svc, svc.data_dir) as http:
            yield World(svc, http, keys)


@pytest.fixture(scope="module")
def oracle(world: World, example_dir: Path) -> Oracle:
    return oracle_for(world.service, example_dir)


# (method, path, params, json) of every campaign endpoint
REQUESTS: list[tuple[str, str, dict[str, str], Any]] = [
    ("GET", f"{C}/ask", {"q": "Where can the party rest?"}, None),
    ("GET", f"{C}/entities/Torven", {}, None),
    ("GET", f"{C}/communities", {}, None),
    ("GET", f"{C}/global", {"q": "What are the powers?"}, None),
    ("GET", f"{C}/changesets", {}, None),
    ("POST", f"{C}/changesets", {}, SESSION),
    ("POST", f"{C}/build", {}, None),
    ("POST", f"{C}/ask/stream", {}, {"q": "Where can the party rest?"}),
    ("POST", f"{C}/eval", {}, EVAL),
    ("GET", f"{C}/preview", {"q": "Where can the party rest?", "preset": "lore"}, None),
    ("DELETE", C, {"confirm": CAMPAIGN}, None),
]
# which role may call which of them (by index in REQUESTS)
ALLOWED = {
    "gm": {0, 1, 2, 3, 4, 5, 6, 7, 8, 9},  # delete is checked on its own: it would end the tests
    "player": {0, 1, 2, 3, 7, 9},
    "recap": {4, 5},
}


def _call(world: World, index: int, headers: dict[str, str]) -> Any:
    method, path, params, body = REQUESTS[index]
    return world.http.request(method, path, params=params, json=body, headers=headers)


@pytest.mark.parametrize("index", range(len(REQUESTS)))
def test_no_key_or_a_bad_key_is_401(world: World, index: int) -> None:
    for headers in ({}, {"Authorization": "Bearer lg_nope_nope"}, {"X-API-Key": "garbage"}):
        response = _call(world, index, headers)
        assert response.status_code == 401, (REQUESTS[index], response.text)
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["type"] == "urn:loregraph:unauthorized"


@pytest.mark.parametrize("index", range(len(REQUESTS)))
def test_another_campaigns_key_is_404(world: World, index: int) -> None:
    response = _call(world, index, world.keys["other-gm"])
    assert response.status_code == 404, response.text
    assert CAMPAIGN in response.json()["detail"]


@pytest.mark.parametrize("role", ["gm", "player", "recap"])
def test_each_role_may_do_exactly_its_part(world: World, role: str) -> None:
    for index in range(len(REQUESTS)):
        if role == "gm" and REQUESTS[index][0] == "DELETE":
            continue
        response = _call(world, index, world.keys[role])
        if index in ALLOWED[role]:
            assert response.status_code < 300, (role, REQUESTS[index], response.text)
        else:
            assert response.status_code == 403, (role, REQUESTS[index], response.text)
            assert f"a {role} key may not do this" in response.json()["detail"]


def test_keys_see_only_their_campaign_and_a_revoked_key_is_refused(world: World) -> None:
    listed = world.http.get("/campaigns", headers=world.keys["player"]).json()
    assert listed == {"campaigns": [CAMPAIGN]}
    assert world.http.get("/campaigns", headers=world.keys["other-gm"]).json() == {"campaigns": []}
    # a keyed caller is never told which other campaigns the store holds
    other = world.http.get(
        "/campaigns/other/ask", params={"q": "x"}, headers=world.keys["other-gm"]
    )
    assert other.status_code == 404 and CAMPAIGN not in other.text
    key = new_key(world.service.data_dir, CAMPAIGN, "player")
    assert world.http.get(f"{C}/entities/Torven", headers=key).status_code == 200
    key_id = key["Authorization"].split("_")[1]
    revoke_key(world.service.data_dir, key_id)
    assert world.http.get(f"{C}/entities/Torven", headers=key).status_code == 401
    assert world.http.get("/doctor", headers=world.keys["player"]).status_code == 403
    job = world.http.post(f"{C}/build", headers=world.keys["gm"]).json()["id"]
    assert world.http.get(f"/jobs/{job}", headers=world.keys["gm"]).status_code == 200
    for role in ("player", "recap"):  # a job's report names every source, GM-only ones too
        for path in (f"/jobs/{job}", f"/jobs/{job}/events"):
            assert world.http.get(path, headers=world.keys[role]).status_code == 403
    assert world.http.get(f"/jobs/{job}", headers=world.keys["other-gm"]).status_code == 404
    # a failed job of a keyed caller names no other campaign either
    other = world.http.post("/campaigns/other/build", headers=world.keys["other-gm"]).json()["id"]
    with world.http.stream("GET", f"/jobs/{other}/events", headers=world.keys["other-gm"]) as s:
        ended = [line for line in s.iter_lines() if line.startswith("data: ")][-1]
    assert '"status":"failed"' in ended and "holds nothing" in ended
    assert CAMPAIGN not in ended


def _player_requests(world: World) -> Iterator[tuple[str, dict[str, str]]]:
    gm = world.service.view(CAMPAIGN, as_player=False).view
    questions = [
        str(q["question"]) for q in load_questions(world.service.data_dir.parent / "emberfall")
    ]
    for question in questions:
        yield f"{C}/ask", {"q": question, "k": "100", "as_player": "false"}
        yield f"{C}/global", {"q": question, "as_player": "false"}
        yield f"{C}/preview", {"q": question, "k": "40", "as_player": "false"}
        yield f"{C}/context", {"q": question, "budget": "4000", "as_player": "false"}
    for entity in gm.entities.values():
        for name in (entity.id, entity.name, *entity.gm_aliases):
            yield f"{C}/entities/{name}", {"as_player": "false"}
    yield f"{C}/communities", {"as_player": "false"}
    for community in world.service.communities(CAMPAIGN):
        yield f"{C}/communities/{community.id}", {"as_player": "false"}


def test_a_player_key_never_gets_a_secret_even_asking_as_gm(world: World, oracle: Oracle) -> None:
    leaks: list[str] = []
    shown = 0
    for path, params in _player_requests(world):
        response = world.http.get(path, params=params, headers=world.keys["player"])
        assert response.status_code < 500, (path, response.text)
        body = response.json()
        if "q" in params:  # the player's own question, echoed in a Markdown heading
            body = json.loads(json.dumps(body).replace(json.dumps(params["q"])[1:-1], ""))
        if response.status_code == 200:
            shown += 1
            if isinstance(body, dict) and "as_player" in body:
                assert body["as_player"] is True
        else:  # an unknown name is echoed back: check what else the error says
            body = str(body["detail"]).replace(path.rsplit("/", 1)[-1], "")
        leaks += oracle.leaks(f"{path} {params}", body)
    assert shown > 60
    assert not leaks, "\n".join(leaks[:40])


def test_the_gm_key_does_see_the_secrets(world: World, oracle: Oracle) -> None:
    """The oracle would notice a secret: the GM's own answers hold some."""
    leaks: list[str] = []
    for path, params in _player_requests(world):
        body = world.http.get(path, params=params, headers=world.keys["gm"]).json()
        leaks += oracle.leaks(path, body)
    assert len(leaks) > 20


def _stream(world: World, question: str, role: str) -> list[dict[str, Any]]:
    """The data of every event of an ``ask/stream`` asking as the GM, with ``role``'s key."""
    body = {"q": question, "k": 40, "budget": 4000, "as_player": False}
    path = f"{C}/ask/stream"
    with world.http.stream("POST", path, json=body, headers=world.keys[role]) as stream:
        assert stream.status_code == 200, stream.read()
        return [json.loads(x[6:]) for x in stream.iter_lines() if x.startswith("data: ")]


def test_a_player_key_streams_no_secret_in_any_event(world: World, oracle: Oracle) -> None:
    questions = [
        str(q["question"]) for q in load_questions(world.service.data_dir.parent / "emberfall")
    ]
    leaks: list[str] = []
    gm_leaks: list[str] = []
    for question in questions:
        echo = json.dumps(question)[1:-1]  # the player's own question, echoed in each event
        events = _stream(world, question, "player")
        assert [e["kind"] for e in events] == ["search", "context", "complete"]
        assert events[0]["ranked"]["as_player"] is True
        assert events[1]["context"]["preview"], question
        for event in events:
            body = json.loads(json.dumps(event).replace(echo, ""))
            leaks += oracle.leaks(f"stream {question} {event['kind']}", body)
        for event in _stream(world, question, "gm"):  # the oracle would see a secret
            gm_leaks += oracle.leaks(question, event)
    assert not leaks, "\n".join(leaks[:40])
    assert len(gm_leaks) > 10
