"""A frozen engine (SIGSTOP: it holds its socket but answers nothing) is never joined by a second
redis-server on the same append-only files: start-up waits for the live pid recorded in
falkordb.pid, then fails naming it."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from graphrag_core.errors import StoreUnavailableError
from graphrag_core.stores.falkordb_server import EmbeddedFalkorDB, ping, socket_path_for

pytestmark = pytest.mark.integration


def engines_on(data_dir: Path) -> list[int]:
    """Pids of the redis-server processes serving ``data_dir`` (Redis retitles itself
    ``redis-server unixsocket:<socket>``, so they are found by their socket)."""
    wanted = os.fsencode(socket_path_for(data_dir))
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"redis-server" in title and wanted in title:
            found.append(int(entry.name))
    return sorted(found)


def test_a_frozen_engine_is_never_joined_by_a_second_one(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = EmbeddedFalkorDB(data).start()
    pid = first.pid
    assert pid is not None and engines_on(data) == [pid]
    os.kill(pid, signal.SIGSTOP)
    try:
        with pytest.raises(StoreUnavailableError, match=rf"process {pid}\b") as caught:
            EmbeddedFalkorDB(data, startup_timeout_s=2).start()
        assert "\n" not in str(caught.value).split(". ")[0]
        assert engines_on(data) == [pid], "a second engine was started on the same files"
    finally:
        os.kill(pid, signal.SIGCONT)
    with EmbeddedFalkorDB(data) as again:
        assert not again.started_here
        assert ping(again.socket_path)
    assert engines_on(data) == [pid]
    first.stop()
    assert engines_on(data) == []


def test_a_dead_pid_in_the_pid_file_does_not_block_a_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "falkordb.pid").write_text("999999999\n")  # no such process
    with EmbeddedFalkorDB(data, startup_timeout_s=20) as server:
        assert server.started_here


def test_a_live_pid_of_another_program_does_not_block_a_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "falkordb.pid").write_text(f"{os.getpid()}\n")  # alive, but this is pytest
    with EmbeddedFalkorDB(data, startup_timeout_s=20) as server:
        assert server.started_here
