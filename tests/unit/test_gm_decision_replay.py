"""GM decisions find their entities by id, name and type on replay (ids move when sources
change), and a GM-only entity merged into a party one stays secret."""

from __future__ import annotations

from extraction.decisions import apply_decisions
from graphrag_core.models import Entity, Extraction, GmDecision


def _entities(*entities: Entity) -> Extraction:
    return Extraction(entities=entities)


SMITH_MERGED = GmDecision(
    seq=1, kind="merge", subject="blackthorn", target="dace-rook", reason="Rook in disguise",
    subject_name="Blackthorn", subject_type="NPC", target_name="Dace Rook", target_type="NPC",
)  # fmt: skip
DACE = Entity(id="dace-rook", name="Dace Rook", type="NPC")


def test_a_merge_follows_its_entity_when_the_id_now_names_another() -> None:
    """A new village "Blackthorn" took the id the smith had: the merge still takes the smith."""
    moved = _entities(
        Entity(id="blackthorn", name="Blackthorn", type="Location"),
        Entity(id="blackthorn-npc", name="Blackthorn", type="NPC", description="A smith."),
        DACE,
    )
    result, records, _ = apply_decisions(moved, [SMITH_MERGED])
    entities = {e.id: e for e in result.entities}
    assert set(entities) == {"blackthorn", "dace-rook"}
    assert entities["blackthorn"].type == "Location" and entities["blackthorn"].aliases == ()
    assert entities["dace-rook"].aliases == ("Blackthorn",)
    assert "found by name as blackthorn-npc" in records[0] and "applied" in records[0]


def test_a_merge_whose_subject_the_model_now_names_differently_still_applies() -> None:
    decision = GmDecision(
        seq=1, kind="merge", subject="red-oak", target="cinder-knives",
        subject_name="Red Oak", subject_type="Faction",
        target_name="Cinder Knives", target_type="Faction",
    )  # fmt: skip
    renamed = _entities(
        Entity(id="the-red-oak-gang", name="The Red Oak Gang", type="Faction"),
        Entity(id="red-oak", name="Red Oak", type="Location"),  # the inn: another type
        Entity(id="cinder-knives", name="Cinder Knives", type="Faction"),
    )
    result, records, _ = apply_decisions(renamed, [decision])
    assert {e.id for e in result.entities} == {"red-oak", "cinder-knives"}
    assert "similar name as the-red-oak-gang" in records[0]


def test_a_decision_is_skipped_when_its_entity_is_ambiguous_or_gone() -> None:
    two = _entities(
        Entity(id="blackthorn-npc", name="Blackthorn", type="NPC"),
        Entity(id="blackthorn-npc-2", name="Blackthorn", type="NPC"),
        DACE,
    )
    result, records, _ = apply_decisions(two, [SMITH_MERGED])
    assert result == two
    assert records == [
        "GM decision 1 skipped: NPC 'Blackthorn' (stored as 'blackthorn') is ambiguous now: "
        "blackthorn-npc, blackthorn-npc-2"
    ]
    _, records, _ = apply_decisions(_entities(DACE), [SMITH_MERGED])
    assert records == [
        "GM decision 1 skipped: no NPC 'Blackthorn' (stored as 'blackthorn') any more"
    ]


def test_a_merge_already_made_by_resolution_is_not_applied_twice() -> None:
    joined = _entities(DACE.model_copy(update={"aliases": ("Blackthorn",)}))
    result, records, _ = apply_decisions(joined, [SMITH_MERGED])
    assert result == joined and "already one entity (dace-rook)" in records[0]


def test_merging_a_secret_entity_into_a_party_one_keeps_its_names_secret() -> None:
    prophet = Entity(id="the-ash-prophet", name="The Ash Prophet", type="NPC", visibility="gm",
                     aliases=("the Voice",), description="Leads the cult in secret.")  # fmt: skip
    anselm = Entity(id="brother-anselm", name="Brother Anselm", type="NPC",
                    description="A kindly priest.")  # fmt: skip
    decision = GmDecision(seq=1, kind="merge", subject="the-ash-prophet",
                          target="brother-anselm")  # fmt: skip
    result, _, _ = apply_decisions(_entities(prophet, anselm), [decision])
    (merged,) = result.entities
    assert merged.aliases == () and merged.description == "A kindly priest."
    assert merged.gm_aliases == ("The Ash Prophet", "the Voice")
    assert merged.gm_notes == "Leads the cult in secret."


def test_decisions_that_did_not_replay_as_stored_are_returned_as_warnings() -> None:
    """Skipped, or found by another id: the game master must see them; the rest are records."""
    moved = _entities(
        Entity(id="blackthorn-npc", name="Blackthorn", type="NPC", description="A smith."), DACE
    )
    _, records, warnings = apply_decisions(moved, [SMITH_MERGED])
    assert warnings == records and "found by name as blackthorn-npc" in warnings[0]
    _, records, warnings = apply_decisions(_entities(DACE), [SMITH_MERGED])
    assert warnings == records and "skipped" in warnings[0]
    plain = _entities(Entity(id="blackthorn", name="Blackthorn", type="NPC"), DACE)
    _, records, warnings = apply_decisions(plain, [SMITH_MERGED])
    assert warnings == [] and "applied: Rook in disguise" in records[0]
