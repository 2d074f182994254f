"""Fuzzed HTTP requests (seeded, bounded): bad JSON, wrong types, huge bodies, wrong keys,
other campaigns' handles, odd paths and uploads, streamed asks, presets and question files.
Shared by tests/integration/test_http_fuzz.py (a few hundred) and benchmarks/bench_http.py
(2,000)."""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote


@dataclass(frozen=True)
class Case:
    kind: str
    role: str
    method: str
    path: str
    params: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    content: bytes | None = None
    files: list[tuple[str, tuple[str, bytes, str]]] | None = None


@dataclass(frozen=True)
class Handles:
    """What the fuzzer knows of the world: campaigns, keys by role, names and ids."""

    campaign: str
    other: str
    keys: dict[str, dict[str, str]]
    names: list[str]
    other_names: list[str]
    jobs: list[str]


def _text(rng: random.Random, n: int) -> str:
    alphabet = string.printable + "éßж漢🙂\u0000\u202e"
    return "".join(rng.choice(alphabet) for _ in range(n))


def _value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(8 if depth < 3 else 5)
    if pick == 0:
        return rng.randint(-(2**70), 2**70)
    if pick == 1:
        return rng.random() * rng.choice([1, -1e308, 1e308])
    if pick == 2:
        return _text(rng, rng.randrange(0, 40))
    if pick == 3:
        return rng.choice([None, True, False])
    if pick == 4:
        return rng.choice(["dead", "destroyed", "alive", "hostile", "gm", "party", ""])
    if pick == 5:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["session_id", "title", "entity_updates", "relationship_updates", "entity_id"]
    keys += ["status", "visibility", "properties", "from", "to", "new_status", "note", "x"]
    return {rng.choice(keys): _value(rng, depth + 1) for _ in range(rng.randrange(5))}


def _changeset_body(rng: random.Random, h: Handles) -> bytes:
    pick = rng.randrange(7)
    if pick == 0:
        return _text(rng, rng.randrange(1, 200)).encode("utf-8", "replace")
    if pick == 1:
        return json.dumps(_value(rng)).encode()[: rng.randrange(1, 60)]  # cut off
    if pick == 2:
        return b"[" * 5000 + b"]" * 5000  # deep nesting
    if pick == 3:
        name = rng.choice(h.names + h.other_names)
        update = {"entity_id": name, "status": _value(rng), "visibility": _value(rng)}
        return json.dumps({"session_id": _value(rng), "entity_updates": [update]}).encode()
    if pick == 4:
        return json.dumps({"session_id": rng.choice([0, -1, 2**63, "1", 1.5])}).encode()
    return json.dumps(_value(rng)).encode()


def _stream_body(rng: random.Random, h: Handles) -> bytes:
    pick = rng.randrange(4)
    if pick == 0:
        return json.dumps(_value(rng)).encode()
    if pick == 1:
        return json.dumps(_value(rng)).encode()[: rng.randrange(1, 40)]  # cut off
    body: dict[str, Any] = {"q": rng.choice([_text(rng, rng.randrange(0, 40)), *h.names])}
    for name, values in (
        ("k", [1, 0, 101, "x", 5]),
        ("budget", [100, 99, 10**9, "lots", 1500]),
        ("as_player", [False, True, "no"]),
        ("as_of", [None, -1, 3, "x"]),
        ("preset", [None, "lore", "historical", "fastest", 3]),
    ):
        if rng.random() < 0.5:
            body[name] = rng.choice(values)
    return json.dumps(body).encode()


def _eval_body(rng: random.Random) -> tuple[bytes, str]:
    question = {
        "question": _value(rng),
        "type": rng.choice(["lookup", "as_of", "guess", 3]),
        "gold": rng.choice([["torven-blackwater"], [], "x", None]),
    }
    if rng.random() < 0.3:
        question["as_of"] = rng.choice([-1, 2, "x"])
    data: Any = rng.choice([{"questions": [question]}, {"questions": []}, [question], _value(rng)])
    pick = rng.randrange(4)
    if pick == 0:  # YAML text, raw
        return _text(rng, rng.randrange(0, 80)).encode("utf-8", "replace"), "application/yaml"
    if pick == 1:  # the question file as a JSON string
        return json.dumps(json.dumps(data)).encode(), "application/json"
    if pick == 2:
        return b"\xff\xfe" + _text(rng, 10).encode("utf-8", "replace"), "text/plain"
    return json.dumps(data).encode(), "application/json"


def _key(rng: random.Random, h: Handles) -> tuple[str, dict[str, str]]:
    pick = rng.randrange(10)
    if pick == 0:
        return "none", {}
    if pick == 1:
        return "bad", {"Authorization": rng.choice(["Bearer", "Basic x", "Bearer lg_x_y"])}
    if pick == 2:
        return "bad", {
            "X-API-Key": "".join(c for c in _text(rng, 30) if c.isalnum() and c.isascii())
        }
    role = rng.choice(["player", "player", "player", "recap", "gm", "other"])
    return role, h.keys[role]


