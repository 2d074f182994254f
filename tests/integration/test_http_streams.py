"""The HTTP API's streams and evaluation on the example campaign: ``ask/stream`` as
server-sent events (with and without a chat model), ``eval`` as a job whose result is the
CLI's report, and ``preset`` on ask/preview/context. Real app, real embedded store, real
embedding model; only the chat model is a fake."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from graphrag_core.errors import ChatModelUnavailableError
from graphrag_core.models import ChatReply
from graphrag_core.ports import ChatModel, Embedder
from graphrag_core.services.evaluation import parse_questions
from graphrag_core.services.service import LoregraphService
from tests.fakes import FakeClock, ScriptedChatModel
from tests.integration.http_world import CAMPAIGN, client, example_service

pytestmark = [pytest.mark.integration, pytest.mark.slow]

C = f"/campaigns/{CAMPAIGN}"
ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "benchmarks" / "questions" / "emberfall.yaml"


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder, example_dir: Path
) -> Iterator[LoregraphService]:
    with example_service(tmp_path_factory.mktemp("streams"), real_embedder, example_dir) as svc:
        yield svc


@pytest.fixture(scope="module")
def http(
    service: LoregraphService, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    with client(service, tmp_path_factory.mktemp("no-keys")) as c:
        yield c


def events_of(http: TestClient, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The (event, data) pairs of one ``ask/stream``."""
    events: list[tuple[str, dict[str, Any]]] = []
    with http.stream("POST", f"{C}/ask/stream", json=body) as stream:
        assert stream.status_code == 200, stream.read()
        assert stream.headers["content-type"].startswith("text/event-stream")
        kind = ""
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((kind, json.loads(line.removeprefix("data: "))))
    return events


def test_without_a_model_the_stream_is_the_ranked_list(
    http: TestClient, service: LoregraphService
) -> None:
    question = "Where can the party rest tonight?"
    events = events_of(http, {"q": question, "k": 6, "budget": 1500})
    assert [kind for kind, _ in events] == ["search", "context", "complete"]
    assert all(data["kind"] == kind for kind, data in events)
    direct = [r.id for r in service.ask(question, CAMPAIGN, k=6).results]
    search, context, complete = (data for _, data in events)
    assert [r["id"] for r in search["ranked"]["results"]] == direct
    assert complete["ranked"] == search["ranked"] and complete["answer"] is None
    assert 0 < context["context"]["tokens"] <= 1500
    assert context["context"]["markdown"]


def _answering(service: LoregraphService, chat: ChatModel) -> LoregraphService:
    """The fixture's store and model behind a service with a chat model (not closed here:
    the fixture owns the store)."""
    return LoregraphService(
        store=service.store,
        embedder=service.embedder,
        clock=FakeClock(),
        data_dir=service.data_dir,
        chat=chat,
        token_counter=service.token_counter,
    )


REPLY = (
    "Torven Blackwater is dead [e:torven-blackwater, ch:s4-r1-1]. "
    "He was secretly a dragon [e:no-such-thing]."
)


def test_with_a_model_the_stream_ends_with_the_cited_answer(
    service: LoregraphService, tmp_path: Path
) -> None:
    chat = ScriptedChatModel([ChatReply(text=REPLY)])
    with client(_answering(service, chat), tmp_path) as http:
        events = events_of(http, {"q": "Is Torven alive?", "budget": 3000})
    kinds = [kind for kind, _ in events]
    assert kinds[:3] == ["search", "context", "generation"] and kinds[-1] == "complete"
    assert set(kinds[3:-1]) == {"token"}
    answer = events[-1][1]["answer"]
    assert answer["model"] == "scripted"
    assert answer["dropped"] == ["He was secretly a dragon [e:no-such-thing]."]
    streamed = "".join(data["text"] for kind, data in events if kind == "token")
    assert streamed.strip() == answer["answer"]
    assert "dragon" not in streamed  # a dropped sentence is never streamed


class _DownChat:
    model_id = "down"

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_schema: dict[str, object] | None = None,
        max_tokens: int = 1024,
    ) -> ChatReply:
        raise ChatModelUnavailableError("the model server at http://127.0.0.1:9 did not answer")


def test_a_model_failing_mid_stream_ends_it_with_an_error_event(
    service: LoregraphService, tmp_path: Path
) -> None:
    with client(_answering(service, _DownChat()), tmp_path) as http:
        events = events_of(http, {"q": "Is Torven alive?"})
    assert [kind for kind, _ in events] == ["search", "context", "generation", "error"]
    problem = events[-1][1]
    assert problem["status"] == 503 and "did not answer" in problem["detail"]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({}, 422, "body.q"),
        ({"q": ""}, 422, "body.q"),
        ({"q": "x", "k": 0}, 422, "body.k"),
        ({"q": "x", "preset": "fastest"}, 422, "body.preset"),
        ({"q": "x", "budget": "lots"}, 422, "body.budget"),
        ({"q": "x", "as_of": -2}, 422, "body.as_of"),
        ({"q": "x", "unknown": 1}, 422, "body.unknown"),
        ({"q": "   "}, 400, "the question is empty"),
    ],
)
def test_a_bad_stream_request_is_a_problem_before_any_event(
    http: TestClient, body: dict[str, Any], status: int, field: str
) -> None:
    response = http.post(f"{C}/ask/stream", json=body)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert field in response.json()["detail"]


def test_an_unknown_campaign_is_a_404_before_any_event(http: TestClient) -> None:
    response = http.post("/campaigns/nowhere/ask/stream", json={"q": "who?"})
    assert response.status_code == 404 and "holds nothing" in response.json()["detail"]


