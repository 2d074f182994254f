"""The HTTP API under `loregraph serve` on the example campaign, over loopback.

Run: ``python benchmarks/bench_http.py [--duration S] [--posters N] [--readers N]
[--fuzz N] [--latency N]`` (defaults: 60 s, 50, 20, 2000, 200).

1. Warm latency: ``ask``, ``preview`` and ``entity`` with a GM key, one at a time; p50/p95
   milliseconds round trip at the client and at the server (from its one log line per
   request).
2. Load (tests/integration/http_load.py): ``--posters`` recap jobs posting change sets (each
   session posted by two posters, so half the acknowledgements are duplicates, plus retries
   of their own posts) while ``--readers`` alternate a player's ask and a GM's preview;
   afterwards every acknowledged session must be stored exactly once per content (0 lost, 0
   duplicates) and no response may be a 5xx. The load average is recorded around it.
3. Fuzz: ``--fuzz`` requests from tests/integration/http_fuzz.py against the running server:
   0 5xx, the server still answers, 0 GM-only bytes in any player-key response.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphrag_core.providers.sentence_transformers import SentenceTransformerEmbedder  # noqa: E402
from tests.integration.cli_world import make_world  # noqa: E402
from tests.integration.http_fuzz import Handles, cases  # noqa: E402
from tests.integration.http_load import QUESTIONS, percentile, run_load  # noqa: E402
from tests.integration.http_world import (  # noqa: E402
    CAMPAIGN,
    example_service,
    new_key,
    oracle_for,
)
from tests.integration.test_http_fuzz import player_leaks  # noqa: E402


def p(values: list[float], q: float) -> float:
    return percentile(values, q)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(data_dir: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "LOREGRAPH_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "graphrag_core.surfaces.cli", "serve", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            time.sleep(0.3)
    process.kill()
    raise SystemExit(f"serve did not start: {log.read_text()}")


_LINE = re.compile(r"loregraph\.http\W+(GET|POST) (\S+) (\d+) ([\d.]+)ms")


def server_times(log: Path, offset: int) -> dict[str, list[float]]:
    """The server's own time per request (its one log line each) by path, after ``offset``."""
    times: dict[str, list[float]] = {}
    for match in _LINE.finditer(log.read_text(encoding="utf-8", errors="replace")[offset:]):
        times.setdefault(match.group(2), []).append(float(match.group(4)))
    return times


def latency(url: str, gm: dict[str, str], count: int, log: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    base = f"/campaigns/{CAMPAIGN}"
    with httpx.Client(base_url=url, headers=gm, timeout=30) as http:
        calls: dict[str, Callable[[int], httpx.Response]] = {
            "ask": lambda i: http.get(f"{base}/ask", params={"q": QUESTIONS[i % 5]}),
            "preview": lambda i: http.get(f"{base}/preview", params={"q": QUESTIONS[i % 5]}),
            "entities/Torven": lambda i: http.get(f"{base}/entities/Torven"),
        }
        for name, call in calls.items():
            call(0)  # warm
            offset = len(log.read_text(encoding="utf-8", errors="replace"))
            times = []
            for i in range(count):
                started = time.perf_counter()
                response = call(i)
                times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, response.text
            time.sleep(0.5)  # the log line is written after the response
            server = server_times(log, offset).get(f"{base}/{name}", [])
            out[name] = {
                "client_p50_ms": round(p(times, 0.5), 1),
                "client_p95_ms": round(p(times, 0.95), 1),
                "server_p50_ms": round(p(server, 0.5), 1),
                "server_p95_ms": round(p(server, 0.95), 1),
                "server_n": len(server),
            }
    return out


def fuzz(url: str, handles: Handles, count: int, oracle: Any) -> dict[str, Any]:
    statuses: dict[int, int] = {}
    failures: list[str] = []
    leaks: list[str] = []
    with httpx.Client(base_url=url, timeout=120) as http:
        for case in cases(seed=2000, count=count, h=handles):
            try:
                response = http.request(
                    case.method, case.path, params=case.params, headers=case.headers,
                    content=case.content, files=case.files,
                )  # fmt: skip
            except httpx.TransportError as exc:
                failures.append(f"{case.kind} {case.path}: {exc!r}")
                continue
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if response.status_code >= 500:
                failures.append(f"{case.kind} {case.path}: {response.text[:200]}")
            if case.role == "player":
                leaks += player_leaks(oracle, case, response)
        alive = http.get("/health").status_code == 200
    return {
        "requests": count,
        "statuses": statuses,
        "errors_5xx_or_transport": len(failures),
        "first_errors": failures[:5],
        "player_leaks": len(leaks),
        "first_leaks": leaks[:5],
        "server_alive_after": alive,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--posters", type=int, default=50)
    parser.add_argument("--readers", type=int, default=20)
    parser.add_argument("--fuzz", type=int, default=2000)
    parser.add_argument("--latency", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-http-") as tmp:
        work = Path(tmp)
        embedder = SentenceTransformerEmbedder()
        with example_service(work, embedder, ROOT / "examples" / "emberfall") as service:
            service.ingest(make_world(work), "other")
            keys = {r: new_key(service.data_dir, CAMPAIGN, r) for r in ("gm", "player", "recap")}
            keys["other"] = new_key(service.data_dir, "other", "gm")
            gm = service.view(CAMPAIGN, as_player=False).view
            names = sorted({n for e in gm.entities.values() for n in (e.id, e.name, *e.gm_aliases)})
            other = [e.name for e in service.view("other", as_player=False).view.entities.values()]
            oracle = oracle_for(service, ROOT / "examples" / "emberfall")
            data_dir = service.data_dir
        process, url = start_server(data_dir, work / "serve.log")
        results: dict[str, Any] = {}
        try:
            results["latency"] = latency(url, keys["gm"], args.latency, work / "serve.log")
            print(json.dumps({"latency": results["latency"]}), flush=True)
            handles = Handles(CAMPAIGN, "other", keys, names, other, [])
            results["fuzz"] = fuzz(url, handles, args.fuzz, oracle)
            print(json.dumps({"fuzz": results["fuzz"]}), flush=True)
            loadavg_before = os.getloadavg()
            results["load"] = run_load(
                url, CAMPAIGN, "Torven", keys,
                duration=args.duration, posters=args.posters, readers=args.readers,
            )  # fmt: skip
            results["load"]["loadavg_before"] = [round(x, 2) for x in loadavg_before]
            results["load"]["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
            print(json.dumps({"load": results["load"]}), flush=True)
        finally:
            process.send_signal(signal.SIGTERM)
            results["exit_code"] = process.wait(timeout=120)
        results["settings"] = vars(args)
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
