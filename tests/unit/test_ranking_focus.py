"""Focus: the entities a passage names in the sentences that answer the question are credited
like its subject (ranking.focus)."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import CampaignView
from ranking.cues import question_cues
from ranking.documents import ItemKey
from ranking.focus import content_words, focused_entities
from ranking.lexical import LexicalIndex
from ranking.names import NameIndex
from ranking.ranker import Ranker
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import FakeVectorStore, party_view

MARKET = (
    "The fish market lies beside the Red Oak Tavern, where the Iron Hand drinks. "
    "Torven Blackwater sells smoked eels from a barrow by the gate."
)


def _view() -> CampaignView:
    view = party_view()
    chunk = view.chunks["c-market"].model_copy(
        update={"text": MARKET, "mentions": ("iron-hand", "red-oak-tavern", "torven-blackwater")}
    )
    return view.model_copy(update={"chunks": {**view.chunks, "c-market": chunk}})


def _focused(question: str) -> dict[str, float]:
    view = _view()
    relevance = {ItemKey("chunk", "c-market"): 0.4}
    return focused_entities(
        question, question_cues(question), relevance, view, NameIndex.build(view)
    )


def test_content_words_are_crudely_stemmed() -> None:
    assert content_words("Who forges harpoons?") == {"forg", "harpoon"}
    assert content_words("forged the long harpoon") == {"forg", "long", "harpoon"}


def test_the_person_named_where_the_passage_answers_is_credited_the_passage() -> None:
    # the Iron Hand is named too, but in a sentence that does not answer
    assert _focused("Who sells smoked eels?") == {"torven-blackwater": 0.4}


def test_no_focus_for_a_place_question_or_one_sharing_no_word() -> None:
    assert _focused("Where can we buy smoked eels?") == {}
    assert _focused("Who guards the northern road?") == {}


def test_the_ranker_lifts_the_focused_person_like_a_passage_subject() -> None:
    view = _view()
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    result = ranker.rank("Who sells smoked eels?", view, LexicalIndex.build(view), k=10)
    entities = [r for r in result.results if r.kind == "entity"]
    assert entities[0].id == "torven-blackwater"  # above the tavern and the Iron Hand
    assert entities[0].signals["support"] > 0.0
