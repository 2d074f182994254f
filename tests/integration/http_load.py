"""Recap posters and readers against a running ``loregraph serve``, and what they prove: every
acknowledged change set is stored (0 lost), no session holds the same content twice (0
duplicates), no response is a 5xx. Shared by the CI test (``test_http_load.py``, short) and
the benchmark (``benchmarks/bench_http.py``, 60 s).

Posters come in pairs posting the same sessions with the same content (one gets ``201``, the
other a ``200`` duplicate), and one post in five is retried at once; readers alternate a
player's ``ask`` and a GM's ``preview``."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import httpx

QUESTIONS = (
    "Where can the party rest?",
    "Who rules Harrowgate?",
    "Is Torven alive?",
    "What threatens the roads?",
    "Who leads the Lantern Company?",
)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class Load:
    """One run: ``keys`` are request headers by role (gm, player, recap)."""

    def __init__(
        self, url: str, campaign: str, entity: str, keys: dict[str, dict[str, str]], until: float
    ) -> None:
        self.url, self.campaign, self.entity, self.keys, self.until = (
            url, campaign, entity, keys, until,
        )  # fmt: skip
        self.lock = threading.Lock()
        self.acked: dict[int, set[str]] = {}  # session -> content hashes acknowledged
        self.times: dict[str, list[float]] = {"post": [], "read": []}
        self.statuses: dict[str, dict[int, int]] = {"post": {}, "read": {}}
        self.errors: list[str] = []

    def _record(self, kind: str, started: float, response: httpx.Response) -> None:
        with self.lock:
            self.times[kind].append((time.perf_counter() - started) * 1000)
            counts = self.statuses[kind]
            counts[response.status_code] = counts.get(response.status_code, 0) + 1
            if response.status_code >= 500:
                self.errors.append(f"{kind}: {response.status_code} {response.text[:200]}")

    def _failed(self, kind: str, exc: Exception) -> None:
        with self.lock:
            self.errors.append(f"{kind}: {exc!r}")

    def poster(self, index: int, posters: int) -> None:
        pair = index % max(1, posters // 2)  # posters i and i + posters/2 post the same sessions
        rng = random.Random(index)
        path = f"/campaigns/{self.campaign}/changesets"
        with httpx.Client(base_url=self.url, headers=self.keys["recap"], timeout=120) as http:
            n = 0
            while time.monotonic() < self.until:
                session = 1000 + pair * 10_000 + n
                body = {
                    "session_id": session,
                    "title": f"load {session}",
                    "entity_updates": [
                        {"entity_id": self.entity, "properties": {"ledger": str(session)}}
                    ],
                }
                for _ in range(1 + (rng.random() < 0.2)):  # sometimes a retry of the same post
                    started = time.perf_counter()
                    try:
                        response = http.post(path, json=body)
                    except httpx.TransportError as exc:
                        self._failed("post", exc)
                        continue
                    self._record("post", started, response)
                    if response.status_code in (200, 201):
                        with self.lock:
                            self.acked.setdefault(session, set()).add(str(body["title"]))
                n += 1

    def reader(self, index: int) -> None:
        with httpx.Client(base_url=self.url, timeout=120) as http:
            i = index
            while time.monotonic() < self.until:
                role, what = ("player", "ask") if i % 2 == 0 else ("gm", "preview")
                started = time.perf_counter()
                try:
                    response = http.get(
                        f"/campaigns/{self.campaign}/{what}",
                        params={"q": QUESTIONS[i % len(QUESTIONS)]},
                        headers=self.keys[role],
                    )
                except httpx.TransportError as exc:
                    self._failed("read", exc)
                    continue
                self._record("read", started, response)
                i += 1


def run_load(
    url: str,
    campaign: str,
    entity: str,
    keys: dict[str, dict[str, str]],
    *,
    duration: float,
    posters: int,
    readers: int,
) -> dict[str, Any]:
    """Run the load, then read back what is stored and count what was lost or doubled."""
    run = Load(url, campaign, entity, keys, time.monotonic() + duration)
    threads = [threading.Thread(target=run.poster, args=(i, posters)) for i in range(posters)]
    threads += [threading.Thread(target=run.reader, args=(i,)) for i in range(readers)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - started
    stored = httpx.get(
        f"{url}/campaigns/{campaign}/changesets", headers=keys["gm"], timeout=120
    ).json()
    by_session: dict[int, list[dict[str, Any]]] = {}
    for record in stored:
        by_session.setdefault(record["session_id"], []).append(record)
    lost = [
        s for s, titles in run.acked.items()
        if not titles <= {r["title"] for r in by_session.get(s, [])}
    ]  # fmt: skip
    duplicates = [
        s for s, records in by_session.items()
        if len({r["content_hash"] for r in records}) != len(records)
    ]  # fmt: skip
    requests = sum(sum(c.values()) for c in run.statuses.values())
    return {
        "seconds": round(took, 1),
        "requests": requests,
        "throughput_rps": round(requests / took, 1),
        "posts": len(run.times["post"]),
        "reads": len(run.times["read"]),
        "acknowledged_sessions": len(run.acked),
        "stored_load_sessions": len([s for s in by_session if s >= 1000]),
        "post_p50_ms": round(percentile(run.times["post"], 0.5), 1),
        "post_p95_ms": round(percentile(run.times["post"], 0.95), 1),
        "read_p50_ms": round(percentile(run.times["read"], 0.5), 1),
        "read_p95_ms": round(percentile(run.times["read"], 0.95), 1),
        "statuses": run.statuses,
        "lost": len(lost),
        "duplicates_stored": len(duplicates),
        "errors_5xx_or_transport": len(run.errors),
        "first_errors": run.errors[:5],
    }
