"""Where a named person or thing is now: the places its latest change's note names when that
change took it away, and a thing's holder (``ranking.whereabouts``)."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import (
    PARTY_ID,
    CampaignView,
    Change,
    EffectiveState,
    Entity,
    RankedResult,
    Relation,
)
from ranking.cues import question_cues
from ranking.graph import EffectiveGraph
from ranking.lexical import LexicalIndex
from ranking.names import NameIndex
from ranking.ranker import Ranker
from ranking.whereabouts import EARLIER, NOTED, party_base, whereabouts
from ranking.wording import spelt_out
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import FakeVectorStore, party_view, ranked_signals

LEDGER = Entity(id="ledger", name="Harbour Ledger", type="Item", status="present")


def _taken(status: str, note: str, *, session: int = 6, captor: str = "") -> Change:
    return Change(
        id=f"s{session}-r1-1",
        session_id=session,
        seq=1,
        kind="entity_status",
        entity_id="river-guild",
        field="status",
        old_value="active",
        new_value=status,
        details={"note": note, **({"captured_by": [captor]} if captor else {})},
        source=f"sessions/{session}.md",
    )


def _view(*changes: Change, relations: tuple[Relation, ...] = ()) -> CampaignView:
    view = party_view()
    guild = view.entities["river-guild"].model_copy(update={"type": "NPC", "status": "alive"})
    return view.model_copy(
        update={
            "entities": {**view.entities, "river-guild": guild, "ledger": LEDGER},
            "changes": {**view.changes, **{c.id: c for c in changes}},
            "relations": relations,
            "states": {
                **view.states,
                "river-guild": EffectiveState(entity_id="river-guild", status="captured"),
            },
        }
    )


def _where(question: str, view: CampaignView) -> dict[str, float]:
    asked = spelt_out(question)
    names = NameIndex.build(view)
    named = names.find(asked)
    return whereabouts(asked, question_cues(asked), named, view, names, EffectiveGraph.build(view))


def test_a_captives_note_says_where_they_are_kept_the_last_place_first() -> None:
    view = _view(
        _taken("captured", "Seized at the Red Oak Tavern; held in the Silver Stag Inn's cellar.")
    )
    found = _where("Where are they keeping the River Guild?", view)
    assert found["silver-stag-inn"] > found["red-oak-tavern"] > 0.0
    # a question that does not ask where, or an entity that came back, asks nothing of it
    assert _where("Who took the River Guild?", view) == {}
    rescued = _view(
        _taken("captured", "Held in the Silver Stag Inn.", session=6),
        _taken("alive", "Rescued from the Silver Stag Inn.", session=7),
    )
    assert _where("Where is the River Guild now?", rescued) == {}


def test_a_thing_is_where_its_holder_is() -> None:
    held = Relation(source="ledger", target="torven-blackwater", type="owned_by")
    found = _where("Where'd the Harbour Ledger end up?", _view(relations=(held,)))
    assert found == {"torven-blackwater": NOTED}


def test_one_is_where_it_lives_now() -> None:
    moved = Relation(source="river-guild", target="silver-stag-inn", type="located_in")
    view = _view(relations=(moved,))
    assert _where("Where do we find the River Guild these days?", view)["silver-stag-inn"] == NOTED
    assert _where("Who is the River Guild?", view) == {}  # asks no place


def test_the_ranker_offers_the_place_a_captive_is_kept() -> None:
    view = _view(_taken("captured", "Seized at the Red Oak Tavern; held at the Silver Stag Inn."))
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    result = ranker.rank("Where are they keeping the River Guild?", view, LexicalIndex.build(view))
    ids = [r.id for r in result.results]
    assert ids.index("silver-stag-inn") < ids.index("red-oak-tavern")
    assert result.results[ids.index("silver-stag-inn")].signals["relation"] == NOTED


def test_where_one_was_taken_from_is_no_answer_once_a_change_says_where_one_is_now() -> None:
    # the note says where the guild was seized and where it is held now: the tavern is where it
    # was, demoted like a former holder (no stale answer offered as available); the inn is not
    view = _view(_taken("captured", "Seized at the Red Oak Tavern; held at the Silver Stag Inn."))
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    lexical = LexicalIndex.build(view)
    now = {r.id: r for r in ranker.rank("Where's the River Guild now?", view, lexical).results}
    assert now["red-oak-tavern"].signals["status_factor"] == RankingSettings().inactive_factor
    assert now["silver-stag-inn"].signals["status_factor"] == 1.0
    # a question about the past asks where it was: nothing is demoted for it
    before = ranker.rank("Where was the River Guild seized?", view, lexical, historical=True)
    tavern = next(r for r in before.results if r.id == "red-oak-tavern")
    assert tavern.signals["status_factor"] == 1.0


def _moved_to_the_inn(*more: Relation) -> CampaignView:
    """Session 7's change set moved the guild into the Silver Stag Inn."""
    moved = Change(
        id="s7-r1-1", session_id=7, seq=1, kind="relationship", entity_id="river-guild",
        target_id="silver-stag-inn", field="relation", relation_type="located_in",
        new_value="start", source="sessions/7.md",
    )  # fmt: skip
    there = Relation(
        source="river-guild", target="silver-stag-inn", type="located_in", change_id=moved.id
    )
    return _view(moved, relations=(there, *more))


