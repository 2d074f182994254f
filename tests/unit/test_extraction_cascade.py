"""The resolution cascade, schema pruning and the GM decisions."""

from __future__ import annotations

from extraction.cascade import ResolutionCascade
from extraction.decisions import apply_decisions
from extraction.llm_schema import ChunkExtraction, ExtractedEntity, ExtractedRelation
from extraction.name_match import core_words
from extraction.pruning import prune
from graphrag_core.models import Entity, Extraction, GmDecision, Relation
from tests.fakes import HashEmbedder


def _e(name: str, type_: str = "NPC", description: str = "", id_: str = "pending") -> Entity:
    return Entity(id=id_, name=name, type=type_, description=description)


def test_torven_three_ways_is_one_npc() -> None:
    cascade = ResolutionCascade([_e("Torven Blackwater", id_="torven-blackwater")])
    assert cascade.resolve(_e("Torven")) == "torven-blackwater"
    assert cascade.resolve(_e("the merchant Torven")) == "torven-blackwater"
    assert cascade.resolve(_e("Torven Blackwater")) == "torven-blackwater"
    assert [r.split(": ", 2)[2].split(" ")[0] for r in cascade.records] == ["fuzzy", "fuzzy"]
    assert cascade.exact_merges == 1  # counted, not one record each
    assert "the merchant Torven" in cascade.entities["torven-blackwater"].aliases


def test_two_red_oaks_of_different_types_stay_two() -> None:
    cascade = ResolutionCascade([_e("Red Oak", "Location", id_="red-oak")])
    assert cascade.resolve(_e("Red Oak", "Faction")) == "red-oak-faction"
    assert any("same name, different type" in r for r in cascade.records)


def test_ambiguous_first_name_is_not_merged() -> None:
    known = [_e("Torven Blackwater", id_="tb"), _e("Torven Ashdown", id_="ta")]
    cascade = ResolutionCascade(known)
    assert cascade.resolve(_e("Torven")) == "torven"
    assert any(r.startswith("ambiguous") for r in cascade.records)


def test_titles_are_not_core_words() -> None:
    assert core_words("the Hollow King") == ("hollow",)
    assert core_words("the merchant Torven") == ("torven",)


def test_embedding_step_and_llm_arbitration_for_the_uncertain_band() -> None:
    desc = "keeper of the salt ledger in millbrook village"
    known = [_e("Old Wenna", description=desc, id_="old-wenna")]
    asked: list[str] = []

    def arbiter(a: Entity, b: Entity) -> bool:
        asked.append(a.name)
        return True

    cascade = ResolutionCascade(known, embedder=HashEmbedder(), arbiter=arbiter)
    assert cascade.resolve(_e("Wenna Old", description=desc)) == "old-wenna"
    found = cascade.resolve(_e("Old Wenn", description="keeper of the salt ledger, Millbrook"))
    assert found == "old-wenna"
    assert any("embedding similarity" in r for r in cascade.records)


def test_pruning_maps_near_types_and_drops_the_rest_with_records() -> None:
    found = ChunkExtraction(
        entities=[
            ExtractedEntity(name="Mira", type="person"),
            ExtractedEntity(name="Zzyx", type="quantum field"),
            ExtractedEntity(name="Millbrook", type="Locations"),
        ],
        relations=[
            ExtractedRelation(source="Mira", type="located in", target="Millbrook"),
            ExtractedRelation(source="Mira", type="knows", target="Nobody Here"),
            ExtractedRelation(source="Mira", type="zzqqxx", target="Millbrook"),
        ],
    )
    pruned, records = prune(found, "c1", lambda name: False)
    assert [(e.name, e.type) for e in pruned.entities] == [
        ("Mira", "NPC"),
        ("Millbrook", "Location"),
    ]
    assert [r.type for r in pruned.relations] == ["located_in"]
    assert len(records) == 6 and all(r.startswith("chunk c1") for r in records)


def _extraction() -> Extraction:
    return Extraction(
        entities=(
            Entity(id="torven", name="Torven", type="NPC"),
            Entity(id="torven-blackwater", name="Torven Blackwater", type="NPC",
                   aliases=("Tor", "Blackwater the Younger")),
            Entity(id="salt-guild", name="Salt Guild", type="Faction"),
        ),
        relations=(Relation(source="torven", target="salt-guild", type="member_of"),),
    )  # fmt: skip


