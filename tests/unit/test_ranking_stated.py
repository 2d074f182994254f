"""Stated answers: a sentence about the asked-about entity that states the asked relation in
prose credits the entities of the asked type it names (ranking.stated)."""

from __future__ import annotations

from ranking.cues import question_cues
from ranking.documents import ItemKey
from ranking.names import NameIndex
from ranking.stated import STATED, stated_answers
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
