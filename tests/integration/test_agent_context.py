"""Preview → expand → context on the example campaign, through the real store, the real
embedding model and the real o200k token counter."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_core.errors import ConfigError, RequestError
from graphrag_core.models import ChatReply
from graphrag_core.ports import Embedder
from graphrag_core.providers.bpe_tokens import BpeTokenCounter
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files
from graphrag_core.wiring import open_service
from tests.fakes import FakeClock, ScriptedChatModel

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CAMPAIGN = "emberfall"
COUNTER = BpeTokenCounter()


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder, example_dir: Path
) -> Iterator[LoregraphService]:
    world = tmp_path_factory.mktemp("example") / "emberfall"
    shutil.copytree(example_dir, world)
    with open_service(
        Settings(data_dir=tmp_path_factory.mktemp("data")), embedder=real_embedder
    ) as svc:
        svc.ingest(world / "world", CAMPAIGN)
        for file in changelog_files(world):
            svc.post_changelog(file, CAMPAIGN)
        svc.build(CAMPAIGN)
        yield svc


def test_a_preview_of_20_items_costs_at_most_4000_tokens(service: LoregraphService) -> None:
    preview = service.preview("Who are the powers around Harrowgate?", CAMPAIGN, k=20)
    assert len(preview.items) == 20
    assert {i.kind for i in preview.items} == {"entity", "community", "passage"}
    assert preview.tokens == COUNTER.count(preview.markdown) <= 4000
    assert COUNTER.count(preview.model_dump_json()) <= 8000


def test_each_preview_item_costs_exactly_its_expansion(service: LoregraphService) -> None:
    preview = service.preview("Is Torven alive?", CAMPAIGN, k=8)
    for item in preview.items:
        expanded = service.expand([item.handle], CAMPAIGN, budget=100_000)
        assert not expanded.omitted
        assert expanded.tokens == item.expand_tokens == COUNTER.count(expanded.markdown)


def test_torven_shows_dead_with_the_change_and_its_details(service: LoregraphService) -> None:
    preview = service.preview("Is Torven alive?", CAMPAIGN, k=5)
    torven = next(i for i in preview.items if i.handle == "e:torven-blackwater")
    assert torven.status == "dead" and not torven.available
    assert torven.status_change is not None and torven.status_change.startswith("ch:s4-")
    assert "killed_by: Cinder Knives" in torven.status_note
    expanded = service.expand(["e:torven-blackwater"], CAMPAIGN, budget=2000)
    assert "killed_by: Cinder Knives" in expanded.markdown
    assert all(line.cites for item in expanded.items for line in item.lines)


def test_as_of_before_the_death_shows_torven_alive(service: LoregraphService) -> None:
    item = service.expand(["e:torven-blackwater"], CAMPAIGN, budget=2000, as_of_session=3).items[0]
    assert not item.header.startswith("dead")
    assert not any(line.section == "change" and "dead" in line.text for line in item.lines)


@pytest.mark.parametrize("budget", [0, 5, 40, 120, 400, 1500])
def test_expand_never_exceeds_its_budget_and_says_what_it_left_out(
    service: LoregraphService, budget: int
) -> None:
    handles = [i.handle for i in service.preview("Harrowgate", CAMPAIGN, k=6).items]
    result = service.expand(handles, CAMPAIGN, budget=budget)
    assert result.tokens == COUNTER.count(result.markdown) <= budget
    full = service.expand(handles, CAMPAIGN, budget=100_000)
    assert result.omitted if full.tokens > budget else not result.omitted


def test_an_unknown_handle_is_named_in_the_error(service: LoregraphService) -> None:
    with pytest.raises(RequestError, match="e:nobody-at-all"):
        service.expand(["e:torven-blackwater", "e:nobody-at-all"], CAMPAIGN, budget=500)
    with pytest.raises(RequestError, match="'torven' is not a handle"):
        service.expand(["torven"], CAMPAIGN, budget=500)


def test_a_gm_only_entity_is_unknown_to_players(service: LoregraphService) -> None:
    gm = service.campaign_view(CAMPAIGN, as_player=False, as_of_session=None)
    secret = next(e.id for e in gm.entities.values() if e.visibility == "gm")
    assert service.expand([f"e:{secret}"], CAMPAIGN, budget=500).items
    with pytest.raises(RequestError, match="for players"):
        service.expand([f"e:{secret}"], CAMPAIGN, budget=500, as_player=True)


def test_context_fits_its_budget_and_cites_every_claim(service: LoregraphService) -> None:
    block = service.context("Where can the party rest in Harrowgate?", CAMPAIGN, budget=1500)
    assert block.tokens == COUNTER.count(block.markdown) <= 1500
    assert block.expansions and block.preview
    assert all(line.cites for item in block.expansions for line in item.lines)
    json.loads(block.model_dump_json())  # the JSON form round-trips


def test_players_context_names_no_gm_only_entity(service: LoregraphService) -> None:
    gm = service.campaign_view(CAMPAIGN, as_player=False, as_of_session=None)
    secrets = [e for e in gm.entities.values() if e.visibility == "gm"]
    for question in ("Who killed Brother Anselm?", "Ember Crown", "Ashfall Keep"):
        block = service.context(question, CAMPAIGN, budget=6000, as_player=True)
        text = block.model_dump_json().lower()
        for entity in secrets:
            assert f"e:{entity.id}" not in text and entity.name.lower() not in text


def test_who_killed_torven_finds_the_killer_through_the_change(service: LoregraphService) -> None:
    result = service.ask("Who killed Torven Blackwater?", CAMPAIGN, k=5)
    top = [r.id for r in result.results[:3]]
    assert "cinder-knives" in top
    killer = next(r for r in result.results if r.id == "cinder-knives")
    assert any(c.kind == "change" and c.id.startswith("s4-") for c in killer.citations)


def test_summaries_are_patched_back_to_the_session_asked(service: LoregraphService) -> None:
    now = service.communities(CAMPAIGN)
    then = service.communities(CAMPAIGN, as_of_session=3)
    now_text = " ".join(f.text for c in now for f in c.findings)
    then_text = " ".join(f.text for c in then for f in c.findings)
    assert "Torven Blackwater (alive as of session 3)" in then_text
    assert "as of session" not in now_text  # the build saw every session: nothing is stale
    answer = service.ask_global("What happened to Torven Blackwater?", CAMPAIGN, as_of_session=3)
    assert any("(alive as of session 3)" in hit.summary for hit in answer.summaries)


REPLY = (
    "Torven Blackwater is dead [e:torven-blackwater, ch:s4-r1-1]. "
    "The Cinder Knives cut his throat behind the counting house [ch:s4-r1-1]. "
    "He owned a flying castle. He was secretly a dragon [e:no-such-thing]."
)


def test_a_cited_answer_keeps_only_cited_sentences_and_streams(
    service: LoregraphService,
) -> None:
    chat = ScriptedChatModel([ChatReply(text=REPLY)])
    answering = LoregraphService(
        store=service.store,
        embedder=service.embedder,
        clock=FakeClock(),
        data_dir=service.data_dir,
        chat=chat,
        token_counter=COUNTER,
    )  # fmt: skip  (shares the fixture's store, so it is not closed here)
    events = list(answering.answer_events("Is Torven alive?", CAMPAIGN, budget=3000))
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["search", "context", "generation"] and kinds[-1] == "complete"
    answer = events[-1].answer
    assert answer is not None and answer.model == "scripted"
    assert [s.cites for s in answer.sentences] == [
        ("e:torven-blackwater", "ch:s4-r1-1"),
        ("ch:s4-r1-1",),
    ]
    assert answer.dropped == (
        "He owned a flying castle.",
        "He was secretly a dragon [e:no-such-thing].",
    )
    assert "".join(e.text for e in events if e.kind == "token").strip() == answer.answer
    assert answer.context.tokens <= 3000
    assert answer.context.markdown in chat.requests[0][1]["content"]


def test_without_a_model_there_is_no_answer_but_the_ranked_list(
    service: LoregraphService,
) -> None:
    assert not service.can_answer
    with pytest.raises(ConfigError, match="no chat model is configured"):
        service.answer("Is Torven alive?", CAMPAIGN)
    assert service.ask("Is Torven alive?", CAMPAIGN).results


def test_as_of_never_retrieves_a_later_session_record(service: LoregraphService) -> None:
    later = {
        c.id
        for c in service.campaign_view(
            CAMPAIGN, as_player=False, as_of_session=None
        ).chunks.values()
        if c.session is not None and c.session > 3
    }
    assert later  # the example's recaps are stamped with their sessions
    for question in ("What happened to the Ember Crown?", "Who killed Torven Blackwater?"):
        result = service.ask(question, CAMPAIGN, k=50, as_of_session=3)
        assert not later & {r.id for r in result.results}
        shown = service.preview(question, CAMPAIGN, k=20, as_of_session=3)
        assert not {f"p:{c}" for c in later} & {i.handle for i in shown.items}