def _ranked(question: str, view: CampaignView) -> dict[str, RankedResult]:
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    return {r.id: r for r in ranker.rank(question, view, LexicalIndex.build(view)).results}


def test_a_move_a_change_started_makes_every_other_place_where_one_was() -> None:
    found = _ranked("Where's the River Guild these days?", _moved_to_the_inn())
    assert found["silver-stag-inn"].signals["status_factor"] == 1.0
    assert found["red-oak-tavern"].signals["status_factor"] == RankingSettings().inactive_factor


def test_a_place_the_question_names_is_where_one_was_unless_it_holds_where_one_is() -> None:
    factor = RankingSettings().inactive_factor
    question = "Where's the River Guild these days, back at the Red Oak Tavern?"
    found = _ranked(question, _moved_to_the_inn())
    assert found["red-oak-tavern"].signals["status_factor"] == factor  # where it was
    inn_in_tavern = Relation(source="silver-stag-inn", target="red-oak-tavern", type="located_in")
    found = _ranked(question, _moved_to_the_inn(inn_in_tavern))  # the inn stands in the tavern
    assert found["red-oak-tavern"].signals["status_factor"] != factor


def test_a_captive_is_held_by_its_captor() -> None:
    view = _view(_taken("captured", "Taken off the quay.", captor="Iron Hand"))
    assert _where("Where is the River Guild now?", view) == {"iron-hand": NOTED * EARLIER}


def test_a_return_says_where_one_is_now_only_after_a_word_of_now() -> None:
    rescued = _view(
        _taken("captured", "Held in the Silver Stag Inn.", session=6),
        _taken("alive", "Rescued from the Silver Stag Inn; went with Torven.", session=7),
    )
    assert _where("Where's the River Guild these days?", rescued) == {"torven-blackwater": NOTED}
    moved = _view(_taken("alive", "Released; now works out of the Red Oak Tavern.", session=7))
    assert _where("Where is the River Guild now?", moved) == {"red-oak-tavern": NOTED}
    plain = _view(_taken("alive", "Rescued from the Silver Stag Inn by Torven.", session=7))
    assert _where("Where is the River Guild now?", plain) == {}  # where it was, and who did it


def _moved(seq: int, place: str, how: str) -> Change:
    return Change(
        id=f"s4-r1-{seq}", session_id=4, seq=seq, kind="relationship", entity_id=PARTY_ID,
        target_id=place, relation_type="located_in", field="relation", new_value=how,
    )  # fmt: skip


def test_where_the_party_stays_is_its_base_now_and_the_old_one_is_no_answer() -> None:
    view = party_view()
    cinema = Entity(id="cinema", name="Cine Atlantico", type="Location", status="intact")
    cube = Entity(id="cube", name="The Cube", type="Location", status="destroyed")
    moves = (_moved(1, "cube", "end"), _moved(2, "cinema", "start"))
    now = Relation(source=PARTY_ID, target="cinema", type="located_in", change_id="s4-r1-2")
    view = view.model_copy(
        update={
            "entities": {**view.entities, "cinema": cinema, "cube": cube},
            "changes": {**view.changes, **{c.id: c for c in moves}},
            "relations": (*view.relations, now),
        }
    )
    graph = EffectiveGraph.build(view)
    for question in (
        "Where's the crew crashing these days?",
        "Where are we staying now?",
        "Where'd we move to after the Cube burned?",
        "Where have we moved?",
    ):
        assert party_base(spelt_out(question), view, graph) == ({"cinema"}, {"cube"}), question
    for question in (
        "Where can the party rest tonight?",
        "Where's the Cube?",
        "Where do we go?",
        "Where's our old hideout?",
        "Where did we move the crates?",
        "Where to move?",
    ):
        assert party_base(spelt_out(question), view, graph) == (set(), set()), question
    found = ranked_signals(view, "Where's the crew crashing these days?")
    assert found["cinema"]["rank"] == 0.0 and found["cinema"]["relation"] == 1.0
    assert found.get("cube", {}).get("status", 0.0) < 1.0
    past = ranked_signals(view, "Where was the crew staying before the fire?")
    assert past.get("cinema", {}).get("relation", 0.0) < 1.0  # the base of now answers no past
