"""The first ranker end to end over a hand-built view and a fake vector store."""

from __future__ import annotations

import pytest

from graphrag_core.config import RankingSettings
from graphrag_core.models import AskResult, CampaignView, Entity, RankedResult
from ranking.lexical import LexicalIndex
from ranking.presets import CURRENT_STATE, HISTORICAL
from ranking.ranker import Ranker
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import CAMPAIGN, FakeVectorStore, gm_view, party_view

SETTINGS = RankingSettings()
REST = "Where can the party rest?"


def ask(
    question: str,
    view: CampaignView,
    *,
    leaky: bool = False,
    settings: RankingSettings = SETTINGS,
    **kwargs: bool | int | None,
) -> AskResult:
    embedder = HashEmbedder()
    store = FakeVectorStore(embedder, gm_view(), leaky=leaky)
    ranker = Ranker(embedder, store.as_port(), settings)
    return ranker.rank(question, view, LexicalIndex.build(view), **kwargs)  # type: ignore[arg-type]


def by_id(result: AskResult) -> dict[str, RankedResult]:
    return {item.id: item for item in result.results}


def position(result: AskResult, item_id: str) -> int:
    return [item.id for item in result.results].index(item_id)


def test_destroyed_tavern_ranks_below_the_intact_inn() -> None:
    result = ask(REST, party_view())
    assert not result.historical
    assert position(result, "silver-stag-inn") < position(result, "red-oak-tavern")
    tavern = by_id(result)["red-oak-tavern"]
    assert (tavern.status, tavern.available) == ("destroyed", False)
    assert tavern.signals["status_factor"] == SETTINGS.inactive_factor
    assert tavern.status_note == "destroyed in session 3 (change s3-r1-1)"
    assert by_id(result)["silver-stag-inn"].available


def test_historical_questions_are_not_demoted() -> None:
    result = ask(REST, party_view(), historical=True)
    assert result.historical
    tavern = by_id(result)["red-oak-tavern"]
    assert tavern.signals["status_factor"] == 1.0
    assert tavern.signals["type"] == 1.0  # a tavern is a Location: what "where" asks for
    assert result.preset == "historical"
    assert tavern.score == pytest.approx(
        HISTORICAL.semantic * tavern.signals["semantic"]
        + HISTORICAL.lexical * tavern.signals["lexical"]
        + HISTORICAL.type
        + HISTORICAL.centrality * tavern.signals["centrality"]
    )
    assert not tavern.available  # still reported as destroyed, just not demoted


def test_historical_is_detected_from_the_question() -> None:
    result = ask("What happened at the Red Oak Tavern?", party_view())
    assert result.historical
    assert result.results[0].id in {"red-oak-tavern", "c-tavern"}


def test_hostile_faction_is_demoted_below_the_neutral_one() -> None:
    result = ask("Who can we hire as mercenary swords?", party_view())
    assert position(result, "river-guild") < position(result, "iron-hand")
    iron = by_id(result)["iron-hand"]
    assert (iron.attitude, iron.available) == ("hostile", False)
    assert iron.signals["status_factor"] == SETTINGS.inactive_factor
    assert iron.status_note.startswith("hostile to the party since session 4")


def test_gm_only_items_returned_by_the_store_are_dropped_for_players() -> None:
    result = ask(REST, party_view(), leaky=True, k=20)
    ids = {item.id for item in result.results}
    assert "c-secret" not in ids
    assert "shadow-cult" not in ids
    dumped = result.model_dump_json().lower()
    for secret in ("masked lord", "secretly", "cult", "secrets.md"):
        assert secret not in dumped
    assert result.as_player


def test_gm_view_sees_gm_items() -> None:
    result = ask("cult hideout beneath the inn", gm_view(), k=20)
    assert not result.as_player
    assert {"c-secret", "shadow-cult"} <= set(by_id(result))


def test_every_result_has_its_signals_and_blended_score() -> None:
    result = ask(REST, party_view())
    assert result.results
    for item in result.results:
        assert set(item.signals) == {
            "semantic",
            "lexical",
            "centrality",
            "recency",
            "status",
            "support",
            "mention",
            "named",
            "anchor",
            "relation",
            "attitude",
            "status_asked",
            "took_part",
            "proximity",
            "type",
            "status_factor",
        }
        assert 0.0 <= item.signals["semantic"] <= 1.0
        assert 0.0 <= item.signals["lexical"] <= 1.0
        sig = item.signals
        w = CURRENT_STATE
        blended = (
            max(
                w.semantic * sig["semantic"] + w.lexical * sig["lexical"],
                w.support * sig["support"],
                w.mention * sig["mention"],
                w.named * sig["named"],
                w.relation * sig["relation"],
                w.attitude * sig["attitude"],
                w.status_asked * sig["status_asked"],
                w.took_part * sig["took_part"],
            )
            * (w.anchor if sig["anchor"] else 1.0)
            + w.proximity * sig["proximity"]
            + w.type * sig["type"]
            + w.centrality * sig["centrality"]
            + w.recency * sig["recency"]
        ) * sig["status"]
        assert sig["status"] == sig["status_factor"]
        assert item.availability == ("available" if item.available else "unavailable")
        assert item.score == pytest.approx(blended)
    scores = [item.score for item in result.results]
    assert scores == sorted(scores, reverse=True)


def test_order_is_deterministic_and_ties_go_by_id() -> None:
    first = ask("mercenary company swords", party_view(), historical=True)
    second = ask("mercenary company swords", party_view(), historical=True)
    assert first == second
    for a, b in zip(first.results, first.results[1:], strict=False):
        assert a.score > b.score or (a.score == b.score and a.id < b.id)


