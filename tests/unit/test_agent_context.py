"""The pure context logic: expansions under a budget (a property test over random handles and
budgets with the real o200k counter), the cascade's order, handles, stale findings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphrag_core.analytics_models import CommunityView, Finding
from graphrag_core.errors import RequestError
from graphrag_core.models import CampaignView, Relation
from graphrag_core.providers.bpe_tokens import BpeTokenCounter
from graphrag_core.services.views import build_view
from ranking.context.budget import fit
from ranking.context.handles import parse_handle
from ranking.context.items import expansion
from ranking.context.markdown import render_expansions
from ranking.context.stale import patch_community
from tests.unit.ranking_fakes import CAMPAIGN, CHANGES, CHUNKS, ENTITIES

COUNTER = BpeTokenCounter()
RELATIONS = (
    Relation(source="torven-blackwater", target="silver-stag-inn", type="located_in"),
    Relation(source="shadow-cult", target="silver-stag-inn", type="located_in", visibility="gm"),
)
COMMUNITY = CommunityView(
    id="c-0-1",
    version=1,
    level=0,
    parent=None,
    size=3,
    title="The Silver Stag crowd",
    members=("torven-blackwater", "silver-stag-inn", "red-oak-tavern"),
    summary="",
    findings=(
        Finding(
            text="Torven Blackwater drinks at the Silver Stag Inn.",
            entity_ids=("torven-blackwater",),
        ),
        Finding(text="The Red Oak Tavern serves the docks.", entity_ids=("red-oak-tavern",)),
    ),
)


def view(as_player: bool, as_of: int | None = None) -> CampaignView:
    return build_view(
        CAMPAIGN, ENTITIES, RELATIONS, CHUNKS, CHANGES, as_player=as_player, as_of_session=as_of
    )


def handles(v: CampaignView) -> list[str]:
    return [
        *(f"e:{e}" for e in sorted(v.entities)),
        *(f"p:{c}" for c in sorted(v.chunks)),
        f"c:{COMMUNITY.id}",
    ]


@settings(max_examples=60, deadline=None)
@given(
    as_player=st.booleans(),
    picks=st.lists(st.integers(min_value=0, max_value=100), min_size=1, max_size=8),
    budget=st.integers(min_value=0, max_value=1500),
)
def test_expand_never_exceeds_the_budget(as_player: bool, picks: list[int], budget: int) -> None:
    v = view(as_player)
    pool = handles(v)
    chosen = list(dict.fromkeys(pool[p % len(pool)] for p in picks))
    items = [expansion(parse_handle(h), v, {COMMUNITY.id: COMMUNITY}) for h in chosen]
    result = fit(items, budget, COUNTER)
    assert result.tokens == COUNTER.count(result.markdown) <= budget
    full = COUNTER.count(render_expansions(items, ()))
    assert bool(result.omitted) == (full > budget)
    if as_player:
        assert "drowned" not in result.model_dump_json().lower()


def test_the_cascade_drops_excerpts_before_facts_and_items_last() -> None:
    v = view(False)
    items = [expansion(parse_handle(h), v, {}) for h in ("e:torven-blackwater", "e:red-oak-tavern")]
    full = COUNTER.count(render_expansions(items, ()))
    result = fit(items, full - 5, COUNTER)
    assert {o.section for o in result.omitted} == {"excerpt"}
    assert len(result.items) == 2
    assert "Left out to fit the budget" in result.markdown


def test_a_player_reads_no_gm_note_and_no_secret_relation() -> None:
    gm, party = view(False), view(True)
    gm_text = expansion(parse_handle("e:torven-blackwater"), gm, {}).model_dump_json()
    party_text = expansion(parse_handle("e:torven-blackwater"), party, {}).model_dump_json()
    assert "GM notes" in gm_text and "GM notes" not in party_text
    inn = parse_handle("e:silver-stag-inn")
    assert "Cult of the Drowned" in expansion(inn, gm, {}).model_dump_json()
    assert "Cult of the Drowned" not in expansion(inn, party, {}).model_dump_json()
    with pytest.raises(RequestError, match="'e:shadow-cult' in campaign 'saltmarsh' for players"):
        expansion(parse_handle("e:shadow-cult"), party, {})


def test_as_of_shows_the_state_of_that_session() -> None:
    before = expansion(parse_handle("e:torven-blackwater"), view(False, as_of=4), {})
    after = expansion(parse_handle("e:torven-blackwater"), view(False), {})
    assert before.header.startswith("alive") and after.header.startswith("dead")


@pytest.mark.parametrize("text", ["torven", "x:torven", "e:", ""])
def test_a_malformed_handle_is_named(text: str) -> None:
    with pytest.raises(RequestError, match="is not a handle"):
        parse_handle(text)


def test_stale_findings_are_patched_from_the_overlay_and_cite_the_change() -> None:
    written = view(False, as_of=2).states  # the summary was written before sessions 3 and 5
    patched = patch_community(COMMUNITY, view(False), written)
    torven, tavern = patched.findings
    assert torven.text.startswith("Torven Blackwater (dead since session 5) drinks")
    assert torven.change_ids == ("s5-r1-1",)
    assert tavern.text.startswith("The Red Oak Tavern (destroyed since session 3) serves")
    assert patched.summary == f"{torven.text} {tavern.text}"
    assert patch_community(COMMUNITY, view(False), view(False).states) == COMMUNITY


def test_as_of_before_the_summary_patches_it_back() -> None:
    written = view(False).states  # written after session 5; asked as of session 2
    torven = patch_community(COMMUNITY, view(False, as_of=2), written).findings[0]
    assert "Torven Blackwater (alive as of session 2)" in torven.text
