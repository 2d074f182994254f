"""An ASGI app served by uvicorn in a thread on a free loopback port, for tests that talk
HTTP to a real server (the MCP client, the browser)."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from pathlib import Path
from types import TracebackType

import httpx
import uvicorn
from starlette.types import ASGIApp


def wait_for_serve(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until a ``loregraph serve`` process answers ``/health`` (its log in the error)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"serve exited {process.returncode}: {log.read_text()}")
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError(f"serve did not answer: {log.read_text()}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """``with LiveServer(app) as server: ... server.url ...``; stopped on exit."""

    def __init__(self, app: ASGIApp) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError(f"the test server did not start on {self.url}")
            time.sleep(0.05)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=30)
