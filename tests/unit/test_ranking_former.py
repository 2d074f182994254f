"""Whoever held a thing (or led, or ruled) before a change handed it on is no answer to a
question about now (:func:`ranking.graph.former_along`, the ``status`` signal)."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import (
    AskResult,
    CampaignView,
    Change,
    Chunk,
    Entity,
    RankedResult,
    Relation,
)
from ranking.baselines import ranker_offers
from ranking.graph import former_along, left_places, named_in_handovers
from ranking.item_names import by_relevance
from ranking.lexical import LexicalIndex
from ranking.names import NameIndex
from ranking.ranker import Ranker
from tests.unit.ranking_fakes import FakeVectorStore, HashEmbedder, party_view, ranked_signals

KEY = Entity(
    id="harbour-key", name="Harbour Key", type="Item", status="present",
    description="The iron key to the harbour master's strongroom.",
)  # fmt: skip
MARTA = Entity(id="marta", name="Marta Hollis", type="NPC", status="alive", aliases=("Marta",))


def _held(holder: str, session: int) -> Change:
    return Change(
        id=f"s{session}-r1-1", session_id=session, seq=1, kind="entity_property",
        entity_id="harbour-key", field="held_by", new_value=holder,
    )  # fmt: skip


def _view() -> CampaignView:
    """Torven held the key in session 1 and handed it to Marta in session 3; a recap of the
    hand-over names them both."""
    base = party_view()
    handed = (_held("torven-blackwater", 1), _held("Marta Hollis", 3))
    now = Relation(source="harbour-key", target="marta", type="owned_by", change_id="s3-r1-1")
    recap = Chunk(
        id="s3", source_path="sessions/s3.md", start=0, end=80, content_hash="s3", session=3,
        text="Torven Blackwater handed the Harbour Key to Marta Hollis on the quay.",
        mentions=("harbour-key", "marta", "torven-blackwater"),
    )  # fmt: skip
    return base.model_copy(
        update={
            "entities": {**base.entities, KEY.id: KEY, MARTA.id: MARTA},
            "relations": (*base.relations, now),
            "changes": {**base.changes, **{c.id: c for c in handed}},
            "chunks": {**base.chunks, recap.id: recap},
        }
    )


def test_every_holder_a_change_ever_named_is_found_by_name_or_id() -> None:
    view = _view()
    assert former_along(view, {"harbour-key"}, {"owns", "owned_by"}) == {
        "torven-blackwater",
        "marta",
    }
    assert former_along(view, {"harbour-key"}, {"leads"}) == set()  # not the relation asked
    assert former_along(view, {"marta"}, {"owns", "owned_by"}) == set()  # the key's changes


def test_the_one_who_held_it_before_is_demoted_for_now_not_for_the_past() -> None:
    view, factor = _view(), RankingSettings().inactive_factor
    now = ranked_signals(view, "Who's carrying the Harbour Key now?")
    assert now["marta"]["relation"] == 1.0 and now["marta"]["status"] == 1.0
    assert now["torven-blackwater"]["status"] == factor
    assert now["marta"]["rank"] < now["torven-blackwater"]["rank"]
    before = ranked_signals(view, "Who held the Harbour Key before Marta?")  # historical
    assert before["torven-blackwater"]["status"] == 1.0


def test_a_passage_lists_the_demoted_names_after_every_other() -> None:
    assert by_relevance(["a", "b", "c", "d"], {"a": 0.9, "c": 0.5}, last={"a"}) == (
        "c",
        "b",
        "d",
        "a",
    )
    assert by_relevance(["a", "b"], {"a": 0.9}) == ("a", "b")


def _rank(view: CampaignView, question: str) -> tuple[RankedResult, ...]:
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    return ranker.rank(question, view, LexicalIndex.build(view), k=10).results


PELL = Entity(id="pell", name="Odo Pell", type="NPC", status="alive", aliases=("Pell",))


def _with_pell() -> CampaignView:
    """Odo Pell, alive, held the key in session 2, between Torven and Marta; a note names him
    beside Marta."""
    view = _view()
    note = Chunk(
        id="s3b", source_path="sessions/s3.md", start=80, end=160, content_hash="s3b", session=3,
        text="Odo Pell grumbled that Marta Hollis now carries the Harbour Key everywhere.",
        mentions=("pell", "marta", "harbour-key"),
    )  # fmt: skip
    return view.model_copy(
        update={
            "entities": {**view.entities, PELL.id: PELL},
            "changes": {
                **view.changes,
                "s2-r1-1": _held("pell", 2).model_copy(update={"id": "s2-r1-1"}),
            },
            "chunks": {**view.chunks, note.id: note},
        }
    )


def test_results_mark_the_former_holder_and_the_evaluation_offers_it_as_no_answer() -> None:
    view = _with_pell()
    results = _rank(view, "Who's carrying the Harbour Key now?")
    note = next(r for r in results if r.id == "s3b")
    assert note.former == ("pell",) and note.names[-1] == "pell"  # listed last, and marked
    assert "Odo Pell — tied to what is asked about before, not now" in note.status_note
    assert all("marta" not in r.former for r in results)
    result = AskResult(
        question="q", campaign=view.campaign, as_player=False, historical=False, results=results
    )
    offers = {o.entity_id: o for o in ranker_offers(result, view)}
    assert offers["pell"].available is False  # alive, but no answer for now
    assert offers["pell"].status == "alive"
    assert offers["marta"].available is True
    past = _rank(view, "Who held the Harbour Key before Marta?")  # historical: nothing former
    assert all(not r.former for r in past)


def _found_with_pell() -> CampaignView:
    """The key turns up at Odo Pell's: the change giving it to Marta says so in its note, and
    nothing ever made Pell its holder."""
    view = _view()
    found = _held("Marta Hollis", 3).model_copy(
        update={"details": {"note": "Found in Odo Pell's cellar; Marta Hollis keeps it now."}}
    )
    return view.model_copy(
        update={
            "entities": {**view.entities, PELL.id: PELL},
            "changes": {**view.changes, found.id: found},
        }
    )


def test_whoever_a_hand_over_note_names_besides_the_holder_holds_it_no_more() -> None:
    view = _found_with_pell()
    names = NameIndex.build(view)
    assert named_in_handovers(view, {"harbour-key"}, {"owns"}, names.find_owners) == {"pell"}
    assert named_in_handovers(view, {"harbour-key"}, {"leads"}, names.find_owners) == set()


def test_who_is_sitting_on_a_thing_asks_who_holds_it() -> None:
    now = ranked_signals(_found_with_pell(), "Who's sitting on the Harbour Key?")
    assert now["marta"]["relation"] == 1.0 and now["marta"]["rank"] == 0
    assert now["torven-blackwater"]["status"] == RankingSettings().inactive_factor


def _taken_from_torven() -> CampaignView:
    """The prose said Torven keeps the key (a base relation, no change); in session 3 a change
    gave it to Marta, which ended that relation in the view and left its old value the base
    graph's holder (:func:`changelog.old_values.with_old_values`)."""
    view = _view()
    given = _held("marta", 3).model_copy(update={"old_value": "torven-blackwater"})
    return view.model_copy(update={"changes": {given.id: given}})


