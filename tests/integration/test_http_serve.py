"""``loregraph serve`` as a real process: it starts on a free loopback port, answers (also
about what a CLI process on the same data dir wrote meanwhile), logs one line per request, and
on SIGTERM closes the store (the embedded engine stops), removes its ``serve.json`` and exits
0. Bound beyond loopback without keys, it refuses to start."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.integration.cli_world import run
from tests.integration.live_server import free_port, wait_for_serve

pytestmark = pytest.mark.integration


def _env(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "LOREGRAPH_DATA_DIR": str(data_dir), "LOREGRAPH_CAMPAIGN": "serve"}


def test_serve_answers_then_stops_cleanly_on_sigterm(tmp_path: Path, world: Path) -> None:
    data_dir, port, log = tmp_path / "data", free_port(), tmp_path / "serve.log"
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "graphrag_core.surfaces.cli", "serve", "--port", str(port)]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env=_env(data_dir), stdout=sink, stderr=sink)
        try:
            wait_for_serve(url, process, log)
            assert httpx.get(f"{url}/campaigns", timeout=10).json() == {"campaigns": []}
            # a CLI process on the same data dir shares the engine; the server sees its writes
            code, output = run(
                {"LOREGRAPH_DATA_DIR": str(data_dir)}, "ingest", str(world), "-c", "serve"
            )
            assert code == 0, output
            assert httpx.get(f"{url}/campaigns", timeout=10).json() == {"campaigns": ["serve"]}
            entity = httpx.get(f"{url}/campaigns/serve/entities/the Red Oak", timeout=30)
            assert entity.status_code == 200 and entity.json()["name"] == "Red Oak Tavern"
            found = json.loads((data_dir / "serve.json").read_text())
            assert found == {"url": url, "pid": process.pid}
            engine = int((data_dir / "falkordb.pid").read_text().split()[0])
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=60) == 0
        finally:
            if process.poll() is None:
                process.kill()
    text = log.read_text()
    assert "loopback only, every request is the local GM's" in text
    assert "warmed the model and 0 campaign(s)" in text
    assert text.count("GET /campaigns 200") == 2, text
    assert "store closed" in text and "Traceback" not in text
    assert not (data_dir / "serve.json").exists()
    with pytest.raises(ProcessLookupError):  # the embedded engine stopped with the server
        for _ in range(50):
            os.kill(engine, 0)
            time.sleep(0.1)


def test_serve_beyond_loopback_without_keys_refuses_to_start(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "graphrag_core.surfaces.cli", "serve", "--host", "0.0.0.0"],
        env=_env(tmp_path / "data"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "refusing to listen on 0.0.0.0 without API keys" in result.stderr
    assert not (tmp_path / "data" / "falkordb.pid").exists()
