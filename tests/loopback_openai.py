"""A tiny OpenAI-compatible HTTP server on a loopback port, for tests that run the real
``openai`` SDK (through :class:`graphrag_core.providers.openai.OpenAIChatModel`)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Reply = tuple[int, Any, float]  # status, body (JSON value or raw text), delay in seconds


def completion(text: str) -> dict[str, Any]:
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


class LoopbackServer:
    """Answers each POST with ``respond(body)`` (default: the next scripted reply); remembers
    the request bodies. Status 0 closes the connection without an answer."""

    def __init__(
        self,
        script: list[Reply],
        respond: Callable[[dict[str, Any]], Reply] | None = None,
        retry_after: bool = True,
        content_type: str = "application/json",
    ) -> None:
        self.script = script
        self.bodies: list[dict[str, Any]] = []
        self.arrivals: list[float] = []
        server = self
        answer = respond or (lambda body: server.script.pop(0))

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                body = json.loads(self.rfile.read(length))
                server.bodies.append(body)
                server.arrivals.append(time.monotonic())
                status, reply, delay = answer(body)
                time.sleep(delay)
                if status == 0:
                    self.close_connection = True
                    return
                data = reply.encode() if isinstance(reply, str) else json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                if retry_after:
                    self.send_header("retry-after-ms", "10")
                self.end_headers()
                with contextlib.suppress(BrokenPipeError):
                    self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"


@pytest.fixture
def serve() -> Iterator[Callable[..., LoopbackServer]]:
    servers: list[LoopbackServer] = []

    def start(script: list[Reply], **options: Any) -> LoopbackServer:
        server = LoopbackServer(script, **options)
        threading.Thread(target=server.httpd.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.httpd.shutdown()
        server.httpd.server_close()
