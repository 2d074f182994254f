"""What a change looks like in a view: the value it replaced (per audience), and details that
never name a GM-only entity or a secret alias to players."""

from __future__ import annotations

from typing import Any

from graphrag_core.models import Change, Entity, Relation
from graphrag_core.services.views import build_view
from ranking.results import change_citation

ENTITIES = [
    Entity(id="garrick", name="Garrick Stone", type="NPC", status="alive"),
    Entity(id="anselm", name="Brother Anselm", type="NPC", status="alive"),
    Entity(id="mine", name="Stonejaw Mine", type="Location", attributes={"owner": "Garrick"}),
    Entity(id="choir", name="Ashen Choir", type="Faction", aliases=("the Choir",), visibility="gm"),
    Entity(id="veyne", name="Lord Veyne", type="NPC", gm_aliases=("the Ash Prophet",)),
    Entity(id="guild", name="Merchants' Guild", type="Faction"),
    Entity(id="party", name="The Lantern Company", type="Faction"),
]
RELATIONS = [Relation(source="guild", target="party", type="allied_with", attitude="allied")]


def _change(seq: int, session: int, **fields: Any) -> Change:
    base = {"kind": "entity_status", "field": "status", "entity_id": "garrick"}
    return Change.model_validate(
        {"id": f"s{session}-r1-{seq}", "session_id": session, "seq": seq, **base, **fields}
    )


def test_old_value_is_the_value_the_audience_saw_before() -> None:
    changes = [
        _change(1, 4, entity_id="anselm", new_value="dead", visibility="gm"),
        _change(1, 6, entity_id="anselm", new_value="missing"),
        _change(2, 6, new_value="dead"),
        _change(3, 6, kind="entity_property", entity_id="mine", field="owner", new_value="Guild"),
        _change(
            1,
            7,
            kind="relationship",
            entity_id="party",
            target_id="guild",
            field="attitude",
            new_value="hostile",
        ),
    ]
    gm = build_view("c", ENTITIES, RELATIONS, [], changes, as_player=False).changes
    player = build_view("c", ENTITIES, RELATIONS, [], changes, as_player=True).changes
    assert gm["s6-r1-1"].old_value == "dead"  # after the GM-only death
    assert player["s6-r1-1"].old_value == "alive"  # the secret death is not quoted to players
    assert player["s6-r1-2"].old_value == "alive"
    assert player["s6-r1-3"].old_value == "Garrick"
    assert player["s7-r1-1"].old_value == "allied"
    assert change_citation(player["s6-r1-2"]).quote == "status: alive → dead"


def test_an_old_value_given_by_the_change_set_is_kept() -> None:
    changes = [
        _change(
            1,
            2,
            kind="relationship",
            entity_id="party",
            target_id="guild",
            field="attitude",
            new_value="hostile",
            old_value="neutral",
        ),
    ]
    view = build_view("c", ENTITIES, RELATIONS, [], changes, as_player=True)
    assert view.changes["s2-r1-1"].old_value == "neutral"


def test_the_old_holder_of_a_thing_is_the_base_graphs_holder_for_each_audience() -> None:
    bell = Entity(id="bell", name="The Copper Bell", type="Item")
    lamp = Entity(id="lamp", name="The Storm Lamp", type="Item")
    relations = [
        *RELATIONS,
        Relation(source="bell", target="garrick", type="owned_by"),  # "Garrick's bell"
        Relation(source="choir", target="lamp", type="owns"),  # GM-only: the Choir keeps it
        Relation(source="anselm", target="lamp", type="owns"),
    ]
    changes = [
        _change(
            1, 3, kind="entity_property", entity_id="bell", field="held_by", new_value="anselm"
        ),
        _change(2, 3, kind="entity_property", entity_id="lamp", field="holder", new_value="guild"),
        _change(1, 5, kind="entity_property", entity_id="bell", field="held_by", new_value="guild"),
    ]
    entities = [*ENTITIES, bell, lamp]
    gm = build_view("c", entities, relations, [], changes, as_player=False).changes
    player = build_view("c", entities, relations, [], changes, as_player=True).changes
    assert gm["s3-r1-1"].old_value == "garrick"
    assert change_citation(gm["s3-r1-1"]).quote == "held_by: garrick → anselm"
    assert gm["s5-r1-1"].old_value == "anselm"  # the earlier change's holder
    assert gm["s3-r1-2"].old_value == "choir, anselm"
    assert player["s3-r1-2"].old_value == "anselm"  # the secret keeper is not quoted


def test_details_naming_a_secret_are_dropped_for_players_only() -> None:
    details = {
        "killed_by": ["choir", "guild"],
        "note": "Murdered by the Choir at night",
        "witness": "the ash prophet",
        "blamed": ["Ashen_Choir"],
        "cause": "poison",
        "rescued_by": ["player_party"],
    }
    changes = [_change(1, 5, new_value="dead", details=details)]
    player = build_view("c", ENTITIES, RELATIONS, [], changes, as_player=True)
    assert player.changes["s5-r1-1"].details == {
        "killed_by": ["guild"],
        "cause": "poison",
        "rescued_by": ["player_party"],
    }
    text = player.model_dump_json().lower()
    assert "choir" not in text and "ash prophet" not in text
    gm = build_view("c", ENTITIES, RELATIONS, [], changes, as_player=False)
    assert gm.changes["s5-r1-1"].details == details
