"""The MCP server, driven by the SDK's own client: ``loregraph mcp`` as a stdio subprocess
per role, and the streamable-HTTP app behind bearer keys, over a real embedded store."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import httpx2
import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from graphrag_core.ports import Embedder
from graphrag_core.settings import Settings
from graphrag_core.surfaces.web.mounted import page_and_mcp
from graphrag_core.wiring import open_service
from tests.conftest import ROOT
from tests.integration.cli_world import run
from tests.integration.live_server import LiveServer
from tests.integration.surface_world import CAMPAIGN, SECRETS, SESSION_3, make_campaign

pytestmark = [pytest.mark.integration, pytest.mark.slow]

READ_TOOLS = ["preview", "expand", "context", "entity", "ask"]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return make_campaign(tmp_path_factory.mktemp("mcp"))


def _stdio(env: dict[str, str], role: str) -> StdioServerParameters:
    child = {**os.environ, **env, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    args = ["-m", "graphrag_core.surfaces.cli", "mcp", "--campaign", CAMPAIGN, "--role", role]
    return StdioServerParameters(command=sys.executable, args=args, env=child, cwd=str(ROOT))


def _session(server: Any, check: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        async with Client(server, read_timeout_seconds=120) as client:
            await check(client)

    asyncio.run(main())


async def _call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def _error(client: Client, tool: str, **arguments: Any) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_a_player_previews_then_expands_under_a_budget_and_sees_no_secret(
    env: dict[str, str],
) -> None:
    async def check(client: Client) -> None:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == READ_TOOLS  # no post_changeset for a player
        for tool in tools:  # the campaign and role are never the model's to choose
            assert not {"campaign", "role", "as_player"} & set(tool.input_schema["properties"])
        seen = await _call(client, "preview", question="Where can travellers rest?", k=5)
        assert seen["campaign"] == CAMPAIGN and seen["as_player"] is True
        items = {i["handle"]: i for i in seen["items"]}
        assert "e:tavern-redoak" in items
        assert items["e:tavern-redoak"]["available"] is False  # destroyed in session 1
        assert all(i["expand_tokens"] > 0 for i in items.values())
        full = await _call(client, "expand", handles=list(items), budget=10_000)
        assert [e["handle"] for e in full["items"]] == list(items)
        assert not full["omitted"]
        small = await _call(client, "expand", handles=list(items), budget=60)
        assert 0 < small["tokens"] <= 60 and small["omitted"]
        block = await _call(client, "context", question="Who is Torven?", budget=1500)
        assert block["tokens"] <= 1500 and "e:torven-blackwater" in block["markdown"]
        torven = await _call(client, "entity", name="Torven")
        assert torven["status"] == "alive"  # his death is GM-only
        asked = await _call(client, "ask", question="What does Torven trade in secret?", k=20)
        said = json.dumps([seen, full, block, torven, asked])
        assert not [s for s in SECRETS if s.lower() in said.lower()]
        # a campaign in the arguments is not the model's to choose: it is ignored
        other = await client.call_tool("preview", {"question": "rest", "campaign": "other"})
        assert other.is_error or (other.structured_content or {})["campaign"] == CAMPAIGN
        assert "nobody" in await _error(client, "expand", handles=["e:nobody"])
        assert "torven" in await _error(client, "expand", handles=["torven"])
        assert "post_changeset" in await _error(client, "post_changeset", changeset="x: 1")

    _session(_stdio(env, "player"), check)


def test_the_gm_sees_secrets_and_the_world_as_of_a_session(env: dict[str, str]) -> None:
    async def check(client: Client) -> None:
        torven = await _call(client, "entity", name="Torven")
        assert torven["status"] == "dead" and "smuggler" in torven["gm_notes"]
        before = await _call(client, "entity", name="Torven", as_of=1)
        assert before["status"] == "alive"
        seen = await _call(client, "preview", question="Torven", k=3)
        assert seen["as_player"] is False

    _session(_stdio(env, "gm"), check)


def test_a_recap_job_posts_a_change_set_once(env: dict[str, str], real_embedder: Embedder) -> None:
    async def check(client: Client) -> None:
        tools = [t.name for t in (await client.list_tools()).tools]
        assert tools == ["post_changeset", "withdraw_changeset"]
        first = await _call(client, "post_changeset", changeset=SESSION_3)
        assert (first["session_id"], first["action"], first["changes"]) == (3, "new", 1)
        again = await _call(client, "post_changeset", changeset=SESSION_3)
        assert again["action"] == "duplicate"
        typo = "session_id: 4\nentity_updates:\n  - entity_id: Torven\n    stauts: dead\n"
        bad = await _error(client, "post_changeset", changeset=typo)
        assert "stauts" in bad and "status" in bad
        assert "entity" in await _error(client, "entity", name="Torven")  # it reads nothing
        other = "session_id: 2\nentity_updates:\n  - entity_id: Torven\n    status: missing\n"
        conflict = await _error(client, "post_changeset", changeset=other)  # 2 is GM-only
        assert "already posted with different content" in conflict
        assert "1 GM-only stored update(s) differ" in conflict and "dead" not in conflict

    _session(_stdio(env, "recap"), check)
    settings = Settings(data_dir=Path(env["LOREGRAPH_DATA_DIR"]))
    with open_service(settings, embedder=real_embedder) as service:
        assert service.entity("Quiet Lantern Inn", CAMPAIGN).status == "abandoned"


def test_a_recap_job_withdraws_a_change_set_it_posted(
    tmp_path: Path, real_embedder: Embedder
) -> None:
    env = make_campaign(tmp_path)
    settings = Settings(data_dir=Path(env["LOREGRAPH_DATA_DIR"]))

    def inn_status() -> str | None:
        with open_service(settings, embedder=real_embedder) as service:
            return service.entity("Quiet Lantern Inn", CAMPAIGN).status

    async def post(client: Client) -> None:
        await _call(client, "post_changeset", changeset=SESSION_3)

    _session(_stdio(env, "recap"), post)
    assert inn_status() == "abandoned"

    async def withdraw(client: Client) -> None:
        never = await _error(client, "withdraw_changeset", session_id=9)
        assert "session 9 has no posted change set" in never
        done = await _call(client, "withdraw_changeset", session_id=3, note="misread the recap")
        assert (done["session_id"], done["withdrawn_revision"], done["revision"]) == (3, 1, 2)
        assert done["in_effect_revision"] is None
        again = await _error(client, "withdraw_changeset", session_id=3)
        assert "already withdrawn" in again

    _session(_stdio(env, "recap"), withdraw)
    assert inn_status() != "abandoned"  # the withdrawn change no longer applies


def test_a_bad_role_or_campaign_is_one_line_and_serves_nothing(env: dict[str, str]) -> None:
    code, output = run(env, "mcp", "--role", "admin")
    assert code == 1 and "unknown role 'admin': use gm, player or recap" in output
    code, output = run(env, "mcp", "--campaign", "Bad Name")
    assert code == 1 and "not a valid campaign id" in output


@dataclass(frozen=True)
class Key:
    campaign: str
    role: str


class Keys:
    """An in-memory key ring (the HTTP surface's reads the data dir's key file)."""

    configured = True
    known: ClassVar[dict[str, Key]] = {
        "gm-key": Key(CAMPAIGN, "gm"),
        "player-key": Key(CAMPAIGN, "player"),
        "recap-key": Key(CAMPAIGN, "recap"),
        "other-gm": Key("other", "gm"),
    }

    def check(self, presented: str) -> Key | None:
        return self.known.get(presented)


@pytest.fixture(scope="module")
def served(env: dict[str, str], real_embedder: Embedder) -> Iterator[str]:
    """``/mcp`` and the web page behind :class:`Keys`, as ``serve`` mounts them."""
    settings = Settings(data_dir=Path(env["LOREGRAPH_DATA_DIR"]))
    with open_service(settings, embedder=real_embedder) as service:
        app = FastAPI()
        mounted = page_and_mcp(service, Keys(), campaign=CAMPAIGN)
        for router in mounted.routers:
            app.include_router(router)
        for path, sub in mounted.mounts:
            app.mount(path, sub)
        with LiveServer(app) as server:
            yield server.url


@pytest.fixture()
def http_mcp(served: str) -> str:
    return served + "/mcp/"


def _over_http(url: str, key: str, check: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        headers = {"Authorization": f"Bearer {key}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=120) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            await check(client)

    asyncio.run(main())


def test_over_http_the_key_decides_campaign_and_role(http_mcp: str) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}):
        response = httpx2.post(http_mcp, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                              headers=headers)  # fmt: skip
        assert response.status_code == 401, response.text

    async def as_player(client: Client) -> None:
        torven = await _call(client, "entity", name="Torven")
        assert torven["status"] == "alive"
        assert not [s for s in SECRETS if s.lower() in json.dumps(torven).lower()]

    async def as_gm(client: Client) -> None:
        torven = await _call(client, "entity", name="Torven")
        assert torven["status"] == "dead" and "smuggler" in torven["gm_notes"]

    _over_http(http_mcp, "player-key", as_player)
    _over_http(http_mcp, "gm-key", as_gm)


def test_the_web_page_admits_only_its_campaigns_game_master(served: str) -> None:
    def get(path: str, key: str = "") -> httpx2.Response:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx2.get(f"{served}/web/api/{path}", headers=headers)

    entity = f"entity?name=Torven&c={CAMPAIGN}"
    assert get(entity).status_code == 401
    assert get(entity, "nope").status_code == 401
    assert get(entity, "player-key").status_code == 403
    assert get(entity, "recap-key").status_code == 403
    assert get(entity, "other-gm").status_code == 404
    assert get("campaigns", "other-gm").json() == []
    assert get("campaigns", "gm-key").json() == [CAMPAIGN]
    seen = get(entity, "gm-key")
    assert seen.status_code == 200 and "smuggler" in seen.json()["entity"]["gm_notes"]
    player = get(entity + "&player=true", "gm-key").json()
    assert not [s for s in SECRETS if s.lower() in json.dumps(player).lower()]
    assert get("entity?name=Nobody&c=cli", "gm-key").status_code == 404
    assert httpx2.get(f"{served}/web").status_code == 200  # the page itself holds no data
