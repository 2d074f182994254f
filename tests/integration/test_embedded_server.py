"""The embedded FalkorDB engine: reuse, ownership, stale sockets, durability, start failures."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from graphrag_core.errors import StoreUnavailableError
from graphrag_core.models import Entity, GraphDelta
from graphrag_core.settings import load_settings
from graphrag_core.stores.falkordb import FalkorDBStore
from graphrag_core.stores.falkordb_server import (
    EmbeddedFalkorDB,
    loaded,
    ping,
    socket_path_for,
    tail_bytes,
)

pytestmark = pytest.mark.integration


@pytest.fixture
def server(tmp_path: Path) -> Iterator[EmbeddedFalkorDB]:
    with EmbeddedFalkorDB(tmp_path / "data") as started:
        yield started


def _store(server: EmbeddedFalkorDB) -> FalkorDBStore:
    return FalkorDBStore.from_url(f"unix://{server.socket_path}", "g", dimension=8)


def _wait_gone(pid: int, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} still running")


def test_start_answers_on_a_socket_in_the_data_dir(server: EmbeddedFalkorDB) -> None:
    assert server.started_here
    assert server.socket_path == (server.data_dir / "falkordb.sock").resolve()
    assert ping(server.socket_path)
    assert server.pid is not None


def test_a_second_instance_reuses_the_running_server(server: EmbeddedFalkorDB) -> None:
    with EmbeddedFalkorDB(server.data_dir) as second:
        assert not second.started_here
        assert second.pid == server.pid
    assert ping(server.socket_path), "the reusing instance must not stop the server"
    server.stop()
    assert not ping(server.socket_path)


def test_the_last_user_out_stops_the_server_whoever_started_it(tmp_path: Path) -> None:
    first = EmbeddedFalkorDB(tmp_path / "data").start()
    second = EmbeddedFalkorDB(tmp_path / "data").start()
    assert first.started_here and not second.started_here
    pid = first.pid
    assert pid is not None
    first.stop()  # the starter leaves first: the other user still needs the server
    assert ping(second.socket_path)
    second.stop()
    assert not ping(second.socket_path)
    _wait_gone(pid)


def test_users_whose_process_died_do_not_keep_the_server_up(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    server = EmbeddedFalkorDB(data_dir).start()
    ghost = data_dir / "falkordb.users" / "999999999-deadbeef"  # no such process
    ghost.touch()
    server.stop()
    assert not ping(server.socket_path)
    assert not ghost.exists()


def test_an_embedded_store_stops_only_the_server_it_started(server: EmbeddedFalkorDB) -> None:
    store = FalkorDBStore.embedded(server.data_dir, "g", dimension=8)
    assert store.server is not None and not store.server.started_here
    store.close()
    assert ping(server.socket_path)
    own = FalkorDBStore.embedded(server.data_dir.parent / "other", "g", dimension=8)
    assert own.server is not None and own.server.started_here
    own.close()
    assert not ping(own.server.socket_path)


def test_a_stale_socket_is_removed_and_the_server_started(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(str(socket_path_for(data_dir)))  # a socket file nobody listens on
    with EmbeddedFalkorDB(data_dir) as server:
        assert server.started_here
        assert ping(server.socket_path)


def test_an_acknowledged_write_survives_kill_9(server: EmbeddedFalkorDB) -> None:
    store = _store(server)
    entity = Entity(id="torven", name="Torven", type="NPC")
    store.apply_delta("c", GraphDelta(entities_upsert=(entity,)))
    store.close()
    pid = server.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    server.stop()  # reaps the killed child
    _wait_gone(pid)
    assert server.socket_path.exists()  # left behind by the crash
    with EmbeddedFalkorDB(server.data_dir) as restarted:
        assert restarted.started_here
        again = _store(restarted)
        try:
            assert again.load_entities("c") == [entity]
        finally:
            again.close()


def test_a_server_that_cannot_start_reports_its_log(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "appendonlydir").write_text("not a directory")
    with pytest.raises(StoreUnavailableError, match="exited") as caught:
        EmbeddedFalkorDB(data_dir, startup_timeout_s=10).start()
    assert "falkordb.log" in str(caught.value)


def test_a_long_data_dir_gets_a_short_socket_path(tmp_path: Path) -> None:
    data_dir = tmp_path / ("x" * 120)
    path = socket_path_for(data_dir)
    assert len(str(path)) < 100
    assert path == socket_path_for(data_dir)
    with EmbeddedFalkorDB(data_dir) as server:
        assert ping(server.socket_path)
    assert not path.exists()


class _RecordingServer(EmbeddedFalkorDB):
    """The real engine, keeping a handle on the child it starts so the test can check it."""

    children: list[subprocess.Popen[bytes]]

    def _spawn(self) -> subprocess.Popen[bytes]:
        child = super()._spawn()
        self.children = [*getattr(self, "children", []), child]
        return child


def test_a_startup_timeout_ends_the_child_it_started(tmp_path: Path) -> None:
    server = _RecordingServer(tmp_path / "data", startup_timeout_s=0.0001)
    try:
        with pytest.raises(StoreUnavailableError, match=r"did not answer within|still loading"):
            server.start()
        (child,) = server.children
        assert child.poll() is not None, "the redis-server child was left running"
        assert not ping(server.socket_path)
    finally:
        for child in getattr(server, "children", []):
            if child.poll() is None:
                child.kill()
                child.wait()


def test_startup_timeout_is_a_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LOREGRAPH_STARTUP_TIMEOUT_S", "45")
    assert load_settings().store_section().startup_timeout_s == 45.0
    monkeypatch.delenv("LOREGRAPH_STARTUP_TIMEOUT_S")
    (tmp_path / "loregraph.toml").write_text("startup_timeout_s = 7.5\n")
    assert load_settings().store_section().startup_timeout_s == 7.5


def _write_blocks(server: EmbeddedFalkorDB, blocks: int, per_block: int) -> None:
    store = _store(server)
    store.migrate()
    for block in range(blocks):  # one MULTI/EXEC block each in the append-only file
        entities = tuple(
            Entity(id=f"e{block}-{i}", name=f"Entity {block} {i}", type="NPC")
            for i in range(per_block)
        )
        store.apply_delta("aof", GraphDelta(entities_upsert=entities))


def test_after_a_crash_the_next_start_replays_every_acknowledged_write(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with EmbeddedFalkorDB(data) as first:
        _write_blocks(first, blocks=25, per_block=100)
        os.kill(first.pid or 0, signal.SIGKILL)  # a crash: nothing compacted, all to replay
    assert tail_bytes(data) > 200_000
    with EmbeddedFalkorDB(data) as again:
        assert again.started_here
        assert len(_store(again).load_entities("aof")) == 2500
        assert loaded(again.log_path, 0, again.pid or 0)


def test_ready_means_this_server_said_it_finished_loading(tmp_path: Path) -> None:
    """A command that reaches the server while it replays a MULTI/EXEC block of its
    append-only file kills it (Redis 8.2 asserts '!server.in_exec'), so start-up pings only
    once the log says this very server (pid) is ready, in lines written since it started."""
    log = tmp_path / "falkordb.log"
    earlier = "41:M 01 Jan 2026 10:00:00.000 * Ready to accept connections unix\n"
    loading = "42:M 01 Jan 2026 10:00:01.000 * Reading RDB base file on AOF loading...\n"
    log.write_text(earlier + loading)
    offset = len(earlier)
    assert not loaded(log, offset, 42)  # still replaying
    assert loaded(log, 0, 41)  # the old server's line...
    assert not loaded(log, offset, 41)  # ...is before this start: it does not count
    with log.open("a") as tail:
        tail.write("42:M 01 Jan 2026 10:00:03.000 * Ready to accept connections unix\n")
    assert loaded(log, offset, 42)
    assert not loaded(tmp_path / "missing.log", 0, 42)


def test_the_last_user_out_compacts_the_append_only_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with EmbeddedFalkorDB(data) as server:
        _write_blocks(server, blocks=12, per_block=100)
        assert tail_bytes(data) > 100_000
    assert tail_bytes(data) == 0  # a compact base and an empty tail: nothing to replay
    with EmbeddedFalkorDB(data) as again:
        assert len(_store(again).load_entities("aof")) == 1200
    log = (data / "falkordb.log").read_text()
    assert "DB loaded from base file appendonly.aof.2.base.rdb" in log


def test_the_last_user_out_waits_for_a_rewrite_already_running(tmp_path: Path) -> None:
    """Redis starts its own rewrite past 1 MB of growth; a stop that came while it ran used to
    get "already in progress" from BGREWRITEAOF and then kill it with SIGTERM, leaving the
    whole tail to replay at the next start. Now the last user out waits for it."""
    data = tmp_path / "data"
    with EmbeddedFalkorDB(data) as server:
        _write_blocks(server, blocks=12, per_block=100)
        client = redis.Redis(unix_socket_path=os.fspath(server.socket_path))
        client.config_set("rdb-key-save-delay", 300_000)  # the rewrite child: 0.3 s a key
        client.bgrewriteaof()
        assert client.info("persistence")["aof_rewrite_in_progress"]
        client.close()
    assert tail_bytes(data) == 0, "the running rewrite was killed, not waited for"
    log = (data / "falkordb.log").read_text()
    assert "Killing running AOF rewrite" not in log


def test_an_engine_being_stopped_is_not_joined(tmp_path: Path) -> None:
    """The last user out sent SIGTERM and died (``kill -9``) before the engine exited: its
    lock is gone, and the engine still answers PING for up to 100 ms. A new command used to
    join it and fail as it exited ("Connection closed by server", seen in the fault suite);
    it now waits for that engine to exit and starts its own."""
    data = tmp_path / "data"
    dying = EmbeddedFalkorDB(data).start()
    pid = dying.pid
    assert pid is not None and dying._process is not None
    (data / "falkordb.stopping").write_text(str(pid))  # what the stopper wrote, then died
    threading.Timer(0.5, os.kill, (pid, signal.SIGTERM)).start()  # Redis gets to it late
    try:
        with EmbeddedFalkorDB(data) as fresh:
            assert fresh.started_here and fresh.pid != pid
            time.sleep(0.6)  # past the old engine's exit
            assert ping(fresh.socket_path), "joined the engine that was exiting"
    finally:
        dying._process.wait(timeout=20)
        dying._process = None  # it exited; leaving hands the engine over to no one
        dying.stop()  # the last user out stops the engine ``fresh`` handed over to it
    assert not (data / "falkordb.stopping").exists()
    assert not ping(fresh.socket_path), "the fresh engine outlived the test"


def test_an_engine_hung_in_a_schema_statement_is_restarted_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """FalkorDB 4.16.3 deadlocks, rarely, creating the first index of a new graph (it hung
    the whole test run twice in one day). A frozen engine stands in for the hung one: the
    schema statement times out, the engine is killed and started again, the statement is
    sent once more, and the write acknowledged before it is still there."""
    monkeypatch.setattr(FalkorDBStore, "SCHEMA_TIMEOUT_S", 1.0)
    store = FalkorDBStore.embedded(tmp_path / "data", "g", dimension=8)
    try:
        entity = Entity(id="torven", name="Torven", type="NPC")
        store.apply_delta("c", GraphDelta(entities_upsert=(entity,)))
        server = store._server
        assert server is not None
        frozen = server.pid
        assert frozen is not None
        os.kill(frozen, signal.SIGSTOP)
        try:
            store._create_index("migration_chunk_fulltext_index")
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(frozen, signal.SIGCONT)
        _wait_gone(frozen)
        assert server.pid not in (None, frozen)
        assert store.load_entities("c") == [entity]
        assert "stopped answering in the middle of a schema statement" in caplog.text
    finally:
        store.close()


def test_a_slow_but_answering_engine_is_never_killed(tmp_path: Path) -> None:
    """``restart_hung`` kills only an engine that does not answer PING."""
    with EmbeddedFalkorDB(tmp_path / "data") as server:
        pid = server.pid
        assert server.restart_hung() is False
        assert server.pid == pid and ping(server.socket_path)
