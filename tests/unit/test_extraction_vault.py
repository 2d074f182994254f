"""Obsidian-style notes: one note, one entity."""

from __future__ import annotations

import pytest

from extraction.chunking import chunk_document
from extraction.vault import parse_note
from graphrag_core.models import SourceDocument

NOTE = """---
type: NPC
aliases: [Garrick, Foreman Stone]
gm_aliases: The Debtor
status: alive
worships: "[[Orun the Stonefather]]"
located_in: "[[Stonejaw Mine]]"
member_of: [Miners' League, "[[Dwarves|the dwarves]]"]
gm_serves: "[[Master Quillon]]"
home: "[[Kestrel Ford]]"
race: dwarf
tags: [npc, miner]
gm_secret: owes 300 gp
---
# Garrick Stone

Garrick Stone is the foreman of [[Stonejaw Mine]] and worships [[Orun the Stonefather|Orun]].

He is furious with the [[Merchants' Guild#Leaders|Guild]].

## GM Notes

The Guild buys his debts through [[Master Quillon]].
"""


def _doc(text: str, path: str = "vault/people/Garrick Stone.md") -> SourceDocument:
    return SourceDocument(path=path, kind="vault", sha256="x", text=text)


def test_entity_from_front_matter_and_body() -> None:
    entity = parse_note(_doc(NOTE)).entity
    assert entity.id == "garrick-stone"
    assert entity.name == "Garrick Stone"
    assert entity.type == "NPC"
    assert entity.aliases == ("Garrick", "Foreman Stone")
    assert entity.gm_aliases == ("The Debtor",)
    assert entity.status == "alive"
    assert entity.description == (
        "Garrick Stone is the foreman of Stonejaw Mine and worships Orun."
    )
    assert (
        entity.gm_notes == "The Guild buys his debts through Master Quillon.\n\nsecret: owes 300 gp"
    )
    assert entity.attributes == {"race": "dwarf", "tags": "npc, miner", "home": "Kestrel Ford"}
    assert entity.sources == ("vault/people/Garrick Stone.md",)


def test_relations_from_front_matter_and_links() -> None:
    relations = parse_note(_doc(NOTE)).relations
    keys = {(r.type, r.target, r.visibility) for r in relations}
    assert keys == {
        ("worships", "Orun the Stonefather", "party"),
        ("located_in", "Stonejaw Mine", "party"),
        ("member_of", "Miners' League", "party"),
        ("member_of", "Dwarves", "party"),
        ("serves", "Master Quillon", "gm"),
        ("related_to", "Kestrel Ford", "party"),
        ("related_to", "Stonejaw Mine", "party"),
        ("related_to", "Orun the Stonefather", "party"),
        ("related_to", "Merchants' Guild", "party"),
        ("related_to", "Master Quillon", "gm"),
    }
    assert all(r.source == "garrick-stone" for r in relations)


def test_defaults_name_override_folder_type_and_secret_note() -> None:
    text = "---\nname: The Ashen Choir\nvisibility: gm\n---\n\nA cult. See [[Veyne]].\n"
    note = parse_note(_doc(text, "vault/factions/choir.md"))
    assert note.entity.id == "the-ashen-choir"
    assert note.entity.type == "Faction"
    assert note.entity.visibility == "gm"
    assert note.entity.description == "A cult. See Veyne."
    assert [r.visibility for r in note.relations] == ["gm"]


def test_plain_note_without_front_matter() -> None:
    note = parse_note(_doc("# Heading\n\nJust text.\n", "vault/Loose Note.md"))
    assert (note.entity.id, note.entity.type, note.entity.description) == (
        "loose-note",
        "Other",
        "Just text.",
    )


@pytest.mark.parametrize(
    "value", ["gm", "GM", "secret", "GM-only", "gm_only", "dm", "DM only", "hidden", "private"]
)
def test_secret_visibility_spellings_make_the_note_gm_only(value: str) -> None:
    text = f"---\nvisibility: {value}\n---\n# Mara Vex\n\nThe hidden mastermind.\n"
    note = parse_note(_doc(text, "vault/npcs/Mara Vex.md"))
    assert note.entity.visibility == "gm"
    assert not note.warnings
    chunks = chunk_document(_doc(text, "vault/npcs/Mara Vex.md"), chunk_size=1200)
    assert chunks and all(c.visibility == "gm" for c in chunks)


@pytest.mark.parametrize("value", ["party", "Public", "players"])
def test_party_visibility_spellings(value: str) -> None:
    note = parse_note(_doc(f"---\nvisibility: {value}\n---\nHello.\n"))
    assert note.entity.visibility == "party"


@pytest.mark.parametrize("value", ["sekret", "false", "maybe later"])
def test_an_unknown_visibility_fails_closed_with_a_warning(value: str) -> None:
    text = f"---\nvisibility: {value}\n---\n# Old Tom\n\nSecretly the lost heir.\n"
    doc = _doc(text, "vault/npcs/Old Tom.md")
    note = parse_note(doc)
    assert note.entity.visibility == "gm"
    assert len(note.warnings) == 1
    assert note.warnings[0].startswith("vault/npcs/Old Tom.md: Old Tom: ")
    assert "treated as gm" in note.warnings[0]
    assert all(c.visibility == "gm" for c in chunk_document(doc, chunk_size=1200))


def test_front_matter_status_is_normalised_and_checked() -> None:
    dead = parse_note(_doc("---\ntype: NPC\nstatus: Dead\n---\nGone.\n"))
    assert dead.entity.status == "dead" and not dead.warnings
    ruined = parse_note(_doc("---\ntype: Location\nstatus: ruined\n---\nAsh.\n", "vault/Inn.md"))
    assert ruined.entity.status == "destroyed"
    odd = parse_note(_doc("---\ntype: Location\nstatus: cosy\n---\nWarm.\n", "vault/Inn.md"))
    assert odd.entity.status is None
    assert odd.warnings == [
        "vault/Inn.md: Inn: status 'cosy' is not a Location status, so it was ignored; "
        "use one of intact, damaged, destroyed, abandoned, unknown"
    ]
