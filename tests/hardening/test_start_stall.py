"""An engine child that stalls while starting, with nothing to replay, is killed and started
once more, saying what happened; twice stalled is an error that says so (not "an unclean
stop"). The stall is made real with SIGSTOP on the child right after it is spawned."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
from pathlib import Path

import pytest

from graphrag_core.errors import StoreUnavailableError
from graphrag_core.stores.falkordb_server import EmbeddedFalkorDB, ping

pytestmark = pytest.mark.integration


class _Stalling(EmbeddedFalkorDB):
    """The real engine; its first ``stalls`` children are frozen as soon as they start."""

    def __init__(self, data_dir: Path, stalls: int) -> None:
        super().__init__(data_dir, startup_timeout_s=3)
        self.stalls = stalls
        self.children: list[subprocess.Popen[bytes]] = []

    def _spawn(self) -> subprocess.Popen[bytes]:
        child = super()._spawn()
        self.children.append(child)
        if len(self.children) <= self.stalls:
            os.kill(child.pid, signal.SIGSTOP)
        return child


def test_a_stalled_start_is_retried_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    server = _Stalling(tmp_path / "data", stalls=1)
    with caplog.at_level(logging.WARNING), server:
        assert server.started_here and ping(server.socket_path)
        first, second = server.children
        assert first.poll() is not None, "the stalled child was left running"
        assert second.poll() is None
    assert "stalled" in caplog.text and "started once more" in caplog.text


def test_a_start_that_stalls_twice_says_so(tmp_path: Path) -> None:
    server = _Stalling(tmp_path / "data", stalls=2)
    with pytest.raises(StoreUnavailableError, match="stalled twice") as caught:
        server.start()
    assert "unclean stop" not in str(caught.value)
    assert all(child.poll() is not None for child in server.children)
