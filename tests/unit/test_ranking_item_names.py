"""A passage's and a community's ``names``: the subject, then what the ranker scored for the
question best first, then the rest as the passage writes them (ids alone sort alphabetically,
which put the first names of the alphabet ahead of the answer)."""

from __future__ import annotations

from graphrag_core.models import PARTY_ID, AskResult, CampaignView, Chunk, Entity, RankedResult
from ranking.baselines import chunk_offers, ranker_offers
from ranking.item_names import by_relevance, passage_names, reading_order

ENTITIES = {
    e.id: e
    for e in (
        Entity(id="abel-marsh", name="Abel Marsh", type="NPC"),
        Entity(id="bram-hollis", name="Bram Hollis", type="NPC", aliases=("Bram",)),
        Entity(id="zora-quill", name="Zora Quill", type="NPC", aliases=("Zee",)),
        Entity(id="the-kettle", name="The Kettle", type="Location"),
    )
}
RECAP = Chunk(
    id="c1",
    source_path="sessions/s1.md",
    start=0,
    end=90,
    content_hash="h",
    mentions=("abel-marsh", "bram-hollis", "the-kettle", "zora-quill", PARTY_ID, "gone-id"),
    text="Zee met us at the Kettle. Bram paid for the stew. Abel Marsh never showed.",
)
ABOUT = RECAP.model_copy(update={"id": "c2", "subject": "the-kettle"})
VIEW = CampaignView(
    campaign="t",
    visibilities=("party",),
    entities=ENTITIES,
    relations=(),
    chunks={"c1": RECAP, "c2": ABOUT},
    states={},
    changes={},
)


def test_reading_order_is_the_order_the_text_writes_names_or_aliases() -> None:
    assert reading_order(RECAP, VIEW) == ("zora-quill", "the-kettle", "bram-hollis", "abel-marsh")


def test_reading_order_leaves_out_ids_the_view_does_not_hold() -> None:
    assert "gone-id" not in reading_order(RECAP, VIEW)


def test_scored_names_come_first_best_first_then_the_text_order() -> None:
    scores = {"abel-marsh": 0.9, "the-kettle": 0.2}
    assert passage_names(RECAP, VIEW, scores) == (
        "abel-marsh",
        "the-kettle",
        "zora-quill",
        "bram-hollis",
    )


def test_a_passage_subject_comes_first_whatever_the_scores() -> None:
    names = passage_names(ABOUT, VIEW, {"abel-marsh": 0.9})
    assert names[:2] == ("the-kettle", "abel-marsh")
    assert len(names) == len(set(names))


def test_by_relevance_keeps_the_order_of_unscored_ids() -> None:
    assert by_relevance(["c", "a", "b", "a"], {"b": 0.1}) == ("b", "c", "a")


def _passage(names: tuple[str, ...]) -> RankedResult:
    return RankedResult(
        id="c1", kind="passage", name="p", type="passage", status=None, available=True,
        score=1.0, signals={}, names=names,
    )  # fmt: skip


def test_the_ranker_offers_a_passage_names_in_their_order() -> None:
    result = AskResult(
        question="q",
        campaign="t",
        as_player=True,
        historical=False,
        results=(_passage(("abel-marsh", "zora-quill")),),
    )
    assert [o.entity_id for o in ranker_offers(result, VIEW)] == ["abel-marsh", "zora-quill"]


def test_a_baseline_offers_a_chunk_names_in_the_order_it_writes_them() -> None:
    offers = chunk_offers(VIEW, ["c1"])
    assert [o.entity_id for o in offers] == [
        "zora-quill",
        "the-kettle",
        "bram-hollis",
        "abel-marsh",
    ]
