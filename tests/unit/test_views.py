"""The player view is the visibility boundary for every read: nothing GM-only gets through."""

from __future__ import annotations

from graphrag_core.models import Change, Chunk, Entity, Relation
from graphrag_core.services.views import build_view

SECRET = "the Ash Prophet"


def _world() -> tuple[list[Entity], list[Relation], list[Chunk], list[Change]]:
    entities = [
        Entity(
            id="veyne",
            name="Lord Veyne",
            type="NPC",
            status="alive",
            gm_aliases=(SECRET,),
            gm_notes=f"Secretly {SECRET}.",
            description="A hero.",
        ),
        Entity(id="cult", name="Ashen Choir", type="Faction", visibility="gm"),
        Entity(id="inn", name="Weary Wagon", type="Location", status="intact"),
    ]
    relations = [
        Relation(source="veyne", target="cult", type="leads", visibility="party"),
        Relation(source="veyne", target="inn", type="knows", visibility="gm"),
        Relation(source="inn", target="veyne", type="owned_by"),
    ]
    chunks = [
        Chunk(
            id="c1",
            source_path="a.md",
            start=0,
            end=5,
            text="hello",
            content_hash="h",
            mentions=("veyne", "cult"),
            subject="cult",
        ),
        Chunk(
            id="c2",
            source_path="a.md",
            start=5,
            end=9,
            text="gm!!",
            content_hash="g",
            visibility="gm",
        ),
    ]
    changes = [
        Change(
            id="s1-r1-1",
            session_id=1,
            seq=1,
            kind="entity_status",
            entity_id="veyne",
            field="status",
            new_value="dead",
            visibility="gm",
        ),
        Change(
            id="s2-r1-1",
            session_id=2,
            seq=1,
            kind="entity_status",
            entity_id="inn",
            field="status",
            new_value="destroyed",
        ),
    ]
    return entities, relations, chunks, changes


def test_player_view_drops_every_gm_only_piece() -> None:
    view = build_view("c", *_world(), as_player=True)
    assert set(view.entities) == {"veyne", "inn"}
    assert view.entities["veyne"].gm_aliases == ()
    assert view.entities["veyne"].gm_notes == ""
    assert [r.type for r in view.relations] == ["owned_by"]
    assert set(view.chunks) == {"c1"}
    assert view.chunks["c1"].mentions == ("veyne",)
    assert view.chunks["c1"].subject is None
    assert set(view.changes) == {"s2-r1-1"}
    assert view.states["veyne"].status == "alive"
    assert view.states["inn"].status == "destroyed"
    assert SECRET not in view.model_dump_json()


def test_gm_view_keeps_everything_and_applies_secret_changes() -> None:
    view = build_view("c", *_world(), as_player=False)
    assert set(view.entities) == {"veyne", "cult", "inn"}
    assert view.states["veyne"].status == "dead"
    assert view.states["veyne"].status_change == "s1-r1-1"
    assert len(view.relations) == 3


def test_as_of_session_ignores_later_changes() -> None:
    view = build_view("c", *_world(), as_player=False, as_of_session=1)
    assert view.states["inn"].status == "intact"
    assert set(view.changes) == {"s1-r1-1"}
