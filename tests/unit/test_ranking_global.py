"""Global and list questions: what a place can do for a traveller, who keeps the records, who
can stop a trade, what lurks out there; and things named in passing kept out of list answers
(:mod:`ranking.lists`, :mod:`ranking.passing`)."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import CampaignView, Chunk, Entity, Relation
from ranking.cues import question_cues
from ranking.inputs import RankInputs
from ranking.lexical import LexicalIndex
from ranking.lists import (
    asks_creatures,
    asks_offer,
    list_cues,
    main_place,
    offer_query,
    offering_places,
)
from ranking.names import NameSpan
from ranking.passing import passing_demoted, passing_entities
from ranking.ranker import Ranker
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import FakeVectorStore, party_view


def _added(question: str) -> set[str]:
    return set(offer_query(question, question)[len(question) :].split())


def test_what_a_place_can_do_for_a_traveller_asks_what_it_offers() -> None:
    assert asks_offer("What can the city do for a crew passing through?")
    assert asks_offer("What could the station do for a survey team?")
    assert not asks_offer("What can we do for the Baron?")  # what the asker can do
    assert not asks_offer("What did the smith do for us?")
    cues = list_cues("What can the city do for a crew?", question_cues("What can the city do"))
    assert "Location" in cues.list_types


def test_records_and_stopping_a_trade_search_with_the_words_of_their_keepers() -> None:
    assert {"newspaper", "archive", "library"} <= _added(
        "Where can we dig through old clippings about the waterfront?"
    )
    assert "library" in _added("Who keeps the back issues of the colony bulletin?")
    assert {"police", "agent", "raid"} <= _added(
        "Who do we talk to if we want the booze boats shut down for good?"
    )
    assert _added("Who can get the ore haulers' strike broken up?") >= {"law", "arrest"}
    assert not _added("Who shut the door?") and not _added("Where is the old mill?")


def test_what_lurks_out_there_asks_for_the_creatures() -> None:
    question = "What do the locals reckon is down there in the water?"
    assert asks_creatures(question) and asks_creatures("What prowls the moor at night?")
    cues = list_cues(question, question_cues(question))
    assert "Creature" in cues.list_types and "Deity" in cues.answer_types
    assert not asks_creatures("What is the old mill?")
    assert not asks_creatures("Who lurks at the bar?")  # a person, not a beast


_BOSTON = Entity(id="far-city", name="Farhaven", type="Location", description="")
_SPOT = Entity(id="net-loft", name="Net Loft", type="Location", description="A rope shop.")


def _chunk(ident: str, text: str, subject: str | None, mentions: tuple[str, ...]) -> Chunk:
    return Chunk(
        id=ident,
        source_path="lore/primer.md",
        start=0,
        end=len(text),
        content_hash=ident,
        text=text,
        subject=subject,
        mentions=mentions,
    )


def _view() -> CampaignView:
    base = party_view()
    primer = _chunk(
        "c-primer",
        "Saltmarsh is a harbour town a day's sail from Farhaven. The Net Loft sells rope.",
        None,
        ("far-city", "net-loft"),
    )
    loft = _chunk("c-loft", "The Net Loft is a place on the docks.", "net-loft", ("net-loft",))
    return base.model_copy(
        update={
            "entities": {**base.entities, _BOSTON.id: _BOSTON, _SPOT.id: _SPOT},
            "chunks": {**base.chunks, primer.id: primer, loft.id: loft},
            "relations": (
                Relation(source="far-city", target="net-loft", type="related_to"),
                Relation(source="red-oak-tavern", target="far-city", type="related_to"),
            ),
        }
    )


def test_a_thing_named_only_in_passing_is_one_no_passage_is_about_and_nothing_is_stated_of() -> (
    None
):
    view = _view()
    assert "far-city" in passing_entities(view)
    assert "net-loft" not in passing_entities(view)  # a passage is about it
    located = view.model_copy(
        update={"relations": (Relation(source="far-city", target="net-loft", type="owns"),)}
    )
    assert "far-city" not in passing_entities(located)  # something is stated of it
    region = view.model_copy(
        update={"relations": (Relation(source="net-loft", target="far-city", type="located_in"),)}
    )
    assert "far-city" in passing_entities(region)  # containing a place states nothing of it


def test_a_list_answer_demotes_a_place_named_in_passing_but_not_when_it_is_named() -> None:
    view = _view()
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    factor = RankingSettings().inactive_factor

    def status(question: str) -> float:
        found = ranker.rank(question, view, LexicalIndex.build(view), k=20).results
        return {r.id: r.signals for r in found}["far-city"]["status"]

    assert status("What are the places in the harbour town?") == factor
    assert status("What are the places near Farhaven?") == 1.0  # named
    assert status("How far is the harbour town from Farhaven's gate?") == 1.0  # no list


def test_the_place_a_campaign_is_named_after_is_its_setting_and_no_spot_of_a_list() -> None:
    view = _view()
    town = Entity(id=view.campaign, name="Saltmarsh", type="Location", description="A town.")
    named = view.model_copy(update={"entities": {**view.entities, town.id: town}})
    assert main_place(named) == view.campaign  # whatever the passages name most
    assert main_place(view) != view.campaign
    spans: list[NameSpan] = []
    question = "What are the main spots along the waterfront?"
    cues = list_cues(question, question_cues(question))
    assert offering_places(question, spans, {}, named, cues.list_types) == {view.campaign}
    assert offering_places("Who runs the docks?", spans, {}, named) == set()


def test_a_question_for_people_demotes_a_place_named_in_passing_one_for_places_does_not() -> None:
    passing = passing_entities(_view())
    assert passing_demoted(passing, set(), False, frozenset({"NPC", "Faction"})) == {"far-city"}
    assert passing_demoted(passing, set(), False, frozenset({"Location"})) == set()
    assert passing_demoted(passing, set(), False, frozenset()) == set()  # asks for nothing
    assert passing_demoted(passing, {"far-city"}, True, frozenset()) == set()  # named
    assert passing_demoted(passing, set(), True, frozenset({"Location"})) == {"far-city"}


def test_the_things_named_in_passing_are_found_once_per_view_with_the_ranking_inputs() -> None:
    inputs = RankInputs.build(_view())
    assert inputs.passing == passing_entities(_view()) == {"far-city"}
