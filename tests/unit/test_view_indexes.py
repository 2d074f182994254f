"""The per-view indexes results read citations from (``CampaignView.chunks_naming`` and
``relation_changes``) say exactly what a scan of the view says, and a copy builds its own."""

from __future__ import annotations

from graphrag_core.models import CampaignView, Change, Chunk, Relation


def _chunk(cid: str, subject: str | None, mentions: tuple[str, ...], vis: str = "party") -> Chunk:
    return Chunk(
        id=cid, source_path=f"{cid}.md", start=0, end=4, text="text", content_hash=cid,
        visibility=vis, subject=subject, mentions=mentions,
    )  # fmt: skip


def _view(visibilities: tuple[str, ...]) -> CampaignView:
    chunks = {
        "a": _chunk("a", "torven", ("marta",)),
        "b": _chunk("b", None, ("torven", "torven")),
        "c": _chunk("c", "marta", ("torven",), vis="gm"),
        "d": _chunk("d", "marta", ()),
    }
    change = Change(
        id="s3-r1-1", session_id=3, seq=1, kind="relationship", entity_id="torven",
        target_id="knives", relation_type="member_of", field="relation", new_value="started",
    )  # fmt: skip
    relations = (
        Relation(source="torven", target="knives", type="member_of", change_id="s3-r1-1"),
        Relation(source="marta", target="torven", type="knows"),
        Relation(source="marta", target="knives", type="knows", change_id="s9-r1-1"),
    )
    return CampaignView(
        campaign="c", visibilities=visibilities, entities={}, relations=relations,
        chunks=chunks, states={}, changes={change.id: change},
    )  # fmt: skip


def test_chunks_naming_lists_the_visible_chunks_about_then_mentioning() -> None:
    gm = _view(("gm", "party"))
    assert [(rank, c.id) for rank, c in gm.chunks_naming("torven")] == [
        (0, "a"),
        (1, "b"),
        (1, "c"),
    ]
    assert [(rank, c.id) for rank, c in gm.chunks_naming("marta")] == [(1, "a"), (0, "c"), (0, "d")]
    player = _view(("party",))
    assert [c.id for _, c in player.chunks_naming("torven")] == ["a", "b"]
    assert player.chunks_naming("nobody") == ()


def test_relation_changes_name_only_visible_changes_at_either_end() -> None:
    view = _view(("gm", "party"))
    assert view.relation_changes("torven") == ("s3-r1-1",)
    assert view.relation_changes("knives") == ("s3-r1-1",)
    assert view.relation_changes("marta") == ()  # s9-r1-1 is not a visible change


def test_a_copy_indexes_what_it_holds() -> None:
    view = _view(("gm", "party"))
    assert [c.id for _, c in view.chunks_naming("torven")] == ["a", "b", "c"]
    fewer = view.model_copy(update={"chunks": {"b": view.chunks["b"]}})
    assert [c.id for _, c in fewer.chunks_naming("torven")] == ["b"]
    assert fewer.relation_changes("torven") == ("s3-r1-1",)
