"""Warm MCP tool latency on the Emberfall example, measured at the client with the SDK's own
client: ``loregraph mcp`` over stdio (a subprocess), and the streamable-HTTP app under uvicorn
(stateless, JSON responses). ``python benchmarks/bench_mcp.py [--calls 50]``.

The campaign is ingested and its seven change sets posted into a temporary data dir first."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
from fastapi import FastAPI
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphrag_core.settings import Settings  # noqa: E402
from graphrag_core.surfaces.cli.demo import changelog_files  # noqa: E402
from graphrag_core.surfaces.mcp.access import Access  # noqa: E402
from graphrag_core.surfaces.mcp.server import mcp_http_app  # noqa: E402
from graphrag_core.wiring import open_service  # noqa: E402
from tests.integration.live_server import LiveServer  # noqa: E402

EXAMPLE = ROOT / "examples" / "emberfall"
QUESTIONS = ["Where can the party rest?", "Who rules Harrowgate?", "Is Torven alive?",
             "Who stole the Ember Crown?", "What threatens Millbrook?"]  # fmt: skip


async def _timed(client: Client, calls: int) -> dict[str, list[float]]:
    took: dict[str, list[float]] = {"preview": [], "expand": [], "context": []}
    for i in range(calls + 2):  # the first two warm the views and the token counter
        question = QUESTIONS[i % len(QUESTIONS)]
        for tool, args in (("preview", {"question": question, "k": 10}),):
            started = time.perf_counter()
            seen = await client.call_tool(tool, args)
            if i >= 2:
                took[tool].append(time.perf_counter() - started)
        handles = [item["handle"] for item in (seen.structured_content or {})["items"][:5]]
        for tool, args in (("expand", {"handles": handles, "budget": 1500}),
                           ("context", {"question": question, "budget": 4000})):  # fmt: skip
            started = time.perf_counter()
            done = await client.call_tool(tool, args)
            assert not done.is_error, done.content
            if i >= 2:
                took[tool].append(time.perf_counter() - started)
    return took


def _report(kind: str, took: dict[str, list[float]]) -> None:
    for tool, seconds in took.items():
        ms = sorted(s * 1000 for s in seconds)
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        p50 = statistics.median(ms)
        print(f"{kind:6} {tool:8} n={len(ms):3} p50={p50:6.1f} ms  p95={p95:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=50)
    calls = parser.parse_args().calls
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        with open_service(Settings(data_dir=data)) as service:
            service.ingest(EXAMPLE / "world", "emberfall")
            service.build("emberfall")
            for path in changelog_files(EXAMPLE):
                service.post_changelog(path, "emberfall")
            app = FastAPI()
            app.mount("/mcp", mcp_http_app(service, lambda _key: Access("emberfall", "player")))
            with LiveServer(app) as server:
                _report("http", asyncio.run(_over_http(server.url + "/mcp/", calls)))
        env = {**os.environ, "LOREGRAPH_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)}
        args = ["-m", "graphrag_core.surfaces.cli", "mcp", "-c", "emberfall", "--role", "player"]
        params = StdioServerParameters(command=sys.executable, args=args, env=env)
        _report("stdio", asyncio.run(_over(params, calls)))


async def _over(server: Any, calls: int) -> dict[str, list[float]]:
    async with Client(server, read_timeout_seconds=120) as client:
        return await _timed(client, calls)


async def _over_http(url: str, calls: int) -> dict[str, list[float]]:
    async with httpx2.AsyncClient(timeout=120) as http:
        return await _over(streamable_http_client(url, http_client=http), calls)


if __name__ == "__main__":
    main()