def test_the_base_graphs_holder_before_a_change_is_a_former_one() -> None:
    view = _taken_from_torven()
    assert former_along(view, {"harbour-key"}, {"owns"}) == {"torven-blackwater", "marta"}
    now = ranked_signals(view, "Who has the Harbour Key now?")
    assert now["torven-blackwater"]["status"] == RankingSettings().inactive_factor


def test_a_named_former_holder_is_marked_for_now_but_not_demoted() -> None:
    view = _taken_from_torven()
    results = _rank(view, "Does Torven Blackwater still have his Harbour Key?")
    torven = next(r for r in results if r.id == "torven-blackwater")
    assert torven.former == ("torven-blackwater",)  # no answer to who has it now
    assert torven.signals["status"] == 1.0  # but asked about: not demoted
    result = AskResult(
        question="q", campaign=view.campaign, as_player=False, historical=False, results=results
    )
    offers = {o.entity_id: o for o in ranker_offers(result, view)}
    assert offers["torven-blackwater"].available is False
    past = _rank(view, "Did Torven Blackwater have his Harbour Key?")  # historical
    assert all(not r.former for r in past)


def _moved_out(*, back: bool = False) -> CampaignView:
    """Marta lodged at the Silver Stag Inn from session 2 until a change ended it in session
    4 (``back``: a session-5 change put her there again)."""
    view = _view()

    def lodging(session: int, value: str) -> Change:
        return Change(
            id=f"s{session}-r1-2", session_id=session, seq=2, kind="relationship",
            entity_id="marta", target_id="silver-stag-inn", relation_type="located_in",
            field="relation", new_value=value,
        )  # fmt: skip

    changes = [lodging(2, "start"), lodging(4, "end"), *([lodging(5, "start")] if back else [])]
    relations = view.relations
    if back:
        lodged = Relation(
            source="marta", target="silver-stag-inn", type="located_in", change_id="s5-r1-2"
        )
        relations = (*relations, lodged)
    return view.model_copy(
        update={"relations": relations, "changes": {**view.changes, **{c.id: c for c in changes}}}
    )


def test_a_named_place_a_named_one_left_is_where_they_were() -> None:
    named = {"marta", "silver-stag-inn"}
    assert left_places(_moved_out(), named) == {"silver-stag-inn"}
    assert left_places(_moved_out(), {"silver-stag-inn"}) == set()  # she is not asked about
    assert left_places(_moved_out(back=True), named) == set()  # she is back
    results = _rank(_moved_out(), "Is Marta Hollis still lodging at the Silver Stag Inn?")
    inn = next(r for r in results if r.id == "silver-stag-inn")
    assert inn.former == ("silver-stag-inn",)
    assert inn.signals["status"] == RankingSettings().inactive_factor
    past = _rank(_moved_out(), "Was Marta Hollis lodging at the Silver Stag Inn?")
    assert all(not r.former for r in past)
