"""The party asks its questions: its own members answer only a question that names them or
asks about the party (:mod:`ranking.party`)."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import PARTY_ID, CampaignView, Change, Chunk, Entity, Relation
from ranking.cues import question_cues
from ranking.graph import ended_along
from ranking.names import NameIndex
from ranking.party import (
    asks_about_party,
    left_party,
    newest_members,
    party_members,
    roll,
    roll_asked,
)
from ranking.wording import spelt_out
from tests.unit.ranking_fakes import party_view, ranked_signals

_BRANN = Entity(id="brann", name="Brann", type="NPC", description="A sellsword with a bad arm.")
_ORLA = Entity(
    id="mother-orla", name="Mother Orla", type="NPC", description="A healer who tends the sick."
)
_KIT = Entity(id="kit", name="Kit", type="PC", description="A burglar.")


def _chunk(ident: str, text: str, mentions: tuple[str, ...], session: int | None) -> Chunk:
    return Chunk(
        id=ident,
        source_path=f"sessions/{ident}.md",
        start=0,
        end=len(text),
        content_hash=ident,
        text=text,
        mentions=mentions,
        session=session,
    )


def _view(*, roll_call: bool = True) -> CampaignView:
    base = party_view()
    opening = "*Written up by me. Present: Brann, Kit and me.*\n\n" if roll_call else ""
    recap = _chunk(
        "s1",
        opening + "Brann tore his arm open, so we took him to Mother Orla, who heals the sick "
        "and stitched his wound.",
        ("brann", "mother-orla"),
        1,
    )
    return base.model_copy(
        update={
            "entities": {**base.entities, **{e.id: e for e in (_BRANN, _ORLA, _KIT)}},
            "chunks": {**base.chunks, recap.id: recap},
        }
    )


def test_party_members_are_the_pcs_and_the_roll_call_not_the_npcs_who_joined() -> None:
    view = _view()
    names = NameIndex.build(view)
    assert party_members(view, names) == {"brann", "kit"}
    assert party_members(_view(roll_call=False), names) == {"kit"}  # a PC all the same
    joined = Relation(source="torven-blackwater", target=PARTY_ID, type="member_of")
    later = _view(roll_call=False).model_copy(update={"relations": (joined,)})
    assert party_members(later, names) == {"kit"}  # a companion still answers


def test_a_question_about_the_party_itself_is_no_cue_to_demote() -> None:
    for question in (
        "Which of us can pick a lock?",
        "Who is in our crew?",
        "Who has joined us?",
        "Who is in the party?",
    ):
        asked = spelt_out(question)
        assert asks_about_party(asked, question_cues(asked)), question
    for question in (
        "Who can heal our wounds?",
        "What's dangerous in town?",
        "Who's got our back?",
    ):
        assert not asks_about_party(question, question_cues(question)), question


def test_a_party_member_is_demoted_unless_named_or_asked_about() -> None:
    view, plain = _view(), _view(roll_call=False)
    factor = RankingSettings().inactive_factor
    asked = ranked_signals(view, "Who can stitch a wound?")
    before = ranked_signals(plain, "Who can stitch a wound?")
    assert before["brann"]["status"] == 1.0  # no roll-call: Brann is just a name
    assert asked["brann"]["status"] == factor
    assert asked["mother-orla"]["rank"] < asked["brann"]["rank"]
    assert ranked_signals(view, "Is Brann still wounded?")["brann"]["status"] == 1.0  # named
    assert ranked_signals(view, "Which of us has a stitched wound?")["brann"]["status"] == 1.0


def test_a_party_member_who_is_the_relation_asked_is_not_demoted() -> None:
    killed = Relation(source="mother-orla", target="kit", type="killed_by")
    view = _view().model_copy(update={"relations": (*_view().relations, killed)})
    factor = RankingSettings().inactive_factor
    found = ranked_signals(view, "Who put Mother Orla down?")
    assert found["kit"]["relation"] == 1.0
    assert found["kit"]["status"] == 1.0  # the answer, not an asker
    assert found["kit"]["rank"] < found.get("brann", {"rank": 99.0})["rank"]
    assert ranked_signals(view, "Who can stitch a wound?")["kit"]["status"] == factor


def _joined(entity_id: str, session: int) -> tuple[Relation, Change]:
    change = Change(
        id=f"s{session}-r1-1",
        session_id=session,
        seq=1,
        kind="entity_property",
        entity_id=entity_id,
        field="in_party",
        new_value="true",
    )
    return Relation(
        source=entity_id, target=PARTY_ID, type="member_of", change_id=change.id
    ), change


def test_the_newest_member_is_the_one_whose_joining_a_later_session_recorded() -> None:
    (brann_joined, brann_change), (orla_joined, orla_change) = (
        _joined("brann", 2),
        _joined("mother-orla", 5),
    )
    view = _view(roll_call=False).model_copy(
        update={
            "relations": (brann_joined, orla_joined),
            "changes": {c.id: c for c in (brann_change, orla_change)},
        }
    )
    for question in (
        "Who's the newest member of the crew?",
        "Who joined us most recently?",
        "Who's the latest addition to the team?",
        "Who's the newest hunter on the team?",
        "Who's the newest hand sailing with us?",
    ):
        assert newest_members(question, view) == {"mother-orla"}, question
        assert ranked_signals(view, question)["mother-orla"]["rank"] == 0.0, question
    # "on the team" asks for the roll, but the newest asked for is no roll call
    hunter = ranked_signals(view, "Who's the newest hunter on the team?")
    assert hunter.get("brann", {}).get("relation", 0.0) == 0.0
    assert newest_members("Who is in our crew?", view) == frozenset()  # no "newest"
    assert newest_members("What's the latest news?", view) == frozenset()  # no membership
    assert newest_members("Who fought the latest war with us?", view) == frozenset()
    left = view.model_copy(update={"relations": (brann_joined,)})  # Orla left since
    assert newest_members("Who's the newest member of the crew?", left) == {"brann"}
    # a member since the start (no change started it: the prose, or a later leaving)
    founder = Relation(source="mother-orla", target=PARTY_ID, type="member_of")
    before = view.model_copy(update={"relations": (founder,), "changes": {}})
    assert newest_members("Before Brann signed on, who was our fourth?", before) == {"mother-orla"}
    both = view.model_copy(update={"relations": (founder, brann_joined)})
    assert newest_members("Who's our fourth?", both) == {"brann"}  # a joining is newer
    for question in (
        "Who's the new fourth in our party now that Orla's gone?",
        "Who's the fourth one riding with us now?",
    ):
        assert newest_members(question, both) == {"brann"}, question
    assert newest_members("Who was the fourth man to die?", both) == frozenset()  # no party


def test_who_rides_with_us_is_answered_by_the_party_as_it_is_now() -> None:
    (brann_joined, brann_change) = _joined("brann", 2)
    view = _view(roll_call=False).model_copy(
        update={"relations": (brann_joined,), "changes": {brann_change.id: brann_change}}
    )
    for question in (
        "Who all's riding with us these days?",
        "Who's in the wagon with us now?",
        "Who is in our crew?",
        "Who's on the team right now, headcount?",
        "Who is on our squad?",
        "Who's actually in our little band right now?",
    ):
        asked = spelt_out(question)
        assert roll_asked(asked, question_cues(asked)), question
    for question in (
        "Who can heal our wounds?",
        "Who's at war with us?",
        "Who's angry with us?",
        "Who sides with us?",
        "What rides with us?",
        "Who's on the council?",
        "Who's in the Watch's band?",
    ):
        asked = spelt_out(question)
        assert not roll_asked(asked, question_cues(asked)), question
    assert roll(view, frozenset({"kit"})) == {"kit", "brann"}  # the PC and who joined
    found = ranked_signals(view, "Who all's riding with us these days?")
    assert {"kit", "brann"} <= {e for e, r in found.items() if r["rank"] < 2}
    assert found["kit"]["relation"] == 1.0


def test_who_canned_someone_is_answered_along_the_relation_a_change_ended() -> None:
    fired = Change(
        id="s3-r1-1",
        session_id=3,
        seq=1,
        kind="relationship",
        entity_id="brann",
        target_id="mother-orla",
        relation_type="works_for",
        field="relation",
        new_value="end",
    )
    view = _view(roll_call=False).model_copy(update={"changes": {fired.id: fired}})
    assert ended_along(view, {"brann"}, {"works_for", "employs"}) == {"mother-orla"}
    assert ended_along(view, {"brann"}, {"married_to"}) == set()  # another relation
    found = ranked_signals(view, "Who canned Brann?")
    assert found["mother-orla"]["relation"] == 1.0
    assert found["mother-orla"]["rank"] < found.get("kit", {"rank": 99.0})["rank"]
    assert (
        ranked_signals(view, "Who does Brann work for?").get("mother-orla", {}).get("relation")
        != 1.0
    )


def _left(entity_id: str, session: int, *, how: str = "relation") -> Change:
    if how == "relation":
        return Change(
            id=f"s{session}-r1-9", session_id=session, seq=9, kind="relationship",
            entity_id=entity_id, target_id=PARTY_ID, relation_type="member_of",
            field="relation", new_value="end",
        )  # fmt: skip
    return Change(
        id=f"s{session}-r1-9", session_id=session, seq=9, kind="entity_property",
        entity_id=entity_id, field="in_party", new_value="false",
    )  # fmt: skip


def test_a_member_who_left_the_party_is_no_member_until_a_later_change_brings_them_back() -> None:
    for how in ("relation", "in_party"):
        gone = _left("kit", 3, how=how)
        view = _view().model_copy(update={"changes": {gone.id: gone}})
        names = NameIndex.build(view)
        assert left_party(view) == {"kit"}, how
        assert party_members(view, names) == {"brann"}, how  # Kit walked out
        assert "kit" not in roll(view, party_members(view, names)), how
        back = _joined("kit", 5)[1]
        again = view.model_copy(update={"changes": {gone.id: gone, back.id: back}})
        assert left_party(again) == frozenset(), how


def test_a_line_that_names_fewer_than_two_people_or_asks_a_question_calls_no_roll() -> None:
    base = _view(roll_call=False)
    for line, expected in (
        ("Present: Brann, Kit and me.", {"brann", "kit"}),
        ("Present: Brann. Recording: ON. Kit took notes.", set()),  # a transcript's header
        ("the players: Brann? Kit? wrong, both", set()),  # a guess, not a roll-call
        ("Present: Mother Orla.", set()),  # one name
    ):
        recap = _chunk("s2", f"*{line}*\n\nWe rested.", ("brann", "kit", "mother-orla"), 2)
        view = base.model_copy(update={"chunks": {**base.chunks, recap.id: recap}})
        assert party_members(view, NameIndex.build(view)) - {"kit"} == expected - {"kit"}, line


def test_our_fourth_asks_for_the_newest_recruit_and_the_one_who_left_is_no_answer() -> None:
    gone = _left("kit", 3)
    orla_joined, orla_change = _joined("mother-orla", 3)
    view = _view(roll_call=False).model_copy(
        update={
            "relations": (orla_joined,),
            "changes": {gone.id: gone, orla_change.id: orla_change},
        }
    )
    question = "Who's our fourth now that Kit carries a lantern again?"
    assert newest_members(question, view) == {"mother-orla"}
    assert newest_members("Who's the fourth bell in the tower?", view) == frozenset()  # no "our"
    found = ranked_signals(view, question)
    assert found["mother-orla"]["rank"] == 0.0
    factor = RankingSettings().inactive_factor
    assert found["kit"]["status"] == factor  # named, but a member no more
    assert (
        ranked_signals(view, "Who was our fourth before Orla?").get("kit", {}).get("status", 1.0)
        == 1.0
    )  # historical: Kit was the fourth then


def test_a_roll_asked_after_a_lead_in_clause_is_a_roll() -> None:
    for question in ("Besides Bree and Kell, who's in our crew right now?",
                     "Apart from the two of us, who is on the team?"):  # fmt: skip
        asked = spelt_out(question)
        assert roll_asked(asked, question_cues(asked)), question
    asked = spelt_out("After the fire at the mill and the long night, who burned it?")
    assert not roll_asked(asked, question_cues(asked))


def test_who_has_ridden_or_sailed_with_us_asks_for_the_roll() -> None:
    for question in ("Who's ridden with us at one point or another?",
                     "Who has sailed with us since the spring?",
                     "Who walked with us to the pass?"):  # fmt: skip
        asked = spelt_out(question)
        assert roll_asked(asked, question_cues(asked)), question
    found = ranked_signals(_view(), "Who's ridden with us at one point or another?")
    assert found["kit"]["relation"] == 1.0


def test_who_joined_after_someone_left_asks_for_the_newest_not_the_leaver() -> None:
    (orla_joined, orla_change) = _joined("mother-orla", 5)
    left = Change(
        id="s4-r1-2", session_id=4, seq=2, kind="entity_property", entity_id="kit",
        field="in_party", new_value="false",
    )  # fmt: skip
    went = Relation(source="kit", target="iron-hand", type="member_of", change_id="s4-r1-3")
    view = _view(roll_call=False).model_copy(
        update={
            "relations": (orla_joined, went),
            "changes": {c.id: c for c in (orla_change, left)},
        }
    )
    question = "Who joined up with us after Kit quit the crew?"
    assert newest_members(question, view) == {"mother-orla"}
    assert newest_members("Who joined up with us when Kit bailed?", view) == {"mother-orla"}
    found = ranked_signals(view, question)
    assert found["mother-orla"]["rank"] == 0.0
    # Kit only says when: no seed of the membership asked (the Iron Hand he joined is no answer)
    assert found.get("iron-hand", {}).get("relation", 0.0) == 0.0
    assert newest_members("Who's gone to the wall since we joined the Guild?", view) == frozenset()
