"""Source files no store can hold, malformed ones and links out of the ingest root: that one
file is reported (exit 3), every other file is ingested, and the next run reads it again
(no Source row is ever stored without its entities). Real CLI, embedded FalkorDB, real model."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hardening.cli import Outcome, invoke, refused

pytestmark = pytest.mark.integration

GOOD_PACK = """\
entities:
  - name: Marta Hollis
    type: NPC
    description: The widow who keeps the Red Oak Tavern.
"""


def _entities(env: dict[str, str]) -> set[str]:
    done = invoke(env, "ask", "who keeps the tavern", "--json", "-k", "50")
    assert done.code == 0, done.output
    return {r["name"] for r in json.loads(done.output)["results"] if r["kind"] == "entity"}


def _ingest(env: dict[str, str], folder: Path) -> Outcome:
    return invoke(env, "ingest", str(folder), "--no-build")


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("nul.yaml", 'entities:\n  - name: Bad\n    description: "a\\0b"\n', "NUL"),
        ("surrogate.yaml", 'entities:\n  - name: Bad\n    description: "\\uD800"\n', "U+D800"),
        ("nul.md", "# Notes\nA note with a NUL \x00 inside.\n", "NUL"),
        (
            "deep.yaml",
            "entities:\n  - name: Deep\n    attributes: " + "[" * 600 + "]" * 600,
            "nested",
        ),
        ("deep.md", "---\ntags: " + "[" * 600 + "]" * 600 + "\n---\n# Deep\n", "nested"),
        ("date.md", "---\nsession: 2024-13-45\n---\n# Dated\n", "not a valid date"),
        (
            "bomb.yaml",
            "entities: []\n"
            'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
            + "".join(
                f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]\n"
                for p, n in zip("abcdefgh", "bcdefghi", strict=True)
            ),
            "alias",
        ),
    ],
)
def test_one_bad_file_is_reported_and_the_rest_ingested(
    env: dict[str, str], tmp_path: Path, name: str, content: str, says: str
) -> None:
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "good.yaml").write_text(GOOD_PACK)
    (folder / name).write_text(content)
    done = _ingest(env, folder)
    assert not done.crashed and done.code == 3, done.output
    assert name in done.output and says in done.output, done.output
    assert "Marta Hollis" in _entities(env)
    again = _ingest(env, folder)  # the bad file is read and reported again: never marked done
    assert not again.crashed and again.code == 3 and name in again.output, again.output


def test_a_file_name_that_is_not_utf8_is_reported_alone(
    env: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "good.yaml").write_text(GOOD_PACK)
    with open(os.fsencode(folder) + b"/bad\xff.md", "w") as bad:
        bad.write("# Bad name\nText.\n")
    done = _ingest(env, folder)
    assert not done.crashed and done.code == 3, done.output
    assert "bad\\xff.md" in done.output and "not valid UTF-8" in done.output, done.output
    assert "Marta Hollis" in _entities(env)


def test_a_link_out_of_the_root_is_not_followed(env: dict[str, str], tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "passwd.txt"
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:the zebra password is hunter2:/root:/bin/bash\n")
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "good.yaml").write_text(GOOD_PACK)
    (folder / "passwd.txt").symlink_to(secret)
    (folder / "inside.md").symlink_to(folder / "good.yaml")  # a link inside the root is fine
    done = _ingest(env, folder)
    assert not done.crashed and "passwd.txt" in done.output, done.output
    assert "symbolic link out of the ingest root" in done.output
    asked = invoke(env, "ask", "zebra password hunter2", "--json")
    assert asked.code == 0, asked.output
    found = json.dumps(json.loads(asked.output)["results"])
    assert "hunter2" not in found and "passwd" not in found, found


def test_a_question_with_a_lone_surrogate_is_a_clear_error(
    env: dict[str, str], world: Path
) -> None:
    assert _ingest(env, world).code == 0
    done = invoke(env, "ask", "where \udcff is")  # what Python makes of argv b"where \xff is"
    assert refused(done) and "UTF-8" in done.output, done.output
