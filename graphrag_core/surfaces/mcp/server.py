"""The MCP server for agents: ``preview``, ``expand``, ``context``, ``entity``, ``ask`` and
(recap role) ``post_changeset`` and ``withdraw_changeset``, each a thin call into the
application service.

The campaign and the role come from :class:`Access` (the ``loregraph mcp`` flags, or the
bearer key over HTTP), never from a tool's arguments: a server is built for one access and
lists only the tools its role may call; a player's reads the player view only, a recap job's
posts change sets and reads nothing. Over HTTP, :func:`mcp_http_app` authenticates each
request's bearer key and answers it with the server built for that key (stateless, JSON
responses)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from graphrag_core.errors import ChangelogConflictError, LoregraphError
from graphrag_core.models import AskResult, EntityView
from graphrag_core.services.service import LoregraphService
from graphrag_core.services.withdrawal import WithdrawResult
from graphrag_core.surfaces.mcp.access import Access
from graphrag_core.surfaces.mcp.keys import KeyChecker, key_access, presented_key
from ranking.context.models import ContextBlock, ExpandResult, Preview

T = TypeVar("T")

MAX_CHANGESET_BYTES = 1_000_000

AsOf = Annotated[
    int | None,
    Field(ge=0, description="The world as of this session (later changes are ignored)."),
]
Question = Annotated[str, Field(min_length=1, max_length=2000, description="Plain words.")]
K = Annotated[int, Field(ge=1, le=100, description="How many items.")]
Budget = Annotated[int, Field(ge=1, le=100_000, description="Token budget, never exceeded.")]


class PostSummary(BaseModel):
    """What posting a change set did."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    campaign: str
    session_id: int
    revision: int
    action: str = Field(description="new, amend or duplicate (nothing changed).")
    changes: int
    impact: float
    cumulative_impact: float
    rebuild: str = Field(description="none, scheduled or forced.")
    rebuilt: bool = Field(description="True when the analytics were rebuilt after posting.")


class EntityOut(EntityView):
    """:class:`EntityView` whose output schema admits the computed fields it also returns
    (``first_session``, ``last_session``): the client checks results against the schema, and
    a validation-mode schema of a closed model leaves them out."""

    model_config = ConfigDict(**{**EntityView.model_config, "extra": "allow"})


def build_mcp_server(service: LoregraphService, access: Access) -> MCPServer:
    """An MCP server whose tools read (and, for the recap role, post to) ``access.campaign``
    as ``access.role`` may."""
    server = MCPServer(
        "loregraph",
        instructions=(
            f"Campaign {access.campaign!r}, {'player' if access.as_player else 'GM'} view. "
            "Call preview first (cheap: handles with their token cost), then expand the "
            "handles you need under a budget, or context for both in one block."
        ),
        log_level="WARNING",
    )
    call = _tool_errors
    campaign, as_player = access.campaign, access.as_player

    def preview(question: Question, k: K = 20, as_of: AsOf = None) -> Preview:
        """Ranked items for a question (entities, communities, passages): handle, type, name,
        effective status and the change that set it, a one-line gist, key relations and the
        exact token cost of expanding each."""
        return call(
            lambda: service.preview(
                question, campaign, k=k, as_player=as_player, as_of_session=as_of
            )
        )

    def expand(
        handles: Annotated[list[str], Field(min_length=1, max_length=50)],
        budget: Budget = 2000,
        as_of: AsOf = None,
    ) -> ExpandResult:
        """Everything about preview handles (summary, facts with citations, recent changes,
        source excerpts), trimmed to the budget; what was left out is named in omitted."""
        return call(
            lambda: service.expand(
                handles, campaign, budget=budget, as_player=as_player, as_of_session=as_of
            )
        )

    def context(
        question: Question, budget: Budget = 6000, k: K = 20, as_of: AsOf = None
    ) -> ContextBlock:
        """Preview plus the best expansions that fit the budget, as one Markdown block,
        every claim cited."""
        return call(
            lambda: service.context(
                question, campaign, budget=budget, k=k, as_player=as_player, as_of_session=as_of
            )
        )

    def entity(
        name: Annotated[str, Field(min_length=1, max_length=200, description="Name or id.")],
        as_of: AsOf = None,
    ) -> EntityOut:
        """One entity: effective status and the change that set it, relations, changes,
        sources, the sessions whose records mention it."""
        found = call(
            lambda: service.entity(name, campaign, as_player=as_player, as_of_session=as_of)
        )
        return EntityOut.model_validate(dict(found))

    def ask(
        question: Question, k: K = 10, as_of: AsOf = None, historical: bool | None = None
    ) -> AskResult:
        """Ranked entities and passages with effective status, score breakdown and
        citations."""
        return call(
            lambda: service.ask(
                question,
                campaign,
                as_player=as_player,
                k=k,
                as_of_session=as_of,
                historical=historical,
            )
        )

    if access.reads:
        for tool in (preview, expand, context, entity, ask):
            server.add_tool(tool)
    if access.may_post:

        def post_changeset(
            changeset: Annotated[
                str,
                Field(
                    min_length=1,
                    max_length=MAX_CHANGESET_BYTES,
                    description="The session's change set, YAML or JSON (session_id, title, "
                    "entity_updates, relationship_updates).",
                ),
            ],
            amend: bool = False,
        ) -> PostSummary:
            """Post a session's change set: validated, stored once (posting the same session
            again changes nothing; a different one needs amend), applied at once."""
            return call(lambda: _post(service, campaign, changeset, amend))

        def withdraw_changeset(
            session_id: Annotated[int, Field(ge=0, description="The posted session.")],
            revision: Annotated[
                int | None,
                Field(ge=1, description="The revision to withdraw; default: the latest live one."),
            ] = None,
            at_session: Annotated[
                int | None,
                Field(
                    ge=0,
                    description="The session from which the withdrawal holds (views as of an "
                    "earlier session still show it); default: the latest posted session.",
                ),
            ] = None,
            note: Annotated[str, Field(max_length=2000, description="Why.")] = "",
        ) -> WithdrawResult:
            """Take back a posted revision of a session's change set (append-only: the
            withdrawal is itself a recorded revision; an amended session falls back to its
            earlier revision). Refused, writing nothing, for a session never posted or a
            revision already withdrawn."""
            return call(
                lambda: (
                    service.withdraw(
                        campaign,
                        session_id,
                        revision=revision,
                        at_session=at_session,
                        note=note,
                        by="mcp recap",
                    ).withdrawal
                )
            )

        server.add_tool(post_changeset)
        server.add_tool(withdraw_changeset)
    return server


