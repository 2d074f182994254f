"""The HTTP API on the example campaign: endpoints, problem details, jobs, and the committed
OpenAPI document. Real app, real embedded store, real embedding model."""

from __future__ import annotations

import io
import json
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.http.openapi import DOCUMENT, render
from tests.integration.cli_world import WORLD
from tests.integration.http_world import CAMPAIGN, client, example_service

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder, example_dir: Path
) -> Iterator[LoregraphService]:
    with example_service(tmp_path_factory.mktemp("http"), real_embedder, example_dir) as svc:
        yield svc


@pytest.fixture(scope="module")
def http(
    service: LoregraphService, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    """The local GM's server: no keys configured."""
    with client(service, tmp_path_factory.mktemp("no-keys")) as c:
        yield c


def _problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["type"].startswith("urn:loregraph:")
    assert body["detail"]
    return body


def test_the_committed_openapi_document_is_the_apps(http: TestClient) -> None:
    live = http.get("/openapi.json").json()
    assert DOCUMENT.read_text(encoding="utf-8") == render(live), (
        "docs/openapi.json is stale: run `make openapi`"
    )
    assert http.get("/docs").status_code == 200
    for path in ("/campaigns/{campaign}/ask", "/campaigns/{campaign}/changesets", "/jobs/{job_id}"):
        assert path in live["paths"]


def test_ask_and_entity_answer_as_the_cli_does(http: TestClient, service: LoregraphService) -> None:
    answer = http.get(f"/campaigns/{CAMPAIGN}/ask", params={"q": "Where can the party rest?"})
    assert answer.status_code == 200, answer.text
    direct = service.ask("Where can the party rest?", CAMPAIGN)
    assert [r["id"] for r in answer.json()["results"]] == [r.id for r in direct.results]
    entity = http.get(f"/campaigns/{CAMPAIGN}/entities/Torven")
    assert entity.status_code == 200 and entity.json()["name"] == "Torven Blackwater"
    assert http.get("/campaigns").json() == {"campaigns": [CAMPAIGN]}


def test_errors_are_problems_with_the_cli_message(http: TestClient) -> None:
    unknown = _problem(http.get(f"/campaigns/{CAMPAIGN}/entities/Torvin"), 404)
    assert "unknown entity 'Torvin'" in unknown["detail"]
    assert "Did you mean" in unknown["detail"]
    missing = _problem(http.get("/campaigns/nowhere/ask", params={"q": "who?"}), 404)
    assert "holds nothing" in missing["detail"]
    blank = _problem(http.get(f"/campaigns/{CAMPAIGN}/ask", params={"q": "   "}), 400)
    assert "the question is empty" in blank["detail"]


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        (f"/campaigns/{CAMPAIGN}/ask", {}, "query.q"),
        (f"/campaigns/{CAMPAIGN}/ask", {"q": "x", "k": "0"}, "query.k"),
        (f"/campaigns/{CAMPAIGN}/ask", {"q": "x", "k": "many"}, "query.k"),
        (f"/campaigns/{CAMPAIGN}/ask", {"q": "x", "as_of": "-1"}, "query.as_of"),
        ("/campaigns/Bad Name!/ask", {"q": "x"}, "path.campaign"),
        (f"/campaigns/{CAMPAIGN}/communities", {"level": "x"}, "query.level"),
    ],
)
def test_bad_input_is_a_422_naming_the_field(
    http: TestClient, path: str, params: dict[str, str], field: str
) -> None:
    body = _problem(http.get(path, params=params), 422)
    assert field in [e["field"] for e in body["errors"]]
    assert field in body["detail"]


def test_posting_is_idempotent_and_a_conflict_is_409(http: TestClient) -> None:
    url = f"/campaigns/{CAMPAIGN}/changesets"
    changeset = {
        "session_id": 40,
        "title": "A quiet week",
        "entity_updates": [{"entity_id": "Torven", "properties": {"mood": "grim"}}],
    }
    first = http.post(url, json=changeset)
    assert first.status_code == 201, first.text
    assert first.json()["action"] == "new" and first.json()["revision"] == 1
    again = http.post(url, json=changeset)
    assert again.status_code == 200 and again.json()["action"] == "duplicate"
    other = {**changeset, "title": "A loud week"}
    conflict = _problem(http.post(url, json=other), 409)
    assert "session 40 was already posted with different content" in conflict["detail"]
    assert [(r["revision"], r["title"]) for r in conflict["stored"]] == [(1, "A quiet week")]
    amended = http.post(url, params={"amend": "true"}, json=other)
    assert amended.status_code == 201 and amended.json()["revision"] == 2
    listed = [(r["session_id"], r["revision"]) for r in http.get(url).json()]
    assert listed.count((40, 1)) == 1 and listed.count((40, 2)) == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"session_id": "soon"}, "session_id"),
        ({"title": "no session"}, "session_id"),
        ({"session_id": 41, "entity_updates": [{"entity_id": "Nobody Atall", "status": "dead"}]},
         "Nobody Atall"),
    ],
)  # fmt: skip
def test_a_bad_changeset_is_a_422_with_the_cli_message(
    http: TestClient, body: dict[str, Any], field: str
) -> None:
    problem = _problem(http.post(f"/campaigns/{CAMPAIGN}/changesets", json=body), 422)
    assert field in problem["detail"]


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b'"text"', b""])
def test_a_body_that_is_no_json_object_is_a_422(http: TestClient, raw: bytes) -> None:
    response = http.post(
        f"/campaigns/{CAMPAIGN}/changesets",
        content=raw,
        headers={"content-type": "application/json"},
    )
    body = _problem(response, 422)
    assert any(e["field"].startswith("body") for e in body["errors"])


