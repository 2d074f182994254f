"""Entity resolution and the merging of definitions from several sources."""

from __future__ import annotations

from extraction.resolution import EntityResolver, canonical_ids, merge_entities
from graphrag_core.models import PARTY_ID, Entity

TORVEN = Entity(
    id="torven-blackwater", name="Torven Blackwater", type="NPC",
    aliases=("Torven",), gm_aliases=("The Ledger Man",),
)  # fmt: skip
TAVERN = Entity(id="tavern-redoak", name="The Red Oak Tavern", type="Location", aliases=("Redoak",))


def test_resolve_cascade() -> None:
    resolver = EntityResolver([TORVEN, TAVERN])
    assert resolver.resolve("torven-blackwater") == "torven-blackwater"
    assert resolver.resolve("  torven   BLACKWATER ") == "torven-blackwater"
    assert resolver.resolve("Torven") == "torven-blackwater"
    assert resolver.resolve("red oak tavern") == "tavern-redoak"
    assert resolver.resolve("redoak") == "tavern-redoak"
    assert resolver.resolve("the ledger man") == "torven-blackwater"
    assert resolver.resolve("the ledger man", include_gm=False) is None
    assert resolver.resolve("Torvin") is None


def test_party_names_always_resolve() -> None:
    resolver = EntityResolver([TORVEN])
    for name in ("party", "player_party", "The Party", "players", PARTY_ID):
        assert resolver.resolve(name) == PARTY_ID


def test_suggest_names_near_matches() -> None:
    resolver = EntityResolver([TORVEN, TAVERN])
    assert resolver.suggest("Torvin Blackwatr")[0] == "Torven Blackwater (torven-blackwater)"
    assert resolver.suggest("zzzzqqq") == []


def test_merge_same_id_and_same_name_and_type() -> None:
    pack = Entity(
        id="torven-blackwater", name="Torven Blackwater", type="NPC", status="alive",
        description="Merchant.", attributes={"age": "52"}, sources=("world.yaml",),
        visibility="gm", gm_notes="Ledger.",
    )  # fmt: skip
    note = Entity(
        id="torven", name="torven blackwater", type="NPC", aliases=("Old T",),
        description="A stout, cheerful merchant.", attributes={"age": "99", "race": "human"},
        sources=("vault/Torven.md",), gm_notes="Bribes.",
    )  # fmt: skip
    assert canonical_ids([pack, note]) == {"torven-blackwater": "torven-blackwater",
                                           "torven": "torven-blackwater"}  # fmt: skip
    (merged,) = merge_entities([pack, note, TORVEN])
    assert merged.id == "torven-blackwater"
    assert merged.name == "Torven Blackwater"
    assert merged.aliases == ("Old T", "Torven")
    assert merged.gm_aliases == ("The Ledger Man",)
    assert merged.status == "alive"
    assert merged.visibility == "party"
    assert merged.description == "A stout, cheerful merchant."
    assert merged.gm_notes == "Ledger.\n\nBribes.\n\nMerchant."  # the GM-only description
    assert merged.attributes == {"age": "52", "race": "human"}
    assert merged.sources == ("world.yaml", "vault/Torven.md")


def test_same_name_different_types_stay_apart() -> None:
    tree = Entity(id="red-oak-tree", name="Red Oak", type="Creature")
    inn = Entity(id="red-oak", name="Red Oak", type="Location")
    assert [e.id for e in merge_entities([tree, inn])] == ["red-oak-tree", "red-oak"]


GARRAN = Entity(id="garran", name="Garran", type="Other")
EEL = Entity(id="eel", name="Eel", type="Location")
ORLA = Entity(id="orla", name="Orla", type="NPC", aliases=("Mother Orla",))
DRAKES = Entity(id="reef-drakes", name="Reef Drakes", type="Creature")


def test_an_id_spelt_with_hyphens_finds_a_name_or_alias() -> None:
    resolver = EntityResolver([ORLA, TAVERN])
    assert resolver.resolve("mother-orla") == "orla"
    assert resolver.resolve("red-oak-tavern") == "tavern-redoak"


def test_near_names_resolve_only_when_one_entity_of_the_type_fits() -> None:
    resolver = EntityResolver([GARRAN, EEL, ORLA, DRAKES, TORVEN])
    assert resolver.resolve("Garran the Eel") is None  # the strict cascade never guesses
    assert resolver.resolve_near("Garran the Eel", "npc") == "garran"  # Eel is a Location
    assert resolver.resolve_near("Garran the Eel") is None  # Garran or Eel: ambiguous
    assert resolver.resolve_near("reef-drake", "creature") == "reef-drakes"  # plural
    assert resolver.resolve_near("reef-drake", "npc") is None  # not of the declared type
    assert resolver.resolve_near("Torvenn Blackwatter") is None  # a misspelling is no near name
    assert resolver.resolve_near("the Keeper") is None  # unknown