def cases(seed: int, count: int, h: Handles) -> Iterator[Case]:
    """``count`` fuzzed requests, the same ones for the same seed."""
    rng = random.Random(seed)
    for _ in range(count):
        role, headers = _key(rng, h)
        campaign = rng.choice([h.campaign, h.campaign, h.other, "Bad!", "x" * 80, "..", "%00"])
        campaign = quote(campaign, safe="%")
        base = f"/campaigns/{campaign}"
        pick = rng.randrange(15)
        if pick == 12:
            yield Case("stream", role, "POST", f"{base}/ask/stream", {},
                       {**headers, "content-type": "application/json"},
                       _stream_body(rng, h))  # fmt: skip
        elif pick == 13:
            body, media = _eval_body(rng)
            yield Case("eval", role, "POST", f"{base}/eval", {},
                       {**headers, "content-type": media}, body)  # fmt: skip
        elif pick == 14:
            params = {
                "q": rng.choice([_text(rng, rng.randrange(0, 40)), *h.names]),
                "preset": rng.choice(["lore", "historical", "current_state", "", "LORE", "x"]),
            }
            path = rng.choice([f"{base}/ask", f"{base}/preview", f"{base}/context"])
            yield Case("preset", role, "GET", path, params, headers)
        elif pick <= 1:
            body = _changeset_body(rng, h)
            params = rng.choice([{}, {"amend": rng.choice(["true", "maybe", "1", ""])}])
            yield Case("changeset", role, "POST", f"{base}/changesets", params,
                       {**headers, "content-type": "application/json"}, body)  # fmt: skip
        elif pick == 2 and rng.random() < 0.05:
            huge = b'{"session_id": 1, "title": "' + b"a" * (9 * 1024 * 1024) + b'"}'
            yield Case("huge", role, "POST", f"{base}/changesets", {},
                       {**headers, "content-type": "application/json"}, huge)  # fmt: skip
        elif pick <= 4:
            params = {
                "q": rng.choice([_text(rng, rng.randrange(0, 60)), "x" * 3000, " ", *h.names]),
                "k": rng.choice(["1", "0", "101", "abc", "-3", "1e3", "10"]),
                "as_player": rng.choice(["false", "true", "no", "2"]),
            }
            if rng.random() < 0.5:
                params["as_of"] = rng.choice(["3", "-1", "x", "99999999999", "0"])
            yield Case("ask", role, "GET", f"{base}/ask", params, headers)
        elif pick <= 6:
            name = rng.choice([*h.names, *h.other_names, _text(rng, 12), "../../etc", ".."])
            name = quote(name, safe="" if rng.random() < 0.8 else "/")
            params = {"as_player": rng.choice(["false", "true", "x"])}
            yield Case("entity", role, "GET", f"{base}/entities/{name}", params, headers)
        elif pick == 7:
            path = rng.choice([f"{base}/communities", f"{base}/communities/c0-0",
                               f"{base}/global", f"{base}/changesets"])  # fmt: skip
            params = {"q": _text(rng, 20), "level": rng.choice(["0", "x", "-1"]),
                      "as_player": "false"}  # fmt: skip
            yield Case("read", role, "GET", path, params, headers)
        elif pick == 8:
            job = quote(rng.choice([*h.jobs, _text(rng, 8), "0"]), safe="")
            yield Case("job", role, "GET", rng.choice([f"/jobs/{job}", f"/jobs/{job}/events"]),
                       {}, headers)  # fmt: skip
        elif pick == 9:
            name = rng.choice(["../x.md", "/abs.md", "a.zip", "ok.md", "", "x" * 300])
            data = rng.choice([b"PK\x03\x04junk", _text(rng, 50).encode(), b""])
            yield Case("upload", role, "POST", f"{base}/ingest", {}, headers,
                       files=[("files", (name, data, "application/octet-stream"))])  # fmt: skip
        elif pick == 10:
            method = rng.choice(["DELETE", "PUT", "PATCH", "POST"])
            params = {"confirm": rng.choice(["", "nope", "Bad!"])}
            yield Case("method", role, method, rng.choice([base, f"{base}/ask", "/campaigns"]),
                       params, headers)  # fmt: skip
        else:
            junk = quote(_text(rng, 5), safe="")
            path = rng.choice(["/", "/nope", "/campaigns/", "//campaigns", "/doctor", "/health",
                               f"{base}/build", f"/jobs/{junk}"])  # fmt: skip
            yield Case("path", role, rng.choice(["GET", "POST"]), path, {}, headers)