def test_a_huge_body_is_a_413(http: TestClient) -> None:
    response = http.post(
        f"/campaigns/{CAMPAIGN}/changesets",
        content=b"x" * (9 * 1024 * 1024),
        headers={"content-type": "application/json"},
    )
    _problem(response, 413)


def _wait(http: TestClient, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job: dict[str, Any] = http.get(f"/jobs/{job_id}").json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish")


def test_an_uploaded_zip_is_ingested_as_a_job(http: TestClient) -> None:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("world.yaml", WORLD)
    files = [
        ("files", ("pack.zip", packed.getvalue(), "application/zip")),
        ("files", ("lore/notes.md", b"# Notes\nTorven drinks at the Red Oak.\n", "text/markdown")),
    ]
    started = http.post("/campaigns/uploads/ingest", files=files)
    assert started.status_code == 202, started.text
    job = _wait(http, started.json()["id"])
    assert job["status"] == "done", job
    assert sorted(job["result"]["ingest"]["files"]) == ["lore/notes.md", "world.yaml"]
    assert job["tasks"], "the job reported no progress"
    entity = http.get("/campaigns/uploads/entities/the Red Oak").json()
    assert entity["name"] == "Red Oak Tavern"


@pytest.mark.parametrize(
    ("name", "data", "status"),
    [
        ("../escape.md", b"# x\n", 400),
        ("/abs.md", b"# x\n", 400),
        ("broken.zip", b"PK not a zip", 400),
    ],
)
def test_a_bad_upload_is_refused_before_any_job(
    http: TestClient, name: str, data: bytes, status: int
) -> None:
    response = http.post("/campaigns/uploads/ingest", files=[("files", (name, data, "x/y"))])
    assert "files" in _problem(response, status)["detail"]


def test_a_build_job_streams_its_progress(http: TestClient) -> None:
    started = http.post(f"/campaigns/{CAMPAIGN}/build")
    assert started.status_code == 202
    events: list[tuple[str, dict[str, Any]]] = []
    with http.stream("GET", f"/jobs/{started.json()['id']}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        kind = ""
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((kind, json.loads(line.removeprefix("data: "))))
    assert events and events[-1][0] == "end"
    assert events[-1][1]["status"] == "done", events[-1]
    assert events[-1][1]["result"]["campaign"] == CAMPAIGN
    assert _problem(http.get("/jobs/nope"), 404)


def test_deleting_a_campaign_needs_its_name_again(http: TestClient) -> None:
    files = [("files", ("world.yaml", WORLD.encode(), "text/yaml"))]
    job = _wait(http, http.post("/campaigns/doomed/ingest", files=files).json()["id"])
    assert job["status"] == "done", job
    refused = _problem(http.delete("/campaigns/doomed"), 400)
    assert "?confirm=doomed" in refused["detail"]
    _problem(http.delete("/campaigns/doomed", params={"confirm": "other"}), 400)
    assert "doomed" in http.get("/campaigns").json()["campaigns"]
    done = http.delete("/campaigns/doomed", params={"confirm": "doomed"})
    assert done.status_code == 200 and done.json() == {"campaign": "doomed", "deleted": True}
    assert "doomed" not in http.get("/campaigns").json()["campaigns"]
    _problem(http.get("/campaigns/doomed/entities/Torven"), 404)


def test_health_and_doctor(http: TestClient) -> None:
    assert http.get("/health").json() == {"status": "ok"}
    doctor = http.get("/doctor").json()
    assert doctor["reachable"] and doctor["kind"] == "falkordb-embedded"


def test_agents_preview_then_expand_within_the_budget(
    http: TestClient, service: LoregraphService
) -> None:
    base = f"/campaigns/{CAMPAIGN}"
    question = "Where can the party rest tonight?"
    preview = http.get(f"{base}/preview", params={"q": question, "k": 8})
    assert preview.status_code == 200, preview.text
    body = preview.json()
    assert body == json.loads(service.preview(question, CAMPAIGN, k=8).model_dump_json())
    handles = [item["handle"] for item in body["items"]]
    assert handles and all(item["expand_tokens"] > 0 for item in body["items"])
    for budget in (60, 400, 3000):
        done = http.post(f"{base}/expand", json={"handles": handles[:4], "budget": budget})
        assert done.status_code == 200, done.text
        assert done.json()["tokens"] <= budget
    context = http.get(f"{base}/context", params={"q": question, "budget": 1500}).json()
    assert 0 < context["tokens"] <= 1500 and context["markdown"]
    unknown = http.post(f"{base}/expand", json={"handles": ["e:nobody-here"], "budget": 500})
    assert unknown.status_code in (400, 404) and "nobody-here" in unknown.json()["detail"]
    assert http.post(f"{base}/expand", json={"handles": [], "budget": 5}).status_code == 422
