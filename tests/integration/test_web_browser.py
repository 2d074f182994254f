"""The game master's web page in a real browser: Debian's headless Chromium driven by
Playwright's Python API, against uvicorn serving the page over a real embedded store holding
the Emberfall example. Clicks through ask → entity → timeline → changelog review → post,
checks the player toggle shows no secret, and saves the screenshots the README shows
(docs/screenshots/)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from graphrag_core.config import LlmSettings
from graphrag_core.models import ChatReply
from graphrag_core.ports import Embedder
from graphrag_core.services.extraction import LlmSetup
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files
from graphrag_core.surfaces.web.routes import web_router
from graphrag_core.wiring import open_service
from tests.conftest import EXAMPLE
from tests.fakes import ScriptedChatModel
from tests.integration.live_server import LiveServer

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CHROMIUM = os.environ.get("LOREGRAPH_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
SHOTS = Path(os.environ.get("LOREGRAPH_SCREENSHOTS", tempfile.gettempdir() + "/loregraph-shots"))
"""Where the screenshots go; `LOREGRAPH_SCREENSHOTS=docs/screenshots` refreshes the README's."""
CAMPAIGN = "emberfall"
SECRETS = (
    "squeezing Marta",  # the Red Oak's GM notes
    "every bribe",  # Torven's GM notes
    "listening post",  # an inn's GM notes
    "Murdered by the Choir",  # a GM-only change of session 5
    "pilgrimage letter is forged",
)
BURNT = "The dragon burned the Gilded Lantern to the ground."
RECAP_9 = f"{BURNT} Nobody was hurt."
DRAFT_9 = json.dumps(
    {"changes": [{"kind": "destruction", "entity": "Gilded Lantern", "quote": BURNT}]}
)
SESSION_8 = """\
session_id: 8
title: Smoke over the Weary Wagon
entity_updates:
  - entity_id: The Weary Wagon
    status: damaged
    note: A kitchen fire gutted the common room.
"""

if not shutil.which(CHROMIUM):
    pytest.skip(
        f"no Chromium at {CHROMIUM}: run `make browser-deps` (apt-get install chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (dev extra)")


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder
) -> Iterator[LoregraphService]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("web") / "data")
    with open_service(settings, embedder=real_embedder) as svc:
        svc.ingest(EXAMPLE / "world", CAMPAIGN)
        svc.build(CAMPAIGN)
        for path in changelog_files(EXAMPLE):
            svc.post_changelog(path, CAMPAIGN)
        yield svc


@pytest.fixture(scope="module")
def url(service: LoregraphService) -> Iterator[str]:
    app = FastAPI()
    app.include_router(web_router(service, campaign=CAMPAIGN))
    with LiveServer(app) as server:
        yield server.url


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: sync_api.Browser, url: str) -> Iterator[sync_api.Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]", state="attached")
    yield page
    context.close()
    assert not errors, errors  # no script error on any step


def _ask(page: sync_api.Page, question: str) -> None:
    page.fill("#question", question)
    page.click("#ask-form button")
    page.wait_for_selector("#results .result")


