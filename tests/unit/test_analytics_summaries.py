"""Summaries per audience, LLM summaries through a replayed chat model, global answers."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from graphrag_core.analytics.facts import Facts
from graphrag_core.analytics.global_search import map_reduce_answer, summaries_answer
from graphrag_core.analytics.llm_summaries import guarded_summary, llm_summary
from graphrag_core.analytics.summaries import extractive_summary
from graphrag_core.analytics_models import Community, CommunitySummary, EntityMetrics, SummaryHit
from graphrag_core.config import AnalyticsSettings
from graphrag_core.errors import ChatModelUnavailableError
from graphrag_core.models import CampaignView, Change, ChatReply, Entity, Relation
from graphrag_core.services.views import build_view
from tests.fakes import ScriptedChatModel

FAIL = "<model down>"


class FailingScriptedChatModel(ScriptedChatModel):
    """A scripted model whose ``FAIL`` replies are a model error (the server is down)."""

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_schema: dict[str, object] | None = None,
        max_tokens: int = 1024,
    ) -> ChatReply:
        reply = super().complete(messages, json_schema=json_schema, max_tokens=max_tokens)
        if reply.text == FAIL:
            raise ChatModelUnavailableError("model 'fake-llm' at http://x did not answer")
        return reply


def _scripted(texts: list[str], model_id: str = "fake-llm") -> FailingScriptedChatModel:
    return FailingScriptedChatModel([ChatReply(text=t, model=model_id) for t in texts], model_id)


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


def _view(as_player: bool, changes: Sequence[Change] = ()) -> CampaignView:
    return build_view("t", ENTITIES, RELATIONS, [], list(changes), as_player=as_player)


def _summary(
    as_player: bool, community: Community = COMMUNITY, changes: Sequence[Change] = ()
) -> CommunitySummary | None:
    return extractive_summary(community, Facts.of(_view(as_player, changes)), METRICS, SETTINGS)


def test_gm_summary_has_everything_with_ids() -> None:
    summary = _summary(False)
    assert summary is not None and summary.visibility == "gm"
    assert summary.members == COMMUNITY.members
    assert "secretly" in summary.summary and "Ashen Choir" in summary.summary
    assert summary.title.startswith("Elda Fenwick")
    assert all(f.entity_ids for f in summary.findings)
    assert any(
        f.relation_ids == ("elda-fenwick|leads|greycloak-wardens",) for f in summary.findings
    )


def test_party_summary_holds_party_facts_only() -> None:
    summary = _summary(True)
    assert summary is not None and summary.visibility == "party"
    assert summary.members == ("elda-fenwick", "greycloak-wardens")
    text = summary.model_dump_json().lower()
    for secret in ("secretly", "ashen", "choir", "hunts", "|knows|"):
        assert secret not in text


def test_community_without_party_members_has_no_party_summary() -> None:
    hidden = Community(id="c-0-2", level=0, members=("ashen-choir",))
    assert _summary(True, hidden) is None


def test_fingerprint_changes_only_with_the_visible_facts() -> None:
    party = _summary(True)
    gm_changed = [e.model_copy(update={"gm_notes": "Other secret."}) for e in ENTITIES]
    view = build_view("t", gm_changed, RELATIONS, [], [], as_player=True)
    again = extractive_summary(COMMUNITY, Facts.of(view), METRICS, SETTINGS)
    assert party is not None and again is not None
    assert party.fingerprint == again.fingerprint


def test_llm_summary_keeps_only_cited_known_ids() -> None:
    extractive = _summary(False)
    assert extractive is not None
    chat = _scripted([(FIXTURES / "community_summary.json").read_text()])
    summary = llm_summary(extractive, chat, SETTINGS)
    assert summary.method == "fake-llm" and "fake-llm|community-summary-v2" in summary.recipe
    assert summary.title == "The Greycloak Wardens of the Cinderwood"
    assert [f.entity_ids for f in summary.findings] == [("elda-fenwick", "greycloak-wardens")]
    assert "F1." in chat.requests[0][1]["content"]
    # the summary text is the cited findings: the uncited "secret master" sentence is gone
    assert summary.summary == "Elda Fenwick leads the Greycloak Wardens."


def test_unusable_llm_reply_falls_back_to_extractive() -> None:
    extractive = _summary(False)
    assert extractive is not None
    summary = llm_summary(extractive, _scripted(["not json"]), SETTINGS)
    assert summary.model_copy(update={"note": ""}) == extractive
    assert "schema" in summary.note and "retried" in summary.note


def test_model_error_falls_back_to_extractive_with_a_note() -> None:
    extractive = _summary(False)
    assert extractive is not None
    summary, failed = guarded_summary(extractive, _scripted([FAIL]), SETTINGS)
    assert failed and summary.method == "extractive" and summary.findings == extractive.findings
    assert summary.note.startswith("model error")


def _hit() -> SummaryHit:
    summary = _summary(True)
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
        "claims": [
            {
                "text": "Elda leads the wardens.",
                "community_ids": ["c-0-1", "c-9-9"],
                "entity_ids": ["elda-fenwick"],
            },
            {"text": "The wardens serve a hidden lord.", "community_ids": ["c-9-9"]},
        ],
    }
    chat = _scripted([json.dumps(mapped), json.dumps(reduced)])
    answer = map_reduce_answer("who holds power?", "t", True, [_hit()], chat, SETTINGS)
    assert answer.method == "map-reduce:fake-llm" and not answer.note
    assert answer.answer == "Elda leads the wardens."  # the cited claims, joined
    assert answer.claims[0].community_ids == ("c-0-1",)
    assert answer.claims[0].entity_ids == ("elda-fenwick",)


CHANGES = [
    Change(
        id="s7-r1-1",
        session_id=7,
        seq=1,
        kind="relationship",
        entity_id="elda-fenwick",
        target_id="greycloak-wardens",
        relation_type="leads",
        field="attitude",
        old_value="allied",
        new_value="hostile",
    ),
    Change(
        id="s7-r1-2",
        session_id=7,
        seq=2,
        kind="relationship",
        entity_id="party",
        target_id="elda-fenwick",
        field="attitude",
        new_value="hostile",
    ),
    Change(
        id="s8-r1-1",
        session_id=8,
        seq=1,
        kind="relationship",
        entity_id="ashen-choir",
        target_id="elda-fenwick",
        field="attitude",
        new_value="allied",
        visibility="gm",
    ),
]


def test_summaries_state_the_effective_attitudes_citing_the_change() -> None:
    summary = _summary(False, changes=CHANGES)
    assert summary is not None
    elda = next(f for f in summary.findings if f.entity_ids == ("elda-fenwick",))
    assert "hostile toward the party" in elda.text and elda.change_ids == ("s7-r1-2",)
    leads = next(f for f in summary.findings if "|leads|" in "".join(f.relation_ids))
    assert "(hostile since session 7)" in leads.text and leads.change_ids == ("s7-r1-1",)
    # a GM-only change between members with no relation to carry it: its own finding
    bare = next(f for f in summary.findings if f.change_ids == ("s8-r1-1",))
    assert bare.text == "Ashen Choir is allied toward Elda Fenwick since session 8."
    assert summary.fingerprint != _summary(False).fingerprint  # type: ignore[union-attr]


def test_party_summary_cites_only_party_changes() -> None:
    summary = _summary(True, changes=CHANGES)
    assert summary is not None
    cited = {c for f in summary.findings for c in f.change_ids}
    assert cited == {"s7-r1-1", "s7-r1-2"}
    assert "ashen" not in summary.model_dump_json().lower()


def test_no_model_answer_deduplicates_and_keeps_relation_findings() -> None:
    hit = _hit()
    child = hit.model_copy(update={"community_id": "c-1-1", "level": 1})
    answer = summaries_answer("who holds power?", "t", True, [hit, child])
    texts = [c.text for c in answer.claims]
    assert len(texts) == len(set(texts))  # the child's identical findings are not repeated
    assert any(c.relation_ids for c in answer.claims)


def test_map_error_skips_that_summary_and_reduce_error_falls_back() -> None:
    mapped = {"points": [{"text": "Elda leads the wardens.", "entity_ids": ["elda-fenwick"]}]}
    other = _hit().model_copy(update={"community_id": "c-0-2"})
    chat = _scripted([json.dumps(mapped), FAIL, FAIL])
    answer = map_reduce_answer("who?", "t", True, [_hit(), other], chat, SETTINGS)
    assert answer.method == "summaries" and answer.claims
    assert "1 of 2 map calls failed" in answer.note and "reduce call failed" in answer.note


def test_reduce_claims_without_a_known_community_leave_the_summaries_answer() -> None:
    mapped = {"points": [{"text": "Elda leads.", "entity_ids": ["elda-fenwick"]}]}
    reduced = {"claims": [{"text": "Invented.", "community_ids": ["c-9-9"], "entity_ids": []}]}
    chat = _scripted([json.dumps(mapped), json.dumps(reduced)])
    answer = map_reduce_answer("who?", "t", True, [_hit()], chat, SETTINGS)
    assert answer.method == "summaries" and "no reduce claim" in answer.note


def test_map_calls_run_concurrently_and_keep_rank_order() -> None:
    hits = [_hit().model_copy(update={"community_id": f"c-0-{i}"}) for i in range(1, 5)]
    mapped = {"points": [{"text": "Elda leads.", "entity_ids": ["elda-fenwick"]}]}
    reduced = {
        "claims": [{"text": "Elda leads.", "community_ids": ["c-0-4", "c-0-1"], "entity_ids": []}]
    }
    chat = _scripted([json.dumps(mapped)] * 4 + [json.dumps(reduced)])
    answer = map_reduce_answer("who?", "t", True, hits, chat, SETTINGS, concurrency=4)
    assert answer.claims[0].community_ids == ("c-0-4", "c-0-1")
    points = json.loads(chat.requests[-1][1]["content"].split("Points: ", 1)[1])
    assert [p["community_ids"] for p in points] == [["c-0-1"], ["c-0-2"], ["c-0-3"], ["c-0-4"]]


def test_fingerprint_is_the_hash_of_the_facts_as_one_json_document() -> None:
    """Stored summaries are kept by fingerprint: it must not drift from this formula."""
    view = _view(False, CHANGES)
    summary = _summary(False, changes=CHANGES)
    assert summary is not None
    facts = Facts.of(view)
    members = sorted(COMMUNITY.members)
    entities = [
        [
            view.entities[m].model_dump(mode="json"),
            view.states[m].model_dump(mode="json") if m in view.states else None,
        ]
        for m in members
    ]
    relations = [r.model_dump(mode="json") for r in facts.relations_within(members)]
    changes = [c.model_dump(mode="json") for c in facts.changes_within(members)]
    blob = json.dumps([entities, relations, changes], sort_keys=True)
    assert summary.fingerprint == hashlib.sha256(blob.encode()).hexdigest()[:16]
    assert changes and any(e[1] is not None for e in entities)
