"""Change sets no store can hold, or that are malformed or unbounded, are refused whole with a
one-line error and exit 1: never a traceback, a hang or a half-write (a record without its
changes that would make the retry a no-op). Real CLI, real embedded FalkorDB."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from tests.hardening.cli import changesets, invoke, refused

pytestmark = pytest.mark.integration

GOOD = {
    "session_id": 4,
    "title": "Salt and smoke",
    "entity_updates": [
        {"entity_id": "Torven Blackwater", "status": "missing", "note": "Gone from the docks."}
    ],
}


@pytest.fixture()
def posted_world(env: dict[str, str], world: Path) -> dict[str, str]:
    done = invoke(env, "ingest", str(world), "--no-build")
    assert done.code == 0, done.output
    return env


def _write(folder: Path, name: str, data: object) -> Path:
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _with(**update: object) -> dict[str, object]:
    return {**GOOD, "entity_updates": [{**GOOD["entity_updates"][0], **update}]}  # type: ignore[dict-item]


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(_with(properties={"ship": "The Gull\u0000"}), id="nul-in-property-value"),
        pytest.param(_with(note="a\ud800b"), id="surrogate-in-note"),
        pytest.param(_with(properties={"k\ud800": "v"}), id="surrogate-in-property-key"),
        pytest.param({**GOOD, "title": "\u0000"}, id="nul-in-title"),
    ],
)
def test_an_unstorable_character_refuses_the_whole_change_set(
    posted_world: dict[str, str], tmp_path: Path, bad: dict[str, object]
) -> None:
    path = tmp_path / "session-04.json"
    # json.dumps keeps lone surrogates as \\ud800 escapes: the file itself is valid UTF-8
    path.write_text(json.dumps(bad), encoding="utf-8")
    done = invoke(posted_world, "changelog", "post", str(path))
    assert refused(done), done.output
    assert changesets(posted_world) == [], "a record was stored without its changes"
    fixed = _write(tmp_path, "session-04.json", GOOD)
    again = invoke(posted_world, "changelog", "post", str(fixed))
    assert again.code == 0 and "already posted" not in again.output, again.output
    assert [r["change_count"] for r in changesets(posted_world)] == [1]


def test_a_nul_byte_in_yaml_refuses_the_change_set(
    posted_world: dict[str, str], tmp_path: Path
) -> None:
    path = tmp_path / "session-04.yaml"
    path.write_text(
        "session_id: 4\nentity_updates:\n  - entity_id: Torven\n    status: missing\n"
        '    properties: {ship: "The Gull\\0"}\n'
    )
    done = invoke(posted_world, "changelog", "post", str(path))
    assert refused(done) and "NUL" in done.output, done.output
    assert changesets(posted_world) == []


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        (
            "bad-date.yaml",
            "session_id: 4\ndate: 2024-13-45\nentity_updates: []\n",
            "not a valid date",
        ),
        ("deep.json", "[" * 500 + "]" * 500, "nested"),
        ("deep.yaml", "session_id: 4\nx: " + "[" * 500 + "]" * 500 + "\n", "nested"),
        ("deeper.json", "[" * 100_000 + "]" * 100_000, "nested"),
        (
            "bomb.yaml",
            'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
            + "".join(
                f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]\n"
                for p, n in zip("abcdefgh", "bcdefghi", strict=True)
            ),
            "alias",
        ),
        ("loop.yaml", "session_id: 4\nx: &x [*x]\n", "recursive alias"),
        ("title.json", json.dumps({**GOOD, "title": "x" * 200_000}), "limit"),
        (
            "many.json",
            json.dumps({**GOOD, "entity_updates": GOOD["entity_updates"] * 2001}),
            "limit",
        ),
        ("big.json", json.dumps({**GOOD, "title": "y" * 2_000_000}), "limit"),
    ],
)
def test_a_malformed_or_unbounded_change_set_is_a_clear_error(
    posted_world: dict[str, str], tmp_path: Path, name: str, text: str, says: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    done = invoke(posted_world, "changelog", "post", str(path))
    assert refused(done) and says in done.output, done.output
    assert len(done.output.strip().splitlines()) <= 3, done.output  # one error, wrapped
    assert changesets(posted_world) == []


def test_a_fifo_is_refused_without_blocking(posted_world: dict[str, str], tmp_path: Path) -> None:
    fifo = tmp_path / "session.yaml"
    os.mkfifo(fifo)
    result: list[object] = []
    worker = threading.Thread(
        target=lambda: result.append(invoke(posted_world, "changelog", "post", str(fifo))),
        daemon=True,
    )
    worker.start()
    worker.join(timeout=60)
    if worker.is_alive():  # unblock the reader so the test run can end
        with open(fifo, "w"):
            pass
        worker.join(timeout=10)
        pytest.fail("posting a FIFO blocked")
    (done,) = result
    assert refused(done) and "not a regular file" in done.output  # type: ignore[arg-type]
