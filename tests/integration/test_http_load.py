"""A short load run against a real ``loregraph serve`` process on the embedded store: 20 recap
posters (pairs posting the same sessions, some retrying) and 10 readers for about 10 s.
Correctness only, never timings: 0 acknowledged change sets lost, 0 duplicates stored, exactly
one record per session, 0 5xx (``benchmarks/bench_http.py`` runs the 60 s version)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from graphrag_core.ports import Embedder
from graphrag_core.services.keys import create_key
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service
from tests.integration.http_load import run_load
from tests.integration.live_server import free_port, wait_for_serve

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CAMPAIGN = "load"


def _keys(data_dir: Path) -> dict[str, dict[str, str]]:
    keys = {}
    for role in ("gm", "player", "recap"):
        _, key = create_key(data_dir, CAMPAIGN, role, datetime.now(UTC))
        keys[role] = {"Authorization": f"Bearer {key}"}
    return keys


def test_concurrent_posters_and_readers_lose_and_double_nothing(
    tmp_path: Path, world: Path, real_embedder: Embedder
) -> None:
    data_dir = tmp_path / "data"
    with open_service(Settings(data_dir=data_dir), embedder=real_embedder) as service:
        assert service.ingest(world, CAMPAIGN).wrote
        service.build(CAMPAIGN)  # posts are scored by the build's importance, as in play
    keys = _keys(data_dir)
    port, log = free_port(), tmp_path / "serve.log"
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "graphrag_core.surfaces.cli", "serve", "--port", str(port)]
    env = {**os.environ, "LOREGRAPH_DATA_DIR": str(data_dir)}
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env=env, stdout=sink, stderr=sink)
        try:
            wait_for_serve(url, process, log)
            result = run_load(url, CAMPAIGN, "Torven", keys, duration=10.0, posters=20, readers=10)
            stored = httpx.get(
                f"{url}/campaigns/{CAMPAIGN}/changesets", headers=keys["gm"], timeout=60
            ).json()
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=60) == 0
        finally:
            if process.poll() is None:
                process.kill()
    assert result["errors_5xx_or_transport"] == 0, result["first_errors"]
    assert result["acknowledged_sessions"] > 0 and result["reads"] > 0, result
    assert result["lost"] == 0, result
    assert result["duplicates_stored"] == 0, result
    # each session was posted with one content, so exactly one record each, revision 1
    sessions = [(r["session_id"], r["revision"]) for r in stored if r["session_id"] >= 1000]
    assert len(sessions) == len(set(s for s, _ in sessions)), "a session stored twice"
    assert {revision for _, revision in sessions} == {1}
    # a pair's second post and every retry were duplicates, never conflicts
    assert set(result["statuses"]["post"]) <= {200, 201}, result["statuses"]
    assert set(result["statuses"]["read"]) == {200}, result["statuses"]
    assert "Traceback" not in log.read_text()
