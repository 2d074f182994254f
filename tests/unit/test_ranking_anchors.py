"""Anchors: a named entity that is the question's setting, not its answer."""

from __future__ import annotations

from ranking.anchors import anchors, excluded, named_holder_now, time_marks, told_before
from ranking.names import NameIndex
from ranking.wording import spelt_out
from tests.unit.ranking_fakes import party_view

VIEW = party_view()
NAMES = NameIndex.build(VIEW)
TYPES = {e.id: e.type for e in VIEW.entities.values()}


def _anchors(question: str) -> set[str]:
    return anchors(question, NAMES.spans(question), TYPES)


def test_a_place_the_question_is_set_in_is_an_anchor() -> None:
    assert _anchors("Which inn near the Red Oak Tavern has beds?") == {"red-oak-tavern"}
    assert _anchors("Who drinks at the Red Oak Tavern?") == {"red-oak-tavern"}
    assert _anchors("What are the powers of the Iron Hand?") == {"iron-hand"}


def test_the_entity_a_relation_is_asked_from_is_an_anchor() -> None:
    assert _anchors("Who leads the Iron Hand?") == {"iron-hand"}
    assert _anchors("Who does Torven Blackwater work for?") == {"torven-blackwater"}


def test_a_named_entity_of_another_type_than_asked_is_an_anchor() -> None:
    assert _anchors("Where can we find Torven Blackwater's friends?") == {"torven-blackwater"}


def test_the_subject_of_the_question_is_its_answer_not_an_anchor() -> None:
    for question in (
        "Who is Torven Blackwater?",
        "Where is Torven Blackwater?",
        "What is the Iron Hand?",
        "Tell me about the Red Oak Tavern.",
        "Can we drink at the Red Oak Tavern tonight?",  # asks nothing else: about the tavern
        "What happened at the Red Oak Tavern?",  # no answer type: the tavern is the story
        "Is Torven Blackwater alive?",
    ):
        assert _anchors(question) == set(), question


def test_spans_say_where_each_name_starts() -> None:
    spans = NAMES.spans("Who in the Iron Hand drinks at the Red Oak Tavern?")
    assert [(s.start, s.end, set(s.ids)) for s in spans] == [
        (3, 5, {"iron-hand"}),
        (8, 11, {"red-oak-tavern"}),
    ]


def test_a_place_the_answer_stands_by_is_an_anchor() -> None:
    assert _anchors("Which inn by the Red Oak Tavern has beds?") == {"red-oak-tavern"}
    assert _anchors("Which caravanserai beside the Red Oak Tavern has beds?") == {"red-oak-tavern"}


def test_a_place_above_or_between_others_is_the_setting_too() -> None:
    assert _anchors("Which inn above the Red Oak Tavern has beds?") == {"red-oak-tavern"}
    assert _anchors("Which inn stands atop the Red Oak Tavern?") == {"red-oak-tavern"}
    assert _anchors("Which inn lies between the Red Oak Tavern and the river?") == {
        "red-oak-tavern"
    }


def test_a_yes_no_question_is_about_the_one_named_after_its_verb() -> None:
    assert _anchors("Is Torven Blackwater still drinking at the Red Oak Tavern?") == {
        "red-oak-tavern"
    }
    assert _anchors("After the fire, is Torven Blackwater still in the Red Oak Tavern?") == {
        "red-oak-tavern"
    }
    assert _anchors("Is the Red Oak Tavern still standing after Torven Blackwater left?") == set()
    # a story asked, not a yes or no: the place is part of it
    assert _anchors("How did Torven Blackwater get out of the Red Oak Tavern?") == set()
    assert _anchors("Does the Iron Hand still meet at the Red Oak Tavern?") == {"red-oak-tavern"}
    assert _anchors("Should we ask Torven Blackwater at the Red Oak Tavern?") == {"red-oak-tavern"}


def test_one_named_only_before_the_question_is_who_it_is_about() -> None:
    def told(question: str) -> set[str]:
        return told_before(question, NAMES.spans(question))

    assert told("Torven Blackwater is bleeding. Who stitches him up?") == {"torven-blackwater"}
    assert told("Torven Blackwater is hurt. Who carries Torven Blackwater?") == set()  # asked too
    assert told("Who stitches Torven Blackwater up?") == set()  # one sentence
    for question in (  # a clause of what changed
        "Who runs the Red Oak Tavern now that Torven Blackwater is gone?",
        "Now that Torven Blackwater is gone, who runs the Red Oak Tavern?",
    ):
        assert told(question) == {"torven-blackwater"}, question


def test_who_is_one_so_called_now_asks_who_bears_the_name_now() -> None:
    def asked(question: str) -> set[str]:
        question = spelt_out(question)  # as the ranker reads it: "Who's" is "Who is"
        return named_holder_now(question, NAMES.spans(question))

    assert asked("Who's the Red Oak Tavern these days?") == {"red-oak-tavern"}
    assert asked("Who is Torven Blackwater right now?") == {"torven-blackwater"}
    assert asked("Who is Torven Blackwater?") == set()  # about the one so called
    assert asked("Who drinks at the Red Oak Tavern now?") == set()  # not the subject


def test_a_name_after_a_word_of_time_marks_when_the_question_is_set() -> None:
    for question in ("Who has the Iron Hand killed since Torven Blackwater?",
                     "Who was captured after the Red Oak Tavern?"):  # fmt: skip
        marked = time_marks(question, NAMES.spans(question))
        assert marked and marked <= {"torven-blackwater", "red-oak-tavern"}
    assert time_marks("Who leads the Iron Hand?", NAMES.spans("Who leads the Iron Hand?")) == set()


def test_a_name_further_into_a_clause_of_time_marks_when_but_not_past_the_question() -> None:
    question = "Who has died since we left the Red Oak Tavern?"
    assert time_marks(question, NAMES.spans(question)) == {"red-oak-tavern"}
    question = "Who has died since we rolled into the Red Oak Tavern?"  # "the" counts not
    assert time_marks(question, NAMES.spans(question)) == {"red-oak-tavern"}
    question = "After we lost Torven Blackwater, is the Iron Hand still at war with us?"
    assert time_marks(question, NAMES.spans(question)) == {"torven-blackwater"}  # not the Hand


def test_names_after_besides_or_other_than_are_put_out_of_the_answer() -> None:
    question = "Besides Torven Blackwater, who drinks at the Red Oak Tavern?"
    assert excluded(question, NAMES.spans(question)) == {"torven-blackwater"}
    question = "Who other than the Iron Hand has a grudge against us?"
    assert excluded(question, NAMES.spans(question)) == {"iron-hand"}
    question = "Who props up the bar at the Red Oak Tavern?"  # "bar" excludes nothing
    assert excluded(question, NAMES.spans(question)) == set()


def test_back_when_opens_a_clause_of_time_but_a_question_when_does_not() -> None:
    question = "Who ran the Iron Hand back when Torven Blackwater got killed?"
    assert time_marks(question, NAMES.spans(question)) == {"torven-blackwater"}
    question = "When did Torven Blackwater die?"
    assert time_marks(question, NAMES.spans(question)) == set()
