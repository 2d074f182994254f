"""Header-aware chunking: contiguous substrings, heading paths, visibility, stable ids."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path
from typing import Literal

import pytest

from extraction.chunking import chunk_document, split_span
from extraction.sources import discover, load_document
from graphrag_core.models import Chunk, SourceDocument

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "emberfall" / "world"

NOTE = """---
type: NPC
aliases: [Torven]
---
# Torven Blackwater

A stout, cheerful cloth merchant.

## Appearance

Grey beard, blue coat.

## GM Notes

He keeps a ledger of bribes.

### Plans

Sell the ledger to the Baron.

## Secrets of the Road

He knows a smugglers' path.

## Friends

Marta Hollis.
"""

Kind = Literal["markdown", "text", "vault", "worldpack"]


def _doc(text: str, kind: Kind = "markdown", path: str = "notes/torven.md") -> SourceDocument:
    return SourceDocument(path=path, kind=kind, sha256="x", text=text)


def _assert_substrings(doc: SourceDocument, chunks: list[Chunk]) -> None:
    for chunk in chunks:
        assert chunk.text == doc.text[chunk.start : chunk.end]
        assert chunk.text.strip() == chunk.text != ""
        assert chunk.content_hash == hashlib.sha256(chunk.text.encode()).hexdigest()
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)


def test_headings_front_matter_and_visibility() -> None:
    doc = _doc(NOTE, "vault")
    chunks = chunk_document(doc, chunk_size=1200)
    _assert_substrings(doc, chunks)
    assert [(c.heading, c.visibility) for c in chunks] == [
        ("Torven Blackwater", "party"),
        ("Torven Blackwater > Appearance", "party"),
        ("Torven Blackwater > GM Notes", "gm"),
        ("Torven Blackwater > GM Notes > Plans", "gm"),
        ("Torven Blackwater > Secrets of the Road", "gm"),
        ("Torven Blackwater > Friends", "party"),
    ]
    assert "type: NPC" not in "".join(c.text for c in chunks)
    assert chunks[0].start == NOTE.index("# Torven")


def test_gm_word_is_case_sensitive_secret_is_not() -> None:
    text = "# Gm tips\n\nparty text\n\n# The SECRET door\n\nhidden\n\n# Programming\n\nok\n"
    chunks = chunk_document(_doc(text), chunk_size=1200)
    assert [c.visibility for c in chunks] == ["party", "gm", "party"]


def test_front_matter_visibility_gm_makes_every_chunk_gm() -> None:
    text = "---\nvisibility: gm\n---\n# Cult\n\nThe cult meets at night.\n\n## Rites\n\nFire.\n"
    chunks = chunk_document(_doc(text, "vault"), chunk_size=1200)
    assert chunks and all(c.visibility == "gm" for c in chunks)


def test_heading_only_section_joins_the_next() -> None:
    text = "# Places\n## Millbrook\n\nA village.\n"
    chunks = chunk_document(_doc(text), chunk_size=1200)
    assert len(chunks) == 1
    assert chunks[0].text.startswith("# Places")
    assert chunks[0].heading == "Places > Millbrook"


def test_large_section_splits_at_paragraphs_then_sentences() -> None:
    paragraphs = [" ".join(f"Sentence {p}-{s} is here." for s in range(12)) for p in range(6)]
    text = "# Long\n\n" + "\n\n".join(paragraphs) + "\n"
    doc = _doc(text)
    chunks = chunk_document(doc, chunk_size=200)
    _assert_substrings(doc, chunks)
    assert len(chunks) > 6
    assert all(len(c.text) <= 200 for c in chunks)
    assert all(c.text.endswith(".") for c in chunks)
    assert all(c.heading == "Long" for c in chunks)


def test_unbroken_text_is_cut_hard() -> None:
    doc = _doc("x" * 450, "text", "a.txt")
    chunks = chunk_document(doc, chunk_size=200)
    assert [len(c.text) for c in chunks] == [200, 200, 50]


def test_overlap_reaches_back_and_stays_substring() -> None:
    text = " ".join(f"word{i}" for i in range(300))
    doc = _doc(text, "text", "a.txt")
    plain = chunk_document(doc, chunk_size=200)
    overlapped = chunk_document(doc, chunk_size=200, overlap=40)
    _assert_substrings(doc, overlapped)
    assert len(plain) == len(overlapped)
    for before, after in zip(plain[1:], overlapped[1:], strict=True):
        assert before.start - 40 <= after.start < before.start
        assert after.end == before.end


def test_split_span_covers_everything() -> None:
    text = "alpha beta. gamma delta.\n\nepsilon " * 20
    spans = split_span(text, 0, len(text), 60)
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))


def test_ids_are_stable_and_empty_chunks_skipped() -> None:
    doc = _doc("# A\n\n   \n\n# B\n\ntext\n", path="Notes/My File.md")
    first = chunk_document(doc, chunk_size=1200)
    assert first == chunk_document(doc, chunk_size=1200)
    assert len(first) == 1
    assert first[0].id == f"notes-my-file-md#0-{first[0].content_hash[:8]}"


def test_headings_inside_code_fences_are_ignored() -> None:
    text = "# Real\n\n```\n# not a heading\n```\n\nafter\n"
    chunks = chunk_document(_doc(text), chunk_size=1200)
    assert [c.heading for c in chunks] == ["Real"]


def test_worldpack_one_chunk_per_item_and_its_secrets_apart() -> None:
    text = (
        "# pack\nentities:\n"
        "  - name: Millbrook\n    type: Location\n\n  # ---- people\n"
        "  - name: Torven\n    type: NPC\n    gm_notes: ledger\n"
        "  - name: Cult\n    visibility: gm\n"
        "relations: []\n"
    )
    doc = _doc(text, "worldpack", "world.yaml")
    chunks = chunk_document(doc, chunk_size=200)
    _assert_substrings(doc, chunks)
    assert [(c.heading, c.visibility) for c in chunks] == [
        ("Millbrook", "party"),
        ("Torven", "party"),
        ("Torven", "gm"),
        ("Cult", "gm"),
    ]
    assert chunks[0].text == "- name: Millbrook\n    type: Location"
    assert chunks[2].text == "gm_notes: ledger"
    assert "relations" not in chunks[-1].text


PACK_WITH_SECRETS = """\
entities:
  - id: dace-rook
    name: Dace Rook
    gm_aliases: [the Soot Man]
    description: A scarred gang boss.
    gm_notes: |
      Works for the guild.
      Paid in silver.
    attributes: {race: human}
    relations:
      - {type: leads, target: cinder-knives}
      - {type: works_for, target: hesper-vantrell, visibility: gm}
      - type: knows
        target: marta
        visibility: Secret
        description: Owes her a debt.
      - {type: knows, target: pip}
  - name: Guild
    relations:
      - {type: employs, target: cinder-knives, visibility: gm, description: Pays the Knives.}