def _shot(page: sync_api.Page, name: str, *, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def test_ask_shows_marks_the_change_behind_a_status_and_opens_a_cited_passage(
    page: sync_api.Page,
) -> None:
    _ask(page, "Can we still drink at the Red Oak Tavern?")
    red_oak = page.locator(".result[data-id=tavern-redoak]")
    assert red_oak.locator(".mark").inner_text() == "✗"  # destroyed in session 3
    assert "destroyed in session 3" in red_oak.locator(".why").inner_text()
    assert "✓ available now" in page.inner_text(".legend")
    _ask(page, "Where can the party rest?")
    assert page.locator(".result .mark.ok").count() > 0
    _shot(page, "ask")
    cited = page.locator(".result .cite:not(.static)").first
    cited.click()
    page.wait_for_selector("dialog#passage[open]")
    assert len(page.inner_text("#passage-text")) > 40
    assert cited.inner_text() in page.inner_text("#passage-title")


def test_an_entity_page_has_its_timeline_relations_sources_and_graph(
    page: sync_api.Page,
) -> None:
    _ask(page, "Who is Elda Fenwick?")
    page.click(".result[data-id=elda-fenwick] .entity-link")
    page.wait_for_selector("#entity h2")
    assert "Elda Fenwick" in page.inner_text("#entity h2")
    timeline = page.locator(".timeline > li")
    sessions = [int(s) for s in timeline.evaluate_all("items => items.map(i => i.dataset.session)")]
    assert sessions == sorted(sessions) and {2, 6} <= set(sessions)  # missing, then found
    session_2 = page.locator(".timeline > li[data-session='2']")
    assert "status → missing" in session_2.inner_text()
    assert page.locator(".relations li").count() > 0
    assert "vault/Elda Fenwick.md" in page.inner_text(".sources")
    page.wait_for_selector("#entity-graph canvas")
    _shot(page, "entity")
    page.locator(".relations a", has_text="Greycloak Camp").first.click()
    page.wait_for_function("document.querySelector('#entity h2').innerText.includes('Greycloak')")
    page.click("nav button[data-tab=graph]")
    page.wait_for_selector("#graph canvas")
    assert "communities" in page.inner_text("#graph-caption")
    _shot(page, "graph", full=False)


def test_a_drafted_recap_is_reviewed_then_posted(
    page: sync_api.Page, service: LoregraphService
) -> None:
    page.click("nav button[data-tab=changelog]")
    page.wait_for_selector(".changeset[data-session='7']")
    assert page.locator("#post-button").is_disabled()  # nothing checked yet
    page.fill("#draft", SESSION_8.replace("status: damaged", "stauts: damaged"))
    page.click("#check-button")
    page.wait_for_selector("#banner:not([hidden])")
    assert "stauts" in page.inner_text("#banner")  # the typo is named, nothing posted
    page.fill("#draft", SESSION_8)  # the game master's edit
    page.click("#check-button")
    page.wait_for_selector("#checked table")
    assert "The Weary Wagon" in page.inner_text("#checked")
    page.click("#post-button")
    page.wait_for_selector(".changeset[data-session='8']")
    assert "Posted session 8" in page.inner_text("#posted")
    _shot(page, "changelog")
    assert service.entity("The Weary Wagon", CAMPAIGN).status == "damaged"
    page.click("#check-button")
    page.wait_for_selector("#post-button:not([disabled])")
    page.click("#post-button")  # posting the same session again changes nothing
    page.wait_for_function("document.querySelector('#posted').innerText.includes('already')")


def test_a_recap_drafted_by_the_model_fills_the_review(
    page: sync_api.Page, service: LoregraphService
) -> None:
    chat = ScriptedChatModel([ChatReply(text=DRAFT_9, finish_reason="stop")])
    service.llm = LlmSetup(chat, LlmSettings(model="scripted"))  # a fake for the chat model only
    try:
        page.click("nav button[data-tab=changelog]")
        page.click("#review summary")
        page.fill("#draft-session", "9")
        page.fill("#transcript", RECAP_9)
        page.click("#draft-button")
        page.wait_for_function("document.querySelector('#draft').value.includes('session_id: 9')")
    finally:
        service.llm = None
    assert RECAP_9 in chat.requests[0][-1]["content"]
    draft = page.input_value("#draft")
    assert "status: destroyed" in draft and "Gilded Lantern" in draft
    page.click("#check-button")
    page.wait_for_selector("#checked table")
    assert "Session 9: 1 change(s)" in page.inner_text("#checked")


def test_the_player_toggle_shows_what_players_see_and_no_secret(page: sync_api.Page) -> None:
    page.click("nav button[data-tab=entity]")
    page.fill("#entity-name", "Red Oak Tavern")
    page.click("#entity-form button")
    page.wait_for_selector("#entity h2")
    assert "squeezing Marta" in page.inner_text("#entity")  # the GM sees the notes
    page.click("#view-player")
    page.wait_for_function("!document.querySelector('#entity').innerText.includes('GM notes')")
    seen = [page.inner_text("body")]
    for name in ("Brother Anselm", "Torven Blackwater", "Baron Aldric Marrow"):
        page.fill("#entity-name", name)
        page.click("#entity-form button")
        page.wait_for_function(f"document.querySelector('#entity h2').innerText.includes({name!r})")
        seen.append(page.inner_text("body"))
    assert "Status: alive" in seen[1]  # Brother Anselm's death is GM-only
    page.click("nav button[data-tab=ask]")
    for question in ("Who murdered Brother Anselm?", "What does Torven hide?", "Who spies?"):
        _ask(page, question)
        seen.append(page.inner_text("body"))
    _shot(page, "player")
    page.click("nav button[data-tab=changelog]")
    page.wait_for_selector(".changeset[data-session='5']")
    assert page.locator("#review").is_hidden()  # players post nothing
    seen.append(page.inner_text("body"))
    page.click("nav button[data-tab=graph]")
    page.wait_for_selector("#graph canvas")
    text = "\n".join(seen).lower()
    assert not [s for s in SECRETS if s.lower() in text]
    page.click("#view-gm")
    page.click("nav button[data-tab=changelog]")
    page.wait_for_function(
        "document.querySelector('#changesets').innerText.includes('Murdered by the Choir')"
    )
