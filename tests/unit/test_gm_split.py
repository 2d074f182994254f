"""``entity split``: what follows the split-off names and what stays with the subject."""

from __future__ import annotations

from extraction.decisions import apply_decisions
from graphrag_core.models import Chunk, Entity, Extraction, GmDecision, Relation


def _chunk(id_: str, text: str, heading: str = "", subject: str | None = None) -> Chunk:
    return Chunk(id=id_, source_path="a.md", start=0, end=len(text), text=text,
                 content_hash=id_, heading=heading, subject=subject,
                 mentions=("torven-blackwater",))  # fmt: skip


def _extraction() -> Extraction:
    return Extraction(
        entities=(
            Entity(id="torven-blackwater", name="Torven Blackwater", type="NPC",
                   aliases=("Torven", "Young Blackwater")),
            Entity(id="salt-guild", name="Salt Guild", type="Faction"),
            Entity(id="millbrook", name="Millbrook", type="Location"),
            Entity(id="red-oak", name="Red Oak", type="Location"),
        ),
        relations=(
            Relation(source="torven-blackwater", target="salt-guild", type="member_of",
                     chunk_id="c1"),
            Relation(source="torven-blackwater", target="millbrook", type="located_in",
                     chunk_id="c2"),
            Relation(source="red-oak", target="torven-blackwater", type="owned_by",
                     description="owned by Young Blackwater"),
        ),
        chunks=(
            _chunk("c1", "Torven Blackwater is a member of the Salt Guild."),
            _chunk("c2", "Young Blackwater lives in Millbrook.", "Young Blackwater",
                   "torven-blackwater"),
        ),
    )  # fmt: skip


def test_split_moves_relations_and_chunks_whose_evidence_names_the_new_entity() -> None:
    decision = GmDecision(seq=1, kind="split", subject="torven-blackwater",
                          target="young-blackwater", names=("Young Blackwater",))  # fmt: skip
    result, records, _ = apply_decisions(_extraction(), [decision])
    assert [r.key for r in result.relations] == [
        ("red-oak", "owned_by", "young-blackwater"),  # its description names him
        ("torven-blackwater", "member_of", "salt-guild"),  # its chunk does not: stays
        ("young-blackwater", "located_in", "millbrook"),  # its chunk names him
    ]
    chunks = {c.id: c for c in result.chunks}
    assert chunks["c1"].mentions == ("torven-blackwater",)
    assert chunks["c2"].mentions == ("torven-blackwater", "young-blackwater")
    assert chunks["c2"].subject == "young-blackwater"
    assert "applied" in records[0]


def test_a_split_name_inside_a_kept_name_does_not_move_anything() -> None:
    decision = GmDecision(seq=1, kind="split", subject="torven-blackwater",
                          target="torven", names=("Torven",))  # fmt: skip
    result, _, _ = apply_decisions(_extraction(), [decision])
    assert ("torven-blackwater", "member_of", "salt-guild") in [r.key for r in result.relations]
    assert {e.id for e in result.entities} >= {"torven", "torven-blackwater"}
