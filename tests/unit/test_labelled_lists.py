"""Relations stated as layout: labelled list lines and parenthesised lists on header lines,
between the chunk's subject and the known entities listed."""

from __future__ import annotations

from extraction.offline import extract
from graphrag_core.models import SourceDocument

PACK = """\
entities:
  - {name: Salt Guild, type: Faction, description: Merchants.}
  - {name: Lantern Company, type: Faction}
  - {name: Cinder Knives, type: Faction}
  - {name: Torven Blackwater, type: NPC, aliases: [Torven]}
  - {name: Marta Hollis, type: NPC}
  - {name: Millbrook, type: Location}
  - {name: Wizard, type: Other}
  - {name: Sorcerer, type: Other}
  - {name: Fire Bolt, type: Other}
  - {name: Aboleth, type: Creature}
  - {name: Poisoned, type: Other}
  - {name: Charmed, type: Other}
  - {name: The Drowned Court, type: Faction, visibility: gm}
"""


def _doc(path: str, text: str) -> SourceDocument:
    return SourceDocument(path=path, kind="markdown", sha256=path, text=text)


def _relations(*docs: SourceDocument) -> set[tuple[str, str, str, str]]:
    pack = SourceDocument(path="world.yaml", kind="worldpack", sha256="p", text=PACK)
    extraction = extract([pack, *docs], chunk_size=2000)
    stated = (r for r in extraction.relations if r.evidence == "stated")
    return {(r.source, r.type, r.target, r.description) for r in stated}


def test_labelled_lines_relate_the_subject_to_every_known_item() -> None:
    note = _doc("guild.md", """# Salt Guild

**Allies:** the Lantern Company and Millbrook
- **Enemies** Cinder Knives, the Red Hand
Members: Torven, marta hollis
Hit Points: 45
""")  # fmt: skip
    assert _relations(note) == {
        ("salt-guild", "allied_with", "lantern-company", "Allies"),
        ("salt-guild", "allied_with", "millbrook", "Allies"),
        ("salt-guild", "hostile_to", "cinder-knives", "Enemies"),
        ("torven-blackwater", "member_of", "salt-guild", "Members"),
        ("marta-hollis", "member_of", "salt-guild", "Members"),
    }


def test_a_label_that_names_no_relation_gives_related_to_with_the_label() -> None:
    monster = _doc("aboleth.md", "## Aboleth\n\n**Condition Immunities** poisoned, charmed\n")
    spell = _doc(
        "fire-bolt.md", "## Fire Bolt\n\n*Level 0 Evocation (Sorcerer, Wizard)*\n\nA mote."
    )
    assert _relations(monster, spell) == {
        ("aboleth", "related_to", "poisoned", "Condition Immunities"),
        ("aboleth", "related_to", "charmed", "Condition Immunities"),
        ("fire-bolt", "related_to", "sorcerer", "listed on its header line"),
        ("fire-bolt", "related_to", "wizard", "listed on its header line"),
    }


def test_prose_parentheses_and_lists_without_a_subject_give_nothing() -> None:
    prose = _doc("notes.md", "# Salt Guild\n\nThe guild (Torven, Marta Hollis) met.\n")
    orphan = _doc("orphan.md", "Allies: Torven, Millbrook\n")
    assert _relations(prose, orphan) == set()


def test_a_secret_name_in_a_party_list_is_not_resolved() -> None:
    note = _doc("guild.md", "# Salt Guild\n\nEnemies: The Drowned Court\n")
    assert _relations(note) == set()
