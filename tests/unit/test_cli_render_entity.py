"""The entity view as the CLI prints it: names, not ids; the target of a change between two
entities; what players cannot see marked in the GM view."""

from __future__ import annotations

from rich.console import Console

from graphrag_core.models import AskResult, Change, EntityView, RankedResult, Relation
from graphrag_core.surfaces.cli.render import render_ask, render_entity

BARON = EntityView(
    id="baron-aldric",
    name="Baron Aldric Marrow",
    type="NPC",
    aliases=("the Baron",),
    gm_aliases=("the Tithe Lord",),
    base_status="alive",
    status="alive",
    attitude=None,
    status_change=None,
    description="The aging lord of Harrowgate.",
    attributes={},
    relations=(
        Relation(source="baron-aldric", target="harrowgate", type="located_in"),
        Relation(
            source="baron-aldric",
            target="cinder-knives",
            type="allied_with",
            attitude="allied",
            visibility="gm",
        ),
    ),
    sources=("world.yaml",),
    changes=(
        Change(
            id="s7-r1-8",
            session_id=7,
            seq=8,
            kind="relationship",
            entity_id="baron-aldric",
            target_id="cinder-knives",
            field="attitude",
            old_value="allied",
            new_value="hostile",
        ),
        Change(
            id="s5-r1-2",
            session_id=5,
            seq=2,
            kind="entity_status",
            entity_id="baron-aldric",
            field="status",
            old_value="alive",
            new_value="missing",
            visibility="gm",
        ),
    ),
    visibility="party",
    names={
        "baron-aldric": "Baron Aldric Marrow",
        "harrowgate": "Harrowgate",
        "cinder-knives": "Cinder Knives",
    },
)


def _render(view: EntityView) -> str:
    console = Console(record=True, width=200)
    render_entity(console, view)
    return console.export_text()


def test_relations_and_changes_read_by_name_with_their_target() -> None:
    text = _render(BARON)
    assert "Baron Aldric Marrow —located_in→ Harrowgate" in text
    assert "cinder-knives" not in text
    change = "attitude of Baron Aldric Marrow toward Cinder Knives: allied → hostile (s7-r1-8)"
    assert f"session 7: {change}" in text
    assert "session 5: status: alive → missing (s5-r1-2) [GM only]" in text


def test_gm_only_relations_and_aliases_are_marked() -> None:
    lines = _render(BARON).splitlines()
    assert any("—allied_with→ Cinder Knives (allied) [GM only]" in line for line in lines)
    assert any("secret aliases [GM only]: the Tithe Lord" in line for line in lines)
    assert not any("located_in" in line and "GM only" in line for line in lines)


def test_a_status_no_source_gives_is_shown_as_assumed() -> None:
    told = _render(BARON)
    assumed = _render(BARON.model_copy(update={"base_status": None, "status_assumed": True}))
    assert "status: alive (base)" in told
    assert "status: alive (assumed: no source or change gives one)" in assumed


def test_an_answer_names_a_status_a_source_gives_not_an_assumed_one() -> None:
    def item(name: str, status: str, assumed: bool) -> RankedResult:
        return RankedResult(
            id=name.lower(), kind="entity", name=name, type="NPC", status=status,
            status_assumed=assumed, available=True, score=1.0, signals={},
        )  # fmt: skip

    result = AskResult(
        question="Who is here?",
        campaign="c",
        as_player=False,
        historical=False,
        results=(item("Mira", "alive", True), item("Torven", "captured", False)),
    )
    console = Console(record=True, width=200)
    render_ask(console, result)
    text = console.export_text()
    assert "Torven  NPC · captured" in text
    assert "Mira  NPC · score" in text
