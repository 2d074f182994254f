"""``loregraph serve`` as a real process serves the game master's page at ``/web`` and the MCP
endpoint at ``/mcp`` beside the HTTP API: without keys (loopback) to the local game master,
and once keys exist only to the keys that may (a key created while it runs counts at once)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.integration.live_server import free_port, wait_for_serve
from tests.integration.surface_world import CAMPAIGN, SECRETS, make_campaign

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _entity_over_mcp(url: str, key: str) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=120) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            result = await client.call_tool("entity", {"name": "Torven"})
            assert not result.is_error, result.content
            return result.structured_content or {}

    return asyncio.run(main())


def _key(env: dict[str, str], role: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "graphrag_core.surfaces.cli", "keys", "create", "-c", CAMPAIGN,
         "--role", role],
        env={**os.environ, **env}, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return done.stdout.split()[0]


def test_serve_serves_the_page_and_mcp_behind_its_keys(tmp_path: Path) -> None:
    env = make_campaign(tmp_path)
    port, log = free_port(), tmp_path / "serve.log"
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "graphrag_core.surfaces.cli", "serve", "--port", str(port)]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env={**os.environ, **env}, stdout=sink, stderr=sink)
        try:
            wait_for_serve(url, process, log)
            page = httpx2.get(f"{url}/web", timeout=30)
            assert page.status_code == 200 and f'data-campaign="{CAMPAIGN}"' in page.text
            script = httpx2.get(f"{url}/web/static/vendor/cytoscape.min.js", timeout=30)
            assert script.status_code == 200 and len(script.content) > 100_000  # no CDN
            gm = httpx2.get(f"{url}/web/api/entity?name=Torven&c={CAMPAIGN}", timeout=60)
            assert "smuggler" in gm.json()["entity"]["gm_notes"]  # loopback, no keys: the GM
            assert _entity_over_mcp(f"{url}/mcp/", "")["status"] == "dead"

            player = _key(env, "player")  # from now on every request needs a key
            assert httpx2.get(f"{url}/web/api/campaigns", timeout=30).status_code == 401
            mine = {"Authorization": f"Bearer {player}"}
            refused = httpx2.get(f"{url}/web/api/campaigns", headers=mine, timeout=30)
            assert refused.status_code == 403  # the page is the game master's
            seen = _entity_over_mcp(f"{url}/mcp/", player)
            assert seen["status"] == "alive"
            assert not [s for s in SECRETS if s.lower() in json.dumps(seen).lower()]
            ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
            anonymous = httpx2.post(f"{url}/mcp/", json=ping, timeout=30)
            assert anonymous.status_code == 401
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)
    assert process.returncode == 0, log.read_text()
    assert "GET /web/api/campaigns 403" in log.read_text()  # one log line per request
