"""The OpenAI adapter with the real ``openai`` SDK against a tiny loopback HTTP server."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from graphrag_core.config import LlmSettings
from graphrag_core.errors import (
    ChatModelRateLimitError,
    ChatModelRequestError,
    ChatModelUnavailableError,
)
from graphrag_core.providers.openai import OpenAIChatModel
from tests.loopback_openai import LoopbackServer, Reply, completion, serve

__all__ = ["serve"]  # the fixture

MESSAGES = [{"role": "user", "content": "hi"}]
SCHEMA: dict[str, object] = {"type": "object", "properties": {"a": {"type": "integer"}}}


def _model(url: str, **overrides: Any) -> OpenAIChatModel:
    options: dict[str, Any] = {"max_retries": 2, "timeout_s": 5, **overrides}
    settings = LlmSettings(model="tiny", base_url=url, **options)
    return OpenAIChatModel(settings)


def test_retries_a_429_then_succeeds(serve: Callable[..., LoopbackServer]) -> None:
    server = serve([(429, {"error": {"message": "slow down"}}, 0), (200, completion("ok"), 0)])
    reply = _model(server.url).complete(MESSAGES)
    assert reply.text == "ok"
    assert (reply.prompt_tokens, reply.completion_tokens, reply.retries) == (7, 3, 1)
    assert len(server.bodies) == 2


def test_429_after_every_retry_is_a_rate_limit_error(
    serve: Callable[..., LoopbackServer],
) -> None:
    server = serve([(429, {"error": {"message": "slow down"}}, 0)] * 3)
    with pytest.raises(ChatModelRateLimitError, match="CONCURRENCY"):
        _model(server.url).complete(MESSAGES)


def test_rejected_json_schema_falls_back_to_llama_cpp_mode(
    serve: Callable[..., LoopbackServer],
) -> None:
    rejection = {"error": {"message": "Input should be 'text' or 'json_object'"}}
    server = serve([(500, rejection, 0), (200, completion('{"a": 1}'), 0)])
    model = _model(server.url, max_retries=0)
    reply = model.complete(MESSAGES, json_schema=SCHEMA)
    assert reply.text == '{"a": 1}'
    assert model.structured_output == "json_object_schema"
    assert server.bodies[0]["response_format"]["type"] == "json_schema"
    assert server.bodies[1]["response_format"] == {"type": "json_object", "schema": SCHEMA}


def test_timeout_is_an_unavailable_error(serve: Callable[..., LoopbackServer]) -> None:
    server = serve([(200, completion("late"), 1.0)])
    model = _model(server.url, max_retries=0, timeout_s=0.2)
    with pytest.raises(ChatModelUnavailableError, match="TIMEOUT_S"):
        model.complete(MESSAGES)


def test_bad_key_is_a_request_error(serve: Callable[..., LoopbackServer]) -> None:
    server = serve([(401, {"error": {"message": "bad key"}}, 0)])
    with pytest.raises(ChatModelRequestError, match="OPENAI_API_KEY"):
        _model(server.url).complete(MESSAGES)


def test_connection_refused_is_an_unavailable_error() -> None:
    model = _model("http://127.0.0.1:9/v1", max_retries=0)
    with pytest.raises(ChatModelUnavailableError, match="BASE_URL"):
        model.complete(MESSAGES)


def test_5xx_and_dropped_connections_are_retried_with_backoff(
    serve: Callable[..., LoopbackServer],
) -> None:
    """No Retry-After header: the SDK's own exponential backoff (0.5 s × 2^n, minus up to 25 %
    jitter) spaces the attempts, so the second request comes at least 0.375 s after the first."""
    server = serve(
        [(503, {"error": {"message": "busy"}}, 0), (0, {}, 0), (200, completion("ok"), 0)],
        retry_after=False,
    )
    reply = _model(server.url).complete(MESSAGES)
    assert (reply.text, reply.retries, len(server.bodies)) == ("ok", 2, 3)
    assert server.arrivals[1] - server.arrivals[0] >= 0.375


def test_a_failure_after_every_retry_says_how_many_requests_it_made(
    serve: Callable[..., LoopbackServer],
) -> None:
    server = serve([(503, {"error": {"message": "busy"}}, 0)] * 3)
    with pytest.raises(ChatModelUnavailableError, match="try again later") as caught:
        _model(server.url).complete(MESSAGES)
    assert caught.value.attempts == 3 == len(server.bodies)


_COMPLETION_NO_CHOICES = {**completion(""), "choices": []}


@pytest.mark.parametrize(
    ("status", "body", "content_type"),
    [
        (200, "<html><body>Please log in to the proxy</body></html>", "text/html"),
        (200, _COMPLETION_NO_CHOICES, "application/json"),
        (200, "this is not json", "application/json"),
    ],
)
def test_a_reply_that_is_no_chat_completion_is_a_clear_request_error(
    serve: Callable[..., LoopbackServer], status: int, body: Any, content_type: str
) -> None:
    server = serve([(status, body, 0)], content_type=content_type)
    with pytest.raises(ChatModelRequestError, match=r"not an OpenAI chat completion.*BASE_URL"):
        _model(server.url, max_retries=0).complete(MESSAGES, json_schema=SCHEMA)


def _llama_cpp(body: dict[str, Any]) -> Reply:
    """Like llama-cpp-python's server: HTTP 500 for ``json_schema``, else a completion."""
    if body.get("response_format", {}).get("type") == "json_schema":
        message = "[{'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}]"
        return 500, {"error": {"message": message, "type": "server_error"}}, 0.05
    return 200, completion('{"a": 1}'), 0.05


def test_concurrent_requests_fall_back_once_and_keep_the_schema(
    serve: Callable[..., LoopbackServer],
) -> None:
    """Six threads whose first requests all fail with ``json_schema``: one step down (to
    llama.cpp's ``json_object_schema``, never further), every request succeeds, and the
    rejection costs each thread one request (the SDK's retries are not spent on it)."""
    server = serve([], respond=_llama_cpp)
    model = _model(server.url, max_retries=4, concurrency=6)
    start = threading.Barrier(6)
    replies: list[str] = []

    def ask() -> None:
        start.wait()
        replies.append(model.complete(MESSAGES, json_schema=SCHEMA).text)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert replies == ['{"a": 1}'] * 6
    assert model.structured_output == "json_object_schema"
    formats = [body["response_format"] for body in server.bodies]
    rejected = [f for f in formats if f["type"] == "json_schema"]
    assert 1 <= len(rejected) <= 6
    assert [f for f in formats if f["type"] != "json_schema"] == [
        {"type": "json_object", "schema": SCHEMA}
    ] * 6
