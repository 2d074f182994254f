"""Summaries per audience, LLM summaries through a replayed chat model, global answers."""

from __future__ import annotations

import json
from pathlib import Path

from graphrag_core.analytics.global_search import map_reduce_answer, summaries_answer
from graphrag_core.analytics.llm_summaries import llm_summary
from graphrag_core.analytics.summaries import extractive_summary
from graphrag_core.analytics_models import Community, EntityMetrics, SummaryHit
from graphrag_core.models import CampaignView, ChatReply, Entity, Relation
from graphrag_core.settings import AnalyticsSettings
from graphrag_core.views import build_view
from tests.fakes import ScriptedChatModel


def _scripted(texts: list[str], model_id: str = "fake-llm") -> ScriptedChatModel:
    return ScriptedChatModel([ChatReply(text=t, model=model_id) for t in texts], model_id)


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "chat"
SETTINGS = AnalyticsSettings()
ENTITIES = [
    Entity(
        id="elda-fenwick",
        name="Elda Fenwick",
        type="NPC",
        description="Elda leads the Greycloak Wardens. She is brave.",
        gm_notes="Elda is secretly the Hollow King's spy.",
    ),
    Entity(
        id="greycloak-wardens", name="Greycloak Wardens", type="Faction", description="Rangers."
    ),
    Entity(
        id="ashen-choir", name="Ashen Choir", type="Faction", visibility="gm", description="A cult."
    ),
]
RELATIONS = [
    Relation(source="elda-fenwick", target="greycloak-wardens", type="leads"),
    Relation(
        source="ashen-choir",
        target="greycloak-wardens",
        type="hostile_to",
        visibility="gm",
        description="The choir hunts wardens.",
    ),
    Relation(source="elda-fenwick", target="greycloak-wardens", type="knows", visibility="gm"),
]
COMMUNITY = Community(
    id="c-0-1", level=0, members=("ashen-choir", "elda-fenwick", "greycloak-wardens")
)
METRICS = {
    e.id: EntityMetrics(entity_id=e.id, degree=1, betweenness=0.0, pagerank=0.1, importance=i)
    for e, i in zip(ENTITIES, (9.0, 5.0, 3.0), strict=True)
}


def _view(as_player: bool) -> CampaignView:
    return build_view("t", ENTITIES, RELATIONS, [], [], as_player=as_player)


def test_gm_summary_has_everything_with_ids() -> None:
    summary = extractive_summary(COMMUNITY, _view(False), METRICS, SETTINGS)
    assert summary is not None and summary.visibility == "gm"
    assert summary.members == COMMUNITY.members
    assert "secretly" in summary.summary and "Ashen Choir" in summary.summary
    assert summary.title.startswith("Elda Fenwick")
    assert all(f.entity_ids for f in summary.findings)
    assert any(
        f.relation_ids == ("elda-fenwick|leads|greycloak-wardens",) for f in summary.findings
    )


def test_party_summary_holds_party_facts_only() -> None:
    summary = extractive_summary(COMMUNITY, _view(True), METRICS, SETTINGS)
    assert summary is not None and summary.visibility == "party"
    assert summary.members == ("elda-fenwick", "greycloak-wardens")
    text = summary.model_dump_json().lower()
    for secret in ("secretly", "ashen", "choir", "hunts", "|knows|"):
        assert secret not in text


def test_community_without_party_members_has_no_party_summary() -> None:
    hidden = Community(id="c-0-2", level=0, members=("ashen-choir",))
    assert extractive_summary(hidden, _view(True), METRICS, SETTINGS) is None


def test_fingerprint_changes_only_with_the_visible_facts() -> None:
    party = extractive_summary(COMMUNITY, _view(True), METRICS, SETTINGS)
    gm_changed = [e.model_copy(update={"gm_notes": "Other secret."}) for e in ENTITIES]
    view = build_view("t", gm_changed, RELATIONS, [], [], as_player=True)
    again = extractive_summary(COMMUNITY, view, METRICS, SETTINGS)
    assert party is not None and again is not None
    assert party.fingerprint == again.fingerprint


def test_llm_summary_keeps_only_cited_known_ids() -> None:
    extractive = extractive_summary(COMMUNITY, _view(False), METRICS, SETTINGS)
    assert extractive is not None
    chat = _scripted([(FIXTURES / "community_summary.json").read_text()])
    summary = llm_summary(extractive, chat)
    assert summary.method == "fake-llm"
    assert summary.title == "The Greycloak Wardens of the Cinderwood"
    assert [f.entity_ids for f in summary.findings] == [("elda-fenwick", "greycloak-wardens")]
    assert "F1." in chat.requests[0][1]["content"]


def test_unusable_llm_reply_falls_back_to_extractive() -> None:
    extractive = extractive_summary(COMMUNITY, _view(False), METRICS, SETTINGS)
    assert extractive is not None
    assert llm_summary(extractive, _scripted(["not json", "not json"])) == extractive


def _hit() -> SummaryHit:
    summary = extractive_summary(COMMUNITY, _view(True), METRICS, SETTINGS)
    assert summary is not None
    return SummaryHit(
        community_id="c-0-1",
        level=0,
        title=summary.title,
        summary=summary.summary,
        score=0.9,
        findings=summary.findings,
    )


def test_global_answer_without_model_is_the_cited_summaries() -> None:
    answer = summaries_answer("who holds power?", "t", True, [_hit()])
    assert answer.method == "summaries" and not answer.answer
    assert answer.claims and all(c.community_ids == ("c-0-1",) for c in answer.claims)


def test_global_answer_map_reduce_cites_communities_and_entities() -> None:
    mapped = {"points": [{"text": "Elda leads the wardens.", "entity_ids": ["elda-fenwick", "x"]}]}
    reduced = {
        "answer": "The Greycloak Wardens under Elda Fenwick hold the roads.",
        "claims": [
            {
                "text": "Elda leads the wardens.",
                "community_ids": ["c-0-1", "c-9-9"],
                "entity_ids": ["elda-fenwick"],
            }
        ],
    }
    chat = _scripted([json.dumps(mapped), json.dumps(reduced)])
    answer = map_reduce_answer("who holds power?", "t", True, [_hit()], chat)
    assert answer.method == "map-reduce:fake-llm"
    assert answer.answer.startswith("The Greycloak Wardens")
    assert answer.claims[0].community_ids == ("c-0-1",)
    assert answer.claims[0].entity_ids == ("elda-fenwick",)
