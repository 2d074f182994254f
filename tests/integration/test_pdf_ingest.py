"""A folder with a text PDF and a scanned one: the text PDF is ingested and cited by page, the
scan is a failure named in the report (exit code 3), never an empty source; a session recap in
the same folder stamps the entities it mentions with its session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.cli_world import run
from tests.pdf_books import write_book, write_scan

pytestmark = pytest.mark.integration


def test_pdf_pages_are_cited_and_a_scan_is_reported(env: dict[str, str], tmp_path: Path) -> None:
    books = tmp_path / "books"
    books.mkdir()
    write_book(books / "book.pdf", [
        ("Kettlebridge", "Kettlebridge is a mill town on the Slow River."),
        ("The Copper Kettle", "The Copper Kettle is an inn with six soft beds where "
                              "travellers sleep for the night."),
    ])  # fmt: skip
    write_scan(books / "scan.pdf")
    code, output = run(env, "ingest", str(books), "--no-build")
    assert code == 3, output
    assert "failed scan.pdf: this PDF has no text layer" in " ".join(output.split())
    assert "1 added" in output
    code, output = run(env, "ask", "where can travellers sleep for the night?", "--json")
    assert code == 0, output
    top = json.loads(output)["results"][0]
    assert top["name"] == "book.pdf p. 2 § The Copper Kettle"
    assert top["citations"][0]["page"] == 2 and "six soft beds" in top["citations"][0]["quote"]


def test_entity_shows_the_sessions_that_mentioned_it(env: dict[str, str], world: Path) -> None:
    (world / "session-03.md").write_text("# Arrival\nWe met Torven at the Red Oak.\n")
    (world / "Session 5.md").write_text("Torven sold us salt.\n")
    assert run(env, "ingest", str(world), "--no-build")[0] == 0
    code, output = run(env, "entity", "Torven")
    assert code == 0 and "mentioned in sessions 3–5 (3, 5)" in output, output
    view = json.loads(run(env, "entity", "the Red Oak", "--json")[1])
    assert (view["mentioned_sessions"], view["first_session"], view["last_session"]) == (
        [3], 3, 3,
    )  # fmt: skip
