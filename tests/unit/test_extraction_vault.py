"""Obsidian-style notes: one note, one entity."""

from __future__ import annotations

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
