"""World packs: validation, defaults, warnings and errors."""

from __future__ import annotations

import pytest

from extraction.worldpack import parse_worldpack
from graphrag_core.errors import SourceError
from graphrag_core.models import SourceDocument

PACK = """
entities:
  - id: tavern-redoak
    name: Red Oak Tavern
    type: location
    aliases: [the Red Oak, Redoak]
    status: intact
    description: "  A warm tavern. "
    gm_notes: Protection money.
    attributes: {region: Lowmarch, rooms: 6, empty: null}
    relations:
      - {type: located_in, target: millbrook}
      - {type: Owned By, target: Marta Hollis, attitude: allied, visibility: gm}
  - name: Marta Hollis
    type: Innkeeper
    aliases: Marta
    relations:
      - {type: befriends, target: Pip}
relations:
  - {source: Marta, type: knows, target: tavern-redoak, description: regulars}
"""


def _doc(text: str) -> SourceDocument:
    return SourceDocument(path="world.yaml", kind="worldpack", sha256="x", text=text)


def test_entities_and_relations() -> None:
    pack = parse_worldpack(_doc(PACK))
    tavern, marta = pack.entities
    assert tavern.id == "tavern-redoak"
    assert tavern.type == "Location"
    assert tavern.description == "A warm tavern."
    assert tavern.attributes == {"region": "Lowmarch", "rooms": "6"}
    assert tavern.sources == ("world.yaml",)
    assert marta.id == "marta-hollis"
    assert marta.aliases == ("Marta",)
    assert marta.type == "Other"
    keys = [(r.source, r.type, r.target, r.attitude, r.visibility) for r in pack.relations]
    assert keys == [
        ("tavern-redoak", "located_in", "millbrook", None, "party"),
        ("tavern-redoak", "owned_by", "Marta Hollis", "allied", "gm"),
        ("marta-hollis", "related_to", "Pip", None, "party"),
        ("Marta", "knows", "tavern-redoak", None, "party"),
    ]
    assert all(r.source_path == "world.yaml" for r in pack.relations)
    assert len(pack.warnings) == 2
    assert "unknown entity type 'Innkeeper'" in pack.warnings[0]
    assert "unknown relation type 'befriends'" in pack.warnings[1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("entities:\n  - name: A\n    colour: red\n", r"entity #1 \(A\): field 'colour'"),
        ("entities:\n  - type: NPC\n", r"entity #1: field 'name': Field required"),
        (
            "entities:\n  - name: A\n  - name: B\n    relations:\n      - {target: x}\n",
            r"entity #2 \(B\): field 'relations\.0\.type'",
        ),
        ("entities:\n  - name: A\n    visibility: maybe\n", r"field 'visibility'"),
        (
            "entities: []\nrelations:\n  - {type: knows, target: b}\n",
            r"relation #1: field 'source'",
        ),
        ("entities: [\n", r"invalid YAML at line"),
        ("session_id: 3\n", r"not a world pack"),
    ],
)
def test_invalid_packs_raise_source_error(text: str, message: str) -> None:
    with pytest.raises(SourceError, match=message) as caught:
        parse_worldpack(_doc(text))
    assert caught.value.path == "world.yaml"


def test_statuses_are_normalised_and_checked_against_the_type() -> None:
    text = (
        "entities:\n"
        "  - {name: Blue Boar Inn, type: Location, status: Destroyed}\n"
        "  - {name: Grey Gull Inn, type: Location, status: burned down}\n"
        "  - {name: Old Tom, type: NPC, status: ' Slain '}\n"
        "  - {name: Red Hand, type: Faction, status: destroyed}\n"
        "  - {name: Mara, type: NPC, status: sleepy}\n"
    )
    pack = parse_worldpack(_doc(text))
    assert [e.status for e in pack.entities] == [
        "destroyed", "destroyed", "dead", "disbanded", None,
    ]  # fmt: skip
    bad = [w for w in pack.warnings if "sleepy" in w]
    assert bad == [
        "world.yaml: Mara: status 'sleepy' is not a NPC status, so it was ignored; "
        "use one of alive, dead, missing, unknown, captured"
    ]
    assert any(
        "Grey Gull Inn" in w and "'burned down' read as 'destroyed'" in w for w in pack.warnings
    )
    assert not any("Blue Boar Inn" in w for w in pack.warnings)  # only the case differed


def test_visibility_accepts_the_usual_spellings() -> None:
    text = (
        "entities:\n"
        "  - {name: A, visibility: secret}\n"
        "  - {name: B, visibility: GM-only}\n"
        "  - {name: C, visibility: Public}\n"
        "  - name: D\n    relations:\n      - {type: knows, target: A, visibility: hidden}\n"
    )
    pack = parse_worldpack(_doc(text))
    assert [e.visibility for e in pack.entities] == ["gm", "gm", "party", "party"]
    assert pack.relations[0].visibility == "gm"
