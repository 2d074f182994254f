"""Stated answers: a sentence about the asked-about entity that states the asked relation in
prose credits the entities of the asked type it names (ranking.stated)."""

from __future__ import annotations

from ranking.cues import question_cues
from ranking.documents import ItemKey
from ranking.names import NameIndex
from ranking.stated import NEARBY, STATED, stated_answers
from tests.unit.ranking_fakes import gm_view


def _view_with(text: str):  # type: ignore[no-untyped-def]
    view = gm_view()
    chunk = view.chunks["c-tavern"].model_copy(update={"text": text})
    return view.model_copy(update={"chunks": {**view.chunks, "c-tavern": chunk}})


def test_a_sentence_stating_the_relation_credits_the_person_it_names() -> None:
    view = _view_with(
        "The tavern is old. Torven Blackwater keeps it, and the Iron Hand drinks there."
    )
    cues = question_cues("Who owns the Red Oak Tavern?")
    found = stated_answers(
        cues, {"red-oak-tavern"}, {ItemKey("chunk", "c-tavern"): 0.5}, view, NameIndex.build(view)
    )
    assert found["torven-blackwater"] == STATED
    assert "red-oak-tavern" not in found


def test_no_relation_word_no_stated_answer() -> None:
    view = _view_with("The tavern is old. Torven Blackwater drinks there nightly.")
    cues = question_cues("Who owns the Red Oak Tavern?")
    relevance = {ItemKey("chunk", "c-tavern"): 0.5}
    assert stated_answers(cues, {"red-oak-tavern"}, relevance, view, NameIndex.build(view)) == {}


def _market_with(text: str):  # type: ignore[no-untyped-def]
    """The market passage (about nothing, naming the tavern) with ``text``."""
    view = gm_view()
    chunk = view.chunks["c-market"].model_copy(update={"text": text})
    return view.model_copy(update={"chunks": {**view.chunks, "c-market": chunk}})


def _owner_of_tavern(view) -> dict[str, float]:  # type: ignore[no-untyped-def]
    cues = question_cues("Who owns the Red Oak Tavern?")
    relevance = {ItemKey("chunk", "c-market"): 0.5}
    return stated_answers(cues, {"red-oak-tavern"}, relevance, view, NameIndex.build(view))


def test_the_sentence_after_the_one_that_names_it_last_is_about_it() -> None:
    # "owns it": the pronoun stands for what the sentence before named last
    view = _market_with("The fish market lies beside the Red Oak Tavern. Torven owns it.")
    assert _owner_of_tavern(view)["torven-blackwater"] == STATED


def test_a_sentence_after_one_that_names_it_before_another_place_is_only_nearby() -> None:
    view = _market_with("The Red Oak Tavern faces the Silver Stag Inn. Torven owns it.")
    assert _owner_of_tavern(view)["torven-blackwater"] == STATED * NEARBY


def test_a_semicolon_does_not_end_the_sentence() -> None:
    # the clause after the semicolon states the relation, the one before names the owner
    view = _market_with(
        "Up the lane is the Red Oak Tavern. Torven mends nets below; the rooms above he lets."
    )
    assert _owner_of_tavern(view)["torven-blackwater"] == STATED


def test_a_relation_word_inside_a_name_states_nothing() -> None:
    view = _view_with("The tavern is old. Captain Torven drinks there nightly.")
    torven = view.entities["torven-blackwater"].model_copy(update={"aliases": ("Captain Torven",)})
    view = view.model_copy(update={"entities": {**view.entities, torven.id: torven}})
    cues = question_cues("Who is the captain of the Red Oak Tavern?")
    relevance = {ItemKey("chunk", "c-tavern"): 0.5}
    assert stated_answers(cues, {"red-oak-tavern"}, relevance, view, NameIndex.build(view)) == {}


def test_paying_a_tithe_to_someone_states_who_leads() -> None:
    view = _view_with("The Red Oak Tavern pays a tithe to Torven Blackwater.")
    cues = question_cues("Who is the master of the Red Oak Tavern?")
    relevance = {ItemKey("chunk", "c-tavern"): 0.5}
    found = stated_answers(cues, {"red-oak-tavern"}, relevance, view, NameIndex.build(view))
    assert found["torven-blackwater"] == STATED


def test_stealing_for_someone_states_whom_one_works_for() -> None:
    view = _view_with("Torven Blackwater swore he only stole for the Iron Hand.")
    cues = question_cues("Whom does Torven Blackwater steal for?")
    relevance = {ItemKey("chunk", "c-tavern"): 0.5}
    found = stated_answers(cues, {"torven-blackwater"}, relevance, view, NameIndex.build(view))
    assert found == {"iron-hand": STATED}


def test_without_a_pronoun_nothing_carries_over_from_the_sentence_before() -> None:
    # "the thieves' guild of Duneveil. All pay a tithe to Nadir": Nadir leads the guild, not
    # the city the sentence before named last
    view = _market_with("The fish market lies beside the Red Oak Tavern. Torven owns the stalls.")
    assert _owner_of_tavern(view)["torven-blackwater"] == STATED * NEARBY


def test_a_kinship_credits_the_name_in_the_possessive_and_only_a_person() -> None:
    # "the captain's son": the possessive names the parent; the company named beside is no kin
    view = _view_with("Torven Blackwater rows for the Iron Hand; the Red Oak Tavern's son.")
    tavern = view.entities["red-oak-tavern"].model_copy(update={"type": "NPC"})
    view = view.model_copy(update={"entities": {**view.entities, "red-oak-tavern": tavern}})
    cues = question_cues("Whose boy is Torven?")
    relevance = {ItemKey("chunk", "c-tavern"): 0.5}
    found = stated_answers(cues, {"torven-blackwater"}, relevance, view, NameIndex.build(view))
    assert found == {"red-oak-tavern": STATED}
    owner = question_cues("Who owns the Iron Hand?")  # no kinship: no possessive read
    assert "red-oak-tavern" not in stated_answers(
        owner, {"iron-hand"}, relevance, view, NameIndex.build(view)
    )


def test_a_sibling_asked_is_stated_by_the_same_kin_noun_not_another() -> None:
    view = _view_with("Torven Blackwater is old. The Red Oak Tavern's kid brother, they say.")
    tavern = view.entities["red-oak-tavern"].model_copy(update={"type": "NPC"})
    view = view.model_copy(update={"entities": {**view.entities, "red-oak-tavern": tavern}})
    relevance = {ItemKey("chunk", "c-tavern"): 0.5}

    def stated(question: str) -> dict[str, float]:
        cues = question_cues(question)
        return stated_answers(cues, {"torven-blackwater"}, relevance, view, NameIndex.build(view))

    assert "red-oak-tavern" in stated("Who is Torven's brother?")
    assert stated("Who is Torven's big sister?") == {}
