"""A short fuzz of the HTTP API (the benchmark runs 2,000): no 5xx, the server keeps answering,
and no player-key response holds a byte of GM-only text."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from tests.integration.cli_world import make_world
from tests.integration.http_fuzz import Case, Handles, cases
from tests.integration.http_world import CAMPAIGN, client, example_service, new_key, oracle_for
from tests.integration.test_player_leaks import Oracle

pytestmark = [pytest.mark.integration, pytest.mark.slow]

COUNT = 300


@dataclass
class Fuzzed:
    service: LoregraphService
    http: TestClient
    handles: Handles
    oracle: Oracle


@pytest.fixture(scope="module")
def fuzzed(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder, example_dir: Path
) -> Iterator[Fuzzed]:
    work = tmp_path_factory.mktemp("fuzz")
    with example_service(work, real_embedder, example_dir) as svc:
        svc.ingest(make_world(work), "other")
        keys = {r: new_key(svc.data_dir, CAMPAIGN, r) for r in ("gm", "player", "recap")}
        keys["other"] = new_key(svc.data_dir, "other", "gm")
        gm = svc.view(CAMPAIGN, as_player=False).view
        names = sorted({n for e in gm.entities.values() for n in (e.id, e.name, *e.gm_aliases)})
        other = [e.name for e in svc.view("other", as_player=False).view.entities.values()]
        with client(svc, svc.data_dir) as http:
            job = http.post("/campaigns/other/build", headers=keys["other"]).json()["id"]
            handles = Handles(CAMPAIGN, "other", keys, names, other, [job])
            yield Fuzzed(svc, http, handles, oracle_for(svc, example_dir))


def send(http: TestClient, case: Case) -> Any:
    return http.request(
        case.method,
        case.path,
        params=case.params,
        headers=case.headers,
        content=case.content,
        files=case.files,
    )


def echoes(case: Case) -> list[str]:
    """What a response may echo of the request: path segments, parameter values and a
    streamed question."""
    parts = [urllib.parse.unquote(p) for p in case.path.split("/") if p]
    return sorted({*parts, *case.params.values(), *asked(case)} - {""}, key=len, reverse=True)


def asked(case: Case) -> list[str]:
    """The question the request asks (a query's ``q``, a stream's body ``q``), which an
    answer repeats: the player's own words, never a leak."""
    question: Any = case.params.get("q")
    if case.kind == "stream":
        try:
            body = json.loads(case.content or b"")
        except ValueError:
            body = None
        question = body.get("q") if isinstance(body, dict) else None
    return [question] if isinstance(question, str) and question.strip() else []


def player_leaks(oracle: Oracle, case: Case, response: Any) -> list[str]:
    try:
        body = response.json()
    except ValueError:
        body = response.text
    if response.status_code >= 300:
        text = str(body)
        for echo in echoes(case):
            text = text.replace(echo, " ")
        body = text
    else:  # only where an answer repeats the question: its field and the preview's heading
        raw = body if isinstance(body, str) else json.dumps(body, separators=(",", ":"))
        for question in asked(case):  # as JSON text escapes it (a stream's events too)
            escaped = json.dumps(question)[1:-1]
            raw = raw.replace(f'"question":"{escaped}"', '"question":""')
            raw = raw.replace(f"## Preview: {escaped}", "## Preview: ")
        body = raw if isinstance(body, str) else json.loads(raw)
    return oracle.leaks(f"{case.kind} {case.path} {case.params}", body)


def test_fuzzed_requests_get_no_5xx_and_players_no_secret(fuzzed: Fuzzed) -> None:
    failures: list[str] = []
    leaks: list[str] = []
    statuses: dict[int, int] = {}
    for case in cases(seed=13, count=COUNT, h=fuzzed.handles):
        response = send(fuzzed.http, case)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        if response.status_code >= 500:
            failures.append(f"{case.kind} {case.method} {case.path}: {response.text[:300]}")
        if case.role == "player":
            leaks += player_leaks(fuzzed.oracle, case, response)
    assert not failures, "\n".join(failures[:20])
    assert not leaks, "\n".join(leaks[:20])
    assert fuzzed.http.get("/health").status_code == 200
    # the fuzz reached the API's answers, not only its front door
    assert statuses.get(200, 0) > 10 and statuses.get(422, 0) > 20 and statuses.get(401, 0) > 10