@pytest.mark.parametrize("path", ["ask", "preview", "context"])
def test_a_preset_is_the_rankers_and_an_unknown_one_is_a_422(
    http: TestClient, service: LoregraphService, path: str
) -> None:
    question = "Tell me about the Ember Crown"
    results: dict[str, list[str]] = {}
    for preset in ("current_state", "historical", "lore"):
        response = http.get(f"{C}/{path}", params={"q": question, "preset": preset})
        assert response.status_code == 200, response.text
        body = response.json()
        if path == "ask":
            assert body["preset"] == preset
            results[preset] = [r["id"] for r in body["results"]]
        else:
            items = body["items"] if path == "preview" else body["preview"]
            results[preset] = [i["handle"] for i in items]
    assert len({tuple(v) for v in results.values()}) > 1, "the presets ranked alike"
    forced = service.ask(question, CAMPAIGN, preset="historical")
    if path != "ask":  # the preview is the forced ranking's, item for item
        expected = service.preview(question, CAMPAIGN, preset="historical")
        assert results["historical"] == [i.handle for i in expected.items]
        default = service.preview(question, CAMPAIGN)
        assert results[default_preset(service, question)] == [i.handle for i in default.items]
    if path == "ask":
        assert results["historical"] == [r.id for r in forced.results]
    bad = http.get(f"{C}/{path}", params={"q": question, "preset": "fastest"})
    assert bad.status_code == 422 and "query.preset" in bad.json()["detail"]


def default_preset(service: LoregraphService, question: str) -> str:
    """The preset the question's wording chooses."""
    return service.ask(question, CAMPAIGN).preset


def _subset(count: int) -> str:
    data = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    data["questions"] = data["questions"][:count]
    return yaml.safe_dump(data)


def _wait(http: TestClient, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        job: dict[str, Any] = http.get(f"/jobs/{job_id}").json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not finish")


def _without_latency(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_latency(v) for k, v in value.items() if not k.startswith("latency")}
    if isinstance(value, list):
        return [_without_latency(v) for v in value]
    return value


@pytest.mark.parametrize("form", ["yaml", "json-text", "json"])
def test_eval_runs_as_a_job_and_reports_as_the_cli(
    http: TestClient, service: LoregraphService, form: str
) -> None:
    text = _subset(4)
    if form == "yaml":
        started = http.post(f"{C}/eval", content=text, headers={"content-type": "application/yaml"})
    elif form == "json-text":
        started = http.post(f"{C}/eval", json=text)
    else:
        started = http.post(f"{C}/eval", json=yaml.safe_load(text))
    assert started.status_code == 202, started.text
    assert started.json()["kind"] == "eval"
    job = _wait(http, started.json()["id"])
    assert job["status"] == "done", job
    assert job["tasks"]["questions"] == {"done": 4, "total": 4, "finished": True}
    direct = service.evaluate(parse_questions(text, "questions.yaml"))
    assert _without_latency(job["result"]) == _without_latency(direct.model_dump(mode="json"))
    assert [s["name"] for s in job["result"]["systems"]] == ["ranker", "semantic-only", "bm25-only"]


def test_eval_progress_streams_to_the_end(http: TestClient) -> None:
    started = http.post(f"{C}/eval", json=_subset(2))
    kinds: list[str] = []
    last: dict[str, Any] = {}
    with http.stream("GET", f"/jobs/{started.json()['id']}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kinds.append(line.removeprefix("event: "))
            elif line.startswith("data: "):
                last = json.loads(line.removeprefix("data: "))
    assert kinds[-1] == "end" and last["status"] == "done"
    assert last["result"]["campaign"] == CAMPAIGN


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"questions": []}, "body.questions"),
        ({"questions": [{"question": "x", "type": "lookup"}]}, "body.questions.0.gold"),
        ({"questions": [{"question": "x", "type": "guess", "gold": ["a"]}]},
         "body.questions.0.type"),
        ({"questions": [{"question": "x", "type": "lookup", "gold": ["a"], "as_of": -1}]},
         "body.questions.0.as_of"),
        ({"questions": [{"question": "x", "type": "lookup", "gold": ["a"], "extra": 1}]},
         "body.questions.0.extra"),
        ({"campaign": "other", "questions": [{"question": "x", "type": "lookup", "gold": ["a"]}]},
         "body.campaign"),
        ([1, 2], "body"),
        ("questions: [", "body"),
        ("just words", "body"),
    ],
)  # fmt: skip
def test_a_bad_question_file_is_a_422_naming_the_field(
    http: TestClient, body: Any, field: str
) -> None:
    response = http.post(f"{C}/eval", json=body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert field in [e["field"] for e in problem["errors"]], problem
    assert field in problem["detail"]


def test_a_raw_question_file_that_is_not_utf8_or_yaml_is_a_422(http: TestClient) -> None:
    for content in (b"\xff\xfe\x00bad", b"questions: [\n"):
        response = http.post(f"{C}/eval", content=content, headers={"content-type": "text/plain"})
        assert response.status_code == 422, response.text
        assert response.json()["errors"][0]["field"] == "body"
    assert http.post(f"{C}/eval").status_code == 422


def test_eval_of_an_unknown_campaign_is_a_404_before_any_job(http: TestClient) -> None:
    response = http.post("/campaigns/nowhere/eval", json=_subset(1).replace(CAMPAIGN, "nowhere"))
    assert response.status_code == 404, response.text
    assert "holds nothing" in response.json()["detail"]
