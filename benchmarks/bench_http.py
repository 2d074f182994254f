"""The HTTP API under `loregraph serve` on the example campaign, over loopback.

Run: ``python benchmarks/bench_http.py [--duration S] [--posters N] [--readers N]
[--fuzz N] [--latency N]`` (defaults: 60 s, 50, 20, 2000, 200).

1. Warm latency: ``ask`` and ``entity`` with a GM key, one at a time; p50/p95 milliseconds
   round trip (the client is on the same machine: the figure includes HTTP, so the server's
   own time is at most this).
2. Load: ``--posters`` recap jobs posting change sets (each session posted by two posters,
   so half the acknowledgements are duplicates, plus retries of their own posts) while
   ``--readers`` players ask; afterwards every acknowledged session must be stored exactly
   once per content (0 lost, 0 duplicates) and no response may be a 5xx.
3. Fuzz: ``--fuzz`` requests from tests/integration/http_fuzz.py against the running server:
   0 5xx, the server still answers, 0 GM-only bytes in any player-key response.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphrag_core.providers.sentence_transformers import SentenceTransformerEmbedder  # noqa: E402
from tests.integration.cli_world import make_world  # noqa: E402
from tests.integration.http_fuzz import Handles, cases  # noqa: E402
from tests.integration.http_world import (  # noqa: E402
    CAMPAIGN,
    example_service,
    new_key,
    oracle_for,
)
from tests.integration.test_http_fuzz import player_leaks  # noqa: E402

QUESTIONS = [
    "Where can the party rest?",
    "Who rules Harrowgate?",
    "Is Torven alive?",
    "What threatens the roads?",
    "Who leads the Lantern Company?",
]


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


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


def latency(url: str, gm: dict[str, str], count: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with httpx.Client(base_url=url, headers=gm, timeout=30) as http:
        for name, call in (
            (
                "ask",
                lambda i: http.get(f"/campaigns/{CAMPAIGN}/ask", params={"q": QUESTIONS[i % 5]}),
            ),
            ("entity", lambda i: http.get(f"/campaigns/{CAMPAIGN}/entities/Torven")),
        ):
            call(0)  # warm
            times = []
            for i in range(count):
                started = time.perf_counter()
                response = call(i)
                times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, response.text
            out[name] = {"p50_ms": round(p(times, 0.5), 1), "p95_ms": round(p(times, 0.95), 1)}
    return out


class Load:
    def __init__(self, url: str, keys: dict[str, dict[str, str]], until: float) -> None:
        self.url, self.keys, self.until = url, keys, until
        self.lock = threading.Lock()
        self.acked: dict[int, set[str]] = {}  # session -> titles acknowledged
        self.times: dict[str, list[float]] = {"post": [], "read": []}
        self.statuses: dict[int, int] = {}
        self.errors: list[str] = []

    def _record(self, kind: str, started: float, response: httpx.Response) -> None:
        with self.lock:
            self.times[kind].append((time.perf_counter() - started) * 1000)
            self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
            if response.status_code >= 500:
                self.errors.append(f"{kind}: {response.status_code} {response.text[:200]}")

    def poster(self, index: int, posters: int) -> None:
        pair = index % (posters // 2)  # posters i and i + posters/2 post the same sessions
        rng = random.Random(index)
        with httpx.Client(base_url=self.url, headers=self.keys["recap"], timeout=120) as http:
            n = 0
            while time.monotonic() < self.until:
                session = 1000 + pair * 10_000 + n
                body = {
                    "session_id": session,
                    "title": f"load {session}",
                    "entity_updates": [
                        {"entity_id": "Torven", "properties": {"ledger": str(session)}}
                    ],
                }
                for _ in range(1 + (rng.random() < 0.2)):  # sometimes a retry of the same post
                    started = time.perf_counter()
                    try:
                        response = http.post(f"/campaigns/{CAMPAIGN}/changesets", json=body)
                    except httpx.TransportError as exc:
                        with self.lock:
                            self.errors.append(f"post: {exc!r}")
                        continue
                    self._record("post", started, response)
                    if response.status_code in (200, 201):
                        with self.lock:
                            self.acked.setdefault(session, set()).add(body["title"])
                n += 1

    def reader(self, index: int) -> None:
        with httpx.Client(base_url=self.url, headers=self.keys["player"], timeout=120) as http:
            i = index
            while time.monotonic() < self.until:
                started = time.perf_counter()
                try:
                    response = http.get(
                        f"/campaigns/{CAMPAIGN}/ask", params={"q": QUESTIONS[i % 5]}
                    )
                except httpx.TransportError as exc:
                    with self.lock:
                        self.errors.append(f"read: {exc!r}")
                    continue
                self._record("read", started, response)
                i += 1


def load(
    url: str, keys: dict[str, dict[str, str]], duration: float, posters: int, readers: int
) -> dict[str, Any]:
    run = Load(url, keys, time.monotonic() + duration)
    threads = [threading.Thread(target=run.poster, args=(i, posters)) for i in range(posters)]
    threads += [threading.Thread(target=run.reader, args=(i,)) for i in range(readers)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - started
    stored = httpx.get(
        f"{url}/campaigns/{CAMPAIGN}/changesets", headers=keys["gm"], timeout=60
    ).json()
    by_session: dict[int, list[dict[str, Any]]] = {}
    for record in stored:
        by_session.setdefault(record["session_id"], []).append(record)
    lost = [s for s in run.acked if s not in by_session]
    duplicates = [
        s for s, records in by_session.items()
        if len({r["content_hash"] for r in records}) != len(records)
    ]  # fmt: skip
    requests = sum(run.statuses.values())
    return {
        "seconds": round(took, 1),
        "requests": requests,
        "throughput_rps": round(requests / took, 1),
        "posts": len(run.times["post"]),
        "reads": len(run.times["read"]),
        "posts_acknowledged_sessions": len(run.acked),
        "post_p95_ms": round(p(run.times["post"], 0.95), 1),
        "read_p95_ms": round(p(run.times["read"], 0.95), 1),
        "statuses": run.statuses,
        "lost": len(lost),
        "duplicates_stored": len(duplicates),
        "errors_5xx_or_transport": len(run.errors),
        "first_errors": run.errors[:5],
    }


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
            results["latency"] = latency(url, keys["gm"], args.latency)
            print(json.dumps({"latency": results["latency"]}), flush=True)
            handles = Handles(CAMPAIGN, "other", keys, names, other, [])
            results["fuzz"] = fuzz(url, handles, args.fuzz, oracle)
            print(json.dumps({"fuzz": results["fuzz"]}), flush=True)
            results["load"] = load(url, keys, args.duration, args.posters, args.readers)
            print(json.dumps({"load": results["load"]}), flush=True)
        finally:
            process.send_signal(signal.SIGTERM)
            results["exit_code"] = process.wait(timeout=120)
        results["settings"] = vars(args)
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
