"""Session recaps are session records: the session number comes from the front matter, the first
heading or the file name; chunks carry it; the view and the entity view say in which sessions
each entity was mentioned (what the ranker's recency reads)."""

from __future__ import annotations

import hashlib
import io
import json

import pytest
from rich.console import Console

from extraction.chunking import chunk_document
from extraction.sessions import session_number
from graphrag_core.models import Chunk, Entity, SourceDocument
from graphrag_core.services.entity_views import entity_view
from graphrag_core.services.views import build_view
from graphrag_core.surfaces.cli.render import render_entity, sessions_line


def _doc(path: str, text: str, kind: str = "markdown") -> SourceDocument:
    digest = hashlib.sha256(text.encode()).hexdigest()
    return SourceDocument.model_validate(
        {"path": path, "kind": kind, "sha256": digest, "text": text}
    )


@pytest.mark.parametrize(
    ("path", "text", "kind", "session"),
    [
        ("recaps/session-07.md", "The party rested.", "markdown", 7),
        ("Session 12 - the mill.md", "The party rested.", "markdown", 12),
        ("2024-05-01_session_3.txt", "The party rested.", "text", 3),
        ("s07-the-drowned-mill.md", "The party rested.", "markdown", 7),
        ("notes.md", "---\nsession: 9\n---\nThe party rested.", "vault", 9),
        ("notes.md", "---\nsession: '04'\n---\nThe party rested.", "vault", 4),
        ("notes.md", "# Session 5 — The Drowned Mill\nThe party rested.", "markdown", 5),
        ("notes.txt", "\nSession #8\nThe party rested.", "text", 8),
        ("notes.md", "---\nsession: 2\n---\n# Session 5\nFront matter wins.", "vault", 2),
    ],
)
def test_a_session_record_is_recognised(path: str, text: str, kind: str, session: int) -> None:
    assert session_number(_doc(path, text, kind)) == session


@pytest.mark.parametrize(
    ("path", "text", "kind"),
    [
        ("lore/kettlebridge.md", "# Kettlebridge\nA mill town.", "markdown"),
        ("sessions.md", "# Sessions we played\nMany.", "markdown"),
        ("lore/the-session-house.md", "# The Session House\nAn inn.", "markdown"),
        ("session-07.yaml", "entities: []\n", "worldpack"),
        ("s.md", "---\nsession: true\n---\nNot a number.", "vault"),
        ("songs.md", "## Later\n# Session 3\nNot the first heading.", "markdown"),
    ],
)
def test_other_sources_are_no_session_records(path: str, text: str, kind: str) -> None:
    assert session_number(_doc(path, text, kind)) is None


def test_the_chunks_of_a_recap_carry_its_session_and_lore_chunks_none() -> None:
    recap = chunk_document(_doc("session-03.md", "# Arrival\nWe met Hob.\n"), chunk_size=500)
    lore = chunk_document(_doc("hob.md", "# Hob\nHob keeps the inn.\n"), chunk_size=500)
    assert [c.session for c in recap] == [3]
    assert [c.session for c in lore] == [None]


def _chunk(cid: str, session: int | None, *mentions: str, **fields: object) -> Chunk:
    return Chunk.model_validate(
        {"id": cid, "source_path": f"{cid}.md", "start": 0, "end": 1, "text": "x",
         "content_hash": cid, "session": session, "mentions": mentions, **fields}
    )  # fmt: skip


ENTITIES = [
    Entity(id="hob", name="Hob Tarrow", type="NPC"),
    Entity(id="kettle", name="Copper Kettle", type="Location"),
    Entity(id="choir", name="Ashen Choir", type="Faction", visibility="gm"),
]
CHUNKS = [
    _chunk("s3", 3, "hob", "choir"),
    _chunk("s5", 5, "kettle", subject="hob"),
    _chunk("s7", 7, "hob"),
    _chunk("s9", 9, "kettle", visibility="gm"),
    _chunk("lore", None, "hob", "kettle"),
]


def test_the_view_records_the_sessions_each_entity_was_mentioned_in() -> None:
    view = build_view("c", ENTITIES, [], CHUNKS, [], as_player=False)
    assert view.mentioned_sessions == {"choir": (3,), "hob": (3, 5, 7), "kettle": (5, 9)}


def test_players_do_not_learn_of_gm_only_sessions_and_as_of_cuts_the_future() -> None:
    player = build_view("c", ENTITIES, [], CHUNKS, [], as_player=True)
    assert player.mentioned_sessions == {"hob": (3, 5, 7), "kettle": (5,)}
    earlier = build_view("c", ENTITIES, [], CHUNKS, [], as_player=False, as_of_session=5)
    assert earlier.mentioned_sessions == {"choir": (3,), "hob": (3, 5), "kettle": (5,)}


def test_the_entity_view_shows_first_and_last_session_in_text_and_json() -> None:
    view = entity_view(build_view("c", ENTITIES, [], CHUNKS, [], as_player=False), "Hob Tarrow")
    assert view.mentioned_sessions == (3, 5, 7)
    data = json.loads(view.model_dump_json())
    assert (data["mentioned_sessions"], data["first_session"], data["last_session"]) == (
        [3, 5, 7], 3, 7,
    )  # fmt: skip
    console = Console(file=io.StringIO(), width=120)
    render_entity(console, view)
    assert "mentioned in sessions 3–7 (3, 5, 7)" in console.file.getvalue()  # type: ignore[attr-defined]


def test_an_entity_no_recap_mentions_has_no_sessions() -> None:
    bare = [*ENTITIES, Entity(id="wenna", name="Wenna Marsh", type="NPC")]
    view = entity_view(build_view("c", bare, [], CHUNKS, [], as_player=False), "Wenna Marsh")
    assert (view.mentioned_sessions, view.first_session, view.last_session) == ((), None, None)


def test_the_sessions_line_names_a_span_and_its_gaps() -> None:
    assert sessions_line((4,)) == "mentioned in session 4"
    assert sessions_line((3, 4, 5)) == "mentioned in sessions 3–5"
    assert sessions_line((3, 7)) == "mentioned in sessions 3–7 (3, 7)"