def test_gm_decisions_merge_split_and_alias_replay_in_order() -> None:
    decisions = [
        GmDecision(seq=1, kind="merge", subject="torven", target="torven-blackwater",
                   reason="same merchant"),
        GmDecision(seq=2, kind="split", subject="torven-blackwater",
                   target="blackwater-the-younger", names=("Blackwater the Younger",)),
        GmDecision(seq=3, kind="alias_add", subject="salt-guild", names=("the Guild",)),
        GmDecision(seq=4, kind="merge", subject="gone", target="salt-guild"),
    ]  # fmt: skip
    result, records, _ = apply_decisions(_extraction(), decisions)
    entities = {e.id: e for e in result.entities}
    assert "torven" not in entities
    assert entities["torven-blackwater"].aliases == ("Tor", "Torven")
    assert entities["blackwater-the-younger"].name == "Blackwater the Younger"
    assert entities["salt-guild"].aliases == ("the Guild",)
    assert [r.key for r in result.relations] == [("torven-blackwater", "member_of", "salt-guild")]
    assert "same merchant" in records[0] and "skipped" in records[3]


def test_the_fuzzy_step_forgives_typos() -> None:
    cascade = ResolutionCascade([_e("Torven Blackwater", id_="torven-blackwater")])
    assert cascade.resolve(_e("Torvin Blackwater")) == "torven-blackwater"
    assert cascade.resolve(_e("Torven Blackwatter")) == "torven-blackwater"
    assert cascade.created == set()
    assert any("similarity 9" in r for r in cascade.records)


def test_one_shared_word_does_not_merge_places() -> None:
    cascade = ResolutionCascade([_e("Oak", "Location", id_="oak")])
    assert cascade.resolve(_e("Harrow Oak", "Location")) == "harrow-oak"
    assert cascade.resolve(_e("Torvin", "NPC")) == "torvin"
    assert cascade.resolve(_e("Torven", "NPC")) == "torven"  # "Torvin" is not a typo of it


def test_a_full_name_match_wins_over_a_pc_npc_type_slip() -> None:
    known = _e("Torven Blackwater", id_="torven-blackwater")
    cascade = ResolutionCascade([known])
    slipped = Entity(id="x", name="Torven", type="PC", aliases=("Torven Blackwater",))
    assert cascade.resolve(slipped) == "torven-blackwater"
    assert cascade.entities["torven-blackwater"].type == "NPC"
    assert any("type PC → NPC" in r for r in cascade.records)
    assert cascade.resolve(_e("Red Oak", "Location")) == "red-oak"  # no such slip for places


def test_a_secret_candidate_adds_only_secret_names_and_notes() -> None:
    """B4: a GM-only candidate joining a party entity never fills a public field."""
    brannoc = Entity(id="captain-brannoc", name="Captain Brannoc", type="NPC",
                     aliases=("Brannoc",), description="Captain of the watch.")  # fmt: skip
    cascade = ResolutionCascade([brannoc])
    secret = Entity(id="x", name="Captain Brannoc", type="NPC", aliases=("the Baron's Dog",),
                    visibility="gm", description="Ignores the Knives on the Baron's orders.",
                    status="dead")  # fmt: skip
    assert cascade.resolve(secret) == "captain-brannoc"
    merged = cascade.entities["captain-brannoc"]
    assert merged.aliases == ("Brannoc",)
    assert merged.gm_aliases == ("the Baron's Dog",)
    assert merged.description == "Captain of the watch."
    assert merged.gm_notes == "Ignores the Knives on the Baron's orders."
    assert merged.status is None and merged.visibility == "party"


def test_new_entities_get_ids_that_do_not_depend_on_chunk_order() -> None:
    smith, village = _e("Blackthorn", "NPC"), _e("Blackthorn", "Location")
    orders = []
    for first, second in ((smith, village), (village, smith)):
        cascade = ResolutionCascade([])
        cascade.resolve(first)
        cascade.resolve(second)
        cascade.stable_ids()
        orders.append({e.id: e.type for e in cascade.entities.values()})
    assert orders[0] == orders[1] == {"blackthorn": "Location", "blackthorn-npc": "NPC"}
    cascade = ResolutionCascade([])
    cascade.resolve(village)
    cascade.resolve(smith)
    renames = cascade.stable_ids({("blackthorn", "NPC"): "blackthorn"})  # the store's id
    assert renames == {"blackthorn": "blackthorn-location", "blackthorn-npc": "blackthorn"}
    assert cascade.entities["blackthorn"].type == "NPC"
