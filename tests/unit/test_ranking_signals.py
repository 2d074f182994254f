"""The new signals: graded proximity over the effective graph, recency, centrality, presets,
the relevance floor and the 'nobody fits' note."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from graphrag_core.analytics_models import CommunitySummary
from graphrag_core.config import RankingSettings, WeightOverrides
from graphrag_core.models import (
    CampaignView,
    Chunk,
    EffectiveState,
    Relation,
    ScoredId,
    Visibility,
)
from ranking.graph import EffectiveGraph
from ranking.inputs import RankInputs, normalised
from ranking.lexical import LexicalIndex
from ranking.presets import CURRENT_STATE, HISTORICAL, LORE, choose_preset, preset_weights
from ranking.ranker import Ranker
from ranking.recency import chunk_session, decayed, last_sessions, merge_sessions
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import FakeVectorStore, gm_view, party_view

CHAIN = (
    Relation(source="torven-blackwater", target="red-oak-tavern", type="owns"),
    Relation(source="red-oak-tavern", target="river-guild", type="knows"),
    Relation(source="silver-stag-inn", target="river-guild", type="allied_with"),
    Relation(source="iron-hand", target="river-guild", type="allied_with"),
)


def chained(view: CampaignView) -> CampaignView:
    return view.model_copy(update={"relations": CHAIN})


def test_proximity_decays_per_hop_and_stops_at_inactive_entities() -> None:
    graph = EffectiveGraph.build(chained(party_view()))
    near = graph.proximity({"torven-blackwater"}, hops=3, decay=0.5)
    # the tavern is destroyed: reached (1 hop) but the guild behind it is not reached through it
    assert near == {"red-oak-tavern": 1.0}
    from_inn = graph.proximity({"silver-stag-inn"}, hops=2, decay=0.5)
    assert from_inn == {"river-guild": 1.0, "red-oak-tavern": 0.5, "iron-hand": 0.5}


def test_a_relation_turned_hostile_is_a_hostile_relation_now() -> None:
    view = chained(party_view())
    states = dict(view.states)
    states["river-guild"] = EffectiveState(
        entity_id="river-guild", status="active", relation_attitudes={"iron-hand": "hostile"}
    )
    graph = EffectiveGraph.build(view.model_copy(update={"states": states}))
    assert graph.neighbours({"river-guild"}, {"allied_with"}) == {"silver-stag-inn"}
    assert graph.neighbours({"river-guild"}, {"hostile_to"}) == {"iron-hand"}


def test_recency_reads_changes_and_session_records() -> None:
    view = party_view()
    recap = Chunk(
        id="c-s6", source_path="sessions/session-06.md", start=0, end=10, content_hash="e",
        text="The party met the River Guild.", mentions=("river-guild",),
    )  # fmt: skip
    view = view.model_copy(update={"chunks": {**view.chunks, recap.id: recap}})
    assert chunk_session(recap) == 6
    last = last_sessions(view)
    assert last["red-oak-tavern"] == 3 and last["torven-blackwater"] == 5
    assert last["river-guild"] == 6
    assert last_sessions(view.model_copy(update={"as_of_session": 5})).get("river-guild") is None
    assert merge_sessions(last, {"river-guild": 9})["river-guild"] == 9
    stamped = recap.model_copy(update={"session": 8, "source_path": "notes/recap.md"})
    assert chunk_session(stamped) == 8
    view = view.model_copy(update={"mentioned_sessions": {"silver-stag-inn": (2, 7)}})
    assert last_sessions(view)["silver-stag-inn"] == 7
    assert decayed(3, 6, 3.0) == 0.5 and decayed(None, 6, 3.0) == 0.0


def test_centrality_is_normalised_per_campaign() -> None:
    assert normalised({"a": 2.0, "b": 6.0, "c": 4.0}) == {"a": 0.0, "b": 1.0, "c": 0.5}
    assert normalised({"a": 3.0}) == {"a": 0.0}


def test_presets_are_chosen_from_the_question_or_forced_and_overridable() -> None:
    assert choose_preset("Where can we rest?") == "current_state"
    assert choose_preset("What happened at the tavern?") == "historical"
    assert choose_preset("Tell me about the legends of the Cinderwood") == "lore"
    assert choose_preset("Where can we rest?", forced="lore") == "lore"
    assert HISTORICAL.recency == 0.0 and LORE.centrality > CURRENT_STATE.centrality
    settings = RankingSettings(lore=WeightOverrides(centrality=0.5))
    assert preset_weights("lore", settings).centrality == 0.5
    assert preset_weights("lore", settings).semantic == LORE.semantic


def _ranker(settings: RankingSettings) -> Ranker:
    embedder = HashEmbedder()
    return Ranker(embedder, FakeVectorStore(embedder, gm_view()).as_port(), settings)


def test_importance_and_recency_enter_the_score_as_named_signals() -> None:
    view = party_view()
    inputs = RankInputs.build(view, importance={"silver-stag-inn": 9.0, "red-oak-tavern": 1.0})
    result = _ranker(RankingSettings()).rank(
        "Where can the party rest?", view, LexicalIndex.build(view), inputs=inputs
    )
    inn = next(r for r in result.results if r.id == "silver-stag-inn")
    tavern = next(r for r in result.results if r.id == "red-oak-tavern")
    assert inn.signals["centrality"] == 1.0 and tavern.signals["centrality"] == 0.0
    assert tavern.signals["recency"] == pytest.approx(0.5 ** (2 / 3))  # session 3, now 5
    assert inn.signals["recency"] == 0.0
    assert result.preset == "current_state"


def test_the_floor_hides_weak_matches_and_says_so() -> None:
    view = party_view()
    strict = _ranker(RankingSettings(relevance_floor=1.0))
    result = strict.rank("fish market", view, LexicalIndex.build(view))
    assert result.results == () and "fits the question" in result.note


def test_no_allies_means_no_results_and_a_note() -> None:
    view = party_view()
    result = _ranker(RankingSettings()).rank("Who are our allies?", view, LexicalIndex.build(view))
    assert result.results == ()
    assert result.note == "nothing in this campaign is allied with the party now"
    enemies = _ranker(RankingSettings()).rank(
        "Who are our enemies?", view, LexicalIndex.build(view)
    )
    assert enemies.results[0].id == "iron-hand" and not enemies.note


class _SummaryStore(FakeVectorStore):
    """The fake store plus a fixed summary search (a party and a GM summary)."""

    def summary_search(
        self, campaign: str, vector: Sequence[float], k: int, visibilities: Sequence[Visibility]
    ) -> list[ScoredId]:
        hits = [ScoredId(id="c-0-2@gm", score=0.99), ScoredId(id="p-0-1@party", score=0.95)]
        return [h for h in hits if h.id.partition("@")[2] in visibilities][:k]


def test_community_summaries_are_ranked_items_with_members_most_central_first() -> None:
    view = party_view()
    summary = CommunitySummary(
        community_id="p-0-1", visibility="party", title="Inns of Saltmarsh",
        summary="The Silver Stag Inn and the Red Oak Tavern.",
        members=("red-oak-tavern", "silver-stag-inn"),
    )  # fmt: skip
    secret = summary.model_copy(update={"community_id": "c-0-2", "visibility": "gm"})
    inputs = RankInputs.build(
        view,
        importance={"silver-stag-inn": 5.0, "red-oak-tavern": 1.0},
        summaries={"p-0-1": summary, "c-0-2": secret},
    )
    embedder = HashEmbedder()
    store = _SummaryStore(embedder, gm_view()).as_port()
    ranker = Ranker(embedder, store, RankingSettings())
    result = ranker.rank("inns", view, LexicalIndex.build(view), inputs=inputs, k=20)
    communities = [r for r in result.results if r.kind == "community"]
    assert [c.id for c in communities] == ["p-0-1"]  # the GM summary is not the party's
    found = communities[0]
    assert found.members == ("silver-stag-inn", "red-oak-tavern")
    assert found.signals["semantic"] == 0.95 and found.signals["centrality"] == 1.0
    assert found.score == pytest.approx(
        CURRENT_STATE.community * 0.95
        + CURRENT_STATE.centrality
        + CURRENT_STATE.recency * found.signals["recency"]
    )
    none = Ranker(embedder, store, RankingSettings(communities=0))
    limited = none.rank("inns", view, LexicalIndex.build(view), inputs=inputs, k=20)
    assert all(r.kind != "community" for r in limited.results)
