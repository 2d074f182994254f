"""The OpenAI adapter with the real ``openai`` SDK against a tiny loopback HTTP server."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from graphrag_core.errors import (
    ChatModelRateLimitError,
    ChatModelRequestError,
    ChatModelUnavailableError,
)
from graphrag_core.providers.openai import OpenAIChatModel
from graphrag_core.settings import LlmSettings

Reply = tuple[int, dict[str, Any], float]  # status, body, delay in seconds
MESSAGES = [{"role": "user", "content": "hi"}]
SCHEMA: dict[str, object] = {"type": "object", "properties": {"a": {"type": "integer"}}}


def _completion(text: str) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "tiny",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10},
    }


class _Server:
    """Answers each POST with the next scripted reply; remembers the request bodies."""

    def __init__(self, script: list[Reply]) -> None:
        self.script = script
        self.bodies: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                server.bodies.append(json.loads(self.rfile.read(length)))
                status, body, delay = server.script.pop(0)
                time.sleep(delay)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("retry-after-ms", "10")
                self.end_headers()
                with contextlib.suppress(BrokenPipeError):
                    self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"


@pytest.fixture
def serve() -> Iterator[Callable[[list[Reply]], _Server]]:
    servers: list[_Server] = []

    def start(script: list[Reply]) -> _Server:
        server = _Server(script)
        threading.Thread(target=server.httpd.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.httpd.shutdown()
        server.httpd.server_close()


def _model(url: str, **overrides: Any) -> OpenAIChatModel:
    options: dict[str, Any] = {"max_retries": 2, "timeout_s": 5, **overrides}
    settings = LlmSettings(model="tiny", base_url=url, **options)
    return OpenAIChatModel(settings)


def test_retries_a_429_then_succeeds(serve: Callable[[list[Reply]], _Server]) -> None:
    server = serve([(429, {"error": {"message": "slow down"}}, 0), (200, _completion("ok"), 0)])
    reply = _model(server.url).complete(MESSAGES)
    assert reply.text == "ok"
    assert (reply.prompt_tokens, reply.completion_tokens, reply.retries) == (7, 3, 1)
    assert len(server.bodies) == 2


def test_429_after_every_retry_is_a_rate_limit_error(
    serve: Callable[[list[Reply]], _Server],
) -> None:
    server = serve([(429, {"error": {"message": "slow down"}}, 0)] * 3)
    with pytest.raises(ChatModelRateLimitError, match="CONCURRENCY"):
        _model(server.url).complete(MESSAGES)


def test_rejected_json_schema_falls_back_to_llama_cpp_mode(
    serve: Callable[[list[Reply]], _Server],
) -> None:
    rejection = {"error": {"message": "Input should be 'text' or 'json_object'"}}
    server = serve([(500, rejection, 0), (200, _completion('{"a": 1}'), 0)])
    model = _model(server.url, max_retries=0)
    reply = model.complete(MESSAGES, json_schema=SCHEMA)
    assert reply.text == '{"a": 1}'
    assert model.structured_output == "json_object_schema"
    assert server.bodies[0]["response_format"]["type"] == "json_schema"
    assert server.bodies[1]["response_format"] == {"type": "json_object", "schema": SCHEMA}


def test_timeout_is_an_unavailable_error(serve: Callable[[list[Reply]], _Server]) -> None:
    server = serve([(200, _completion("late"), 1.0)])
    model = _model(server.url, max_retries=0, timeout_s=0.2)
    with pytest.raises(ChatModelUnavailableError, match="TIMEOUT_S"):
        model.complete(MESSAGES)


def test_bad_key_is_a_request_error(serve: Callable[[list[Reply]], _Server]) -> None:
    server = serve([(401, {"error": {"message": "bad key"}}, 0)])
    with pytest.raises(ChatModelRequestError, match="OPENAI_API_KEY"):
        _model(server.url).complete(MESSAGES)


def test_connection_refused_is_an_unavailable_error() -> None:
    model = _model("http://127.0.0.1:9/v1", max_retries=0)
    with pytest.raises(ChatModelUnavailableError, match="BASE_URL"):
        model.complete(MESSAGES)