def _tool_errors(fn: Callable[[], T]) -> T:
    """Run a service call (the SDK runs sync tools in worker threads; the service is safe to
    share between threads), turning loregraph's errors into tool errors the model reads."""
    try:
        return fn()
    except LoregraphError as exc:
        raise ToolError(str(exc)) from exc


def _post(service: LoregraphService, campaign: str, text: str, amend: bool) -> PostSummary:
    try:
        outcome = service.post_and_rebuild(text, campaign, source_name="mcp", amend=amend)
    except ChangelogConflictError as exc:  # only recap keys post here: no GM-only update
        if exc.difference is None:
            raise
        raise ChangelogConflictError(exc.difference.for_gm(False).message()) from exc
    post = outcome.post
    return PostSummary(
        campaign=post.campaign,
        session_id=post.session_id,
        revision=post.revision,
        action=post.action,
        changes=len(post.changes),
        impact=post.impact,
        cumulative_impact=post.cumulative_impact,
        rebuild=post.rebuild,
        rebuilt=outcome.build is not None,
    )


KeyLookup = Callable[[str], Access | None]
"""A bearer key → its access, or None for an unknown key."""


def key_lookup(keys: KeyChecker, default_campaign: str) -> KeyLookup:
    """:func:`key_access` over ``keys``, for :func:`mcp_http_app`."""
    return lambda presented: key_access(keys, presented, default_campaign)


def mcp_http_app(
    service: LoregraphService, lookup: KeyLookup, *, host: str = "127.0.0.1"
) -> ASGIApp:
    """An ASGI app serving MCP over streamable HTTP (stateless, JSON responses), to mount
    e.g. at ``/mcp``: each request's ``Authorization: Bearer KEY`` picks the campaign and
    role; no key or an unknown one is a 401. ``host``: the address served; on loopback the
    SDK's DNS-rebinding protection admits loopback Host headers only."""
    servers: dict[Access, MCPServer] = {}

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        headers = Request(scope).headers
        access = lookup(
            presented_key(headers.get("authorization", ""), headers.get("x-api-key", ""))
        )
        if access is None:
            response = JSONResponse(
                {
                    "title": "Unauthorized",
                    "status": 401,
                    "detail": "an API key is needed: send Authorization: Bearer KEY",
                },
                status_code=401,
                headers={"WWW-Authenticate": "Bearer"},
                media_type="application/problem+json",
            )
            await response(scope, receive, send)
            return
        if access not in servers:
            servers[access] = build_mcp_server(service, access)
        server = servers[access]
        # a fresh stateless session manager per request: nothing to start in a lifespan
        # (mounted apps get none), nothing kept between requests
        server.streamable_http_app(json_response=True, stateless_http=True, host=host)
        manager = server.session_manager
        async with manager.run():
            await manager.handle_request(scope, receive, send)

    return app