def test_twins_tie_and_are_ordered_by_id() -> None:
    twin = Entity(id="b-twin", name="Gull Twin", type="NPC", description="A fisher.")
    view = party_view()
    entities = {**view.entities, "b-twin": twin, "a-twin": twin.model_copy(update={"id": "a-twin"})}
    view = view.model_copy(update={"entities": entities})
    embedder = HashEmbedder()
    store = FakeVectorStore(embedder, view)
    result = Ranker(embedder, store.as_port(), SETTINGS).rank(
        "gull twin fisher", view, LexicalIndex.build(view)
    )
    assert [item.id for item in result.results[:2]] == ["a-twin", "b-twin"]
    assert result.results[0].score == result.results[1].score


def test_candidates_without_any_relevance_are_left_out() -> None:
    result = ask(REST, party_view(), k=20)
    relevance = ("semantic", "lexical", "support", "mention", "named", "relation", "attitude",
                 "proximity")  # fmt: skip
    assert all(sum(item.signals[s] for s in relevance) > 0 for item in result.results)
    assert "iron-hand" not in by_id(result)


def test_passages_about_a_destroyed_place_are_demoted_and_annotated() -> None:
    result = ask(REST, party_view())
    tavern_passage = by_id(result)["c-tavern"]
    inn_passage = by_id(result)["c-inn"]
    assert tavern_passage.kind == "passage"
    assert tavern_passage.name == "places.md § Saltmarsh > Red Oak Tavern"
    assert tavern_passage.signals["status_factor"] == SETTINGS.inactive_factor
    assert position(result, "c-inn") < position(result, "c-tavern")
    assert tavern_passage.status_note.startswith("about Red Oak Tavern, destroyed in session 3")
    assert "Torven Blackwater — dead in session 5" in tavern_passage.status_note
    assert inn_passage.available and inn_passage.status == "intact"


def test_a_passage_that_mentions_a_destroyed_place_says_so() -> None:
    result = ask("fish market", party_view())
    market = by_id(result)["c-market"]
    assert market.available
    assert market.signals["status_factor"] == 1.0
    assert market.status_note == "Red Oak Tavern — destroyed in session 3 (change s3-r1-1)"


def test_entity_citations_quote_chunks_and_the_status_change() -> None:
    tavern = by_id(ask(REST, party_view()))["red-oak-tavern"]
    kinds = [(c.kind, c.id) for c in tavern.citations]
    assert kinds == [("chunk", "c-tavern"), ("chunk", "c-market"), ("change", "s3-r1-1")]
    change = tavern.citations[-1]
    assert (change.session_id, change.source) == (3, "sessions/3.md")
    assert change.quote == "status: intact → destroyed"
    assert tavern.citations[0].source == "places.md"
    assert tavern.text.startswith("A tavern by the docks")


def test_passage_count_and_k_are_respected() -> None:
    settings = RankingSettings(passages=1)
    result = ask(REST, gm_view(), settings=settings, k=3)
    assert len(result.results) == 3
    assert sum(item.kind == "passage" for item in result.results) == 1
    no_passages = ask(REST, gm_view(), settings=RankingSettings(passages=0), k=20)
    assert all(item.kind == "entity" for item in no_passages.results)


def test_the_store_is_asked_per_kind_with_the_view_visibilities() -> None:
    embedder = HashEmbedder()
    store = FakeVectorStore(embedder, gm_view())
    view = party_view()
    Ranker(embedder, store.as_port(), SETTINGS).rank(REST, view, LexicalIndex.build(view))
    assert store.calls == [
        (CAMPAIGN, "entity", SETTINGS.candidates, ("party",)),
        (CAMPAIGN, "chunk", SETTINGS.candidates, ("party",)),
    ]


def test_result_header_echoes_the_view() -> None:
    view = party_view().model_copy(update={"as_of_session": 4})
    result = ask(REST, view)
    assert (result.question, result.campaign, result.as_of_session) == (REST, CAMPAIGN, 4)


def test_an_entity_named_in_the_question_is_not_demoted_and_comes_first() -> None:
    result = ask("Is Torven Blackwater alive?", party_view())
    first = result.results[0]
    assert first.id == "torven-blackwater"
    assert first.signals["named"] == 1.0
    assert first.signals["status_factor"] == 1.0
    assert first.status == "dead"
    assert not first.available


def test_a_passage_about_an_entity_supports_that_entity() -> None:
    result = ask(REST, party_view(), k=20)
    supported = [r for r in result.results if r.kind == "entity" and r.signals["support"] > 0]
    assert supported
    passages = {r.id: r for r in result.results if r.kind == "passage"}
    assert all(r.signals["support"] <= 1.0 for r in supported)
    assert passages


def test_an_enemy_out_of_reach_is_still_one_over_the_campaign_but_not_now() -> None:
    view = party_view()
    jailed = view.states["torven-blackwater"].model_copy(
        update={"status": "captured", "attitude": "hostile"}
    )
    view = view.model_copy(update={"states": {**view.states, jailed.entity_id: jailed}})
    lasting = by_id(ask("Who has turned against us?", view))["torven-blackwater"]
    assert lasting.signals["status_factor"] == 1.0  # a turncoat in a cell is one all the same
    assert not lasting.available  # still marked: he is captured
    now = by_id(ask("Who is still against us?", view))["torven-blackwater"]
    assert now.signals["status_factor"] == SETTINGS.inactive_factor  # not one who can act now