"""


def test_worldpack_secret_relations_and_notes_never_sit_in_a_party_chunk() -> None:
    doc = _doc(PACK_WITH_SECRETS, "worldpack", "world.yaml")
    chunks = chunk_document(doc, chunk_size=200)
    _assert_substrings(doc, chunks)
    party = "\n".join(c.text for c in chunks if c.visibility == "party")
    secret = "\n".join(c.text for c in chunks if c.visibility == "gm")
    for text in ("Soot Man", "Works for the guild", "Paid in silver", "hesper-vantrell",
                 "Owes her a debt", "target: marta", "Pays the Knives"):  # fmt: skip
        assert text not in party and text in secret, text
    for text in ("A scarred gang boss", "race: human", "cinder-knives}", "target: pip"):
        assert text in party, text
    assert all(c.heading in ("Dace Rook", "Guild") for c in chunks)
    # a gap holding nothing but a bare key ("relations:") is no chunk of its own
    assert not any(c.text.strip() == "relations:" for c in chunks)
    assert [c.visibility for c in chunks if c.heading == "Guild"] == ["party", "gm"]


def test_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        chunk_document(_doc("x"), chunk_size=0)


@pytest.mark.skipif(not EXAMPLES.is_dir(), reason="example campaign not present")
@pytest.mark.parametrize("chunk_size", [200, 500, 1200])
def test_every_example_chunk_is_a_contiguous_substring(chunk_size: int) -> None:
    for path in discover(EXAMPLES):
        doc = load_document(path, EXAMPLES)
        chunks = chunk_document(doc, chunk_size=chunk_size, overlap=chunk_size // 10)
        _assert_substrings(doc, chunks)
        assert len({c.id for c in chunks}) == len(chunks)
        if doc.kind != "worldpack":
            assert all(len(c.text) <= chunk_size + chunk_size // 10 for c in chunks)
        for chunk in chunks:
            if "GM" in chunk.heading.split(" > ")[-1].split():
                assert chunk.visibility == "gm", chunk.id


@pytest.mark.parametrize(
    "heading",
    [
        "DM Notes",
        "GM",
        "Secrets",
        "Spoilers",
        "For the Game Master",
        "Dungeon Master's notes",
        "gm-only",
        "dm notes",
        "GMs only",
        "Keeper's Notes",
        "Keeper only",
        "Referee notes",
        "Storyteller's secrets",
        "Behind the Screen",
        "Not for players",
    ],
)
def test_gm_and_dm_sections_are_secret(heading: str) -> None:
    """Other games name the game master otherwise: Call of Cthulhu's Keeper, the referee."""
    text = f"# Gull Harbour\n\nA port.\n\n## {heading}\n\nThe harbourmaster takes bribes.\n"
    chunks = chunk_document(_doc(text), chunk_size=1200)
    assert [c.visibility for c in chunks] == ["party", "gm"]


@pytest.mark.parametrize(
    ("heading", "visibility"),
    [
        ("Who's Who (players' page, opinions ours, not the GM's)", "party"),
        ("Our notes, non-GM", "party"),
        ("Players' notes, not for the DM", "party"),
        ("Not for players, GM only", "gm"),
        ("GM outline, not the players' notes", "gm"),
        ("Not the GM's secrets", "gm"),  # "secrets" alone is secret
    ],
)
def test_a_gm_named_only_to_be_denied_marks_nothing(heading: str, visibility: str) -> None:
    """A players' page says whose it is not ("not the GM's"): its sections stay the party's."""
    text = f"# {heading}\n\nThe harbourmaster takes bribes.\n"
    chunks = chunk_document(_doc(text), chunk_size=1200)
    assert [c.visibility for c in chunks] == [visibility]
