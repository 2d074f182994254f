"""Questions about the world: ``ask`` (ranked entities and passages), ``ask/stream`` (the
same as server-sent events: search, context, then a cited answer with a chat model, or the
ranked list without one) and ``entities/{name}``. A player key is always answered as for
players, in every event; a recap key reads nothing here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Body, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.config import PresetName
from graphrag_core.errors import LoregraphError
from graphrag_core.models import AskResult, EntityView
from graphrag_core.surfaces.http.auth import ScopeDep, ServiceDep
from graphrag_core.surfaces.http.problems import scoped_problem
from ranking.context.models import AnswerEvent

router = APIRouter(tags=["query"])

PlayerQ = Annotated[
    bool, Query(description="Player-facing: never show GM-only content (forced for players).")
]
AsOfQ = Annotated[
    int | None,
    Query(ge=0, le=1_000_000, description="The world as of this session."),
]
PresetQ = Annotated[
    PresetName | None,
    Query(description="Weight preset, as `--preset` (default: from the question)."),
]


@router.get("/campaigns/{campaign}/ask", summary="Ranked entities and passages for a question")
def ask(
    where: ScopeDep,
    service: ServiceDep,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="The question.")],
    as_player: PlayerQ = False,
    as_of: AsOfQ = None,
    historical: Annotated[
        bool | None, Query(description="Force history mode (true) or current state (false).")
    ] = None,
    k: Annotated[int, Query(ge=1, le=100, description="How many results.")] = 10,
    preset: PresetQ = None,
) -> AskResult:
    return service.ask(
        q,
        where.campaign,
        as_player=where.audience(as_player),
        historical=historical,
        as_of_session=as_of,
        k=k,
        preset=preset,
    )


class AskStream(BaseModel):
    """A question to answer as a stream of events."""

    model_config = ConfigDict(extra="forbid")

    q: str = Field(min_length=1, max_length=2000, description="The question.")
    k: int = Field(default=10, ge=1, le=100, description="How many results.")
    budget: int = Field(default=6000, ge=100, le=200_000, description="Context token budget.")
    as_player: bool = Field(default=False, description="Player-facing (forced for players).")
    as_of: int | None = Field(default=None, ge=0, le=1_000_000, description="As of a session.")
    preset: PresetName | None = Field(default=None, description="Weight preset, as `--preset`.")


@router.post(
    "/campaigns/{campaign}/ask/stream",
    summary="Ask, as server-sent events: search, context, [generation, token…,] complete",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
def ask_stream(
    where: ScopeDep, service: ServiceDep, request: Annotated[AskStream, Body()]
) -> StreamingResponse:
    """Each event is ``event: <kind>`` and ``data: <AnswerEvent JSON>``; a failure after the
    stream began is one ``event: error`` with a problem. A bad question or an unknown campaign
    is a problem response, before any event."""
    events = service.ask_events(
        request.q,
        where.campaign,
        budget=request.budget,
        k=request.k,
        as_player=where.audience(request.as_player),
        as_of_session=request.as_of,
        preset=request.preset,
    )
    first = next(events)  # fails here, as a plain problem response, on bad input
    return StreamingResponse(_sse(first, events, where.scoped), media_type="text/event-stream")


def _sse(first: AnswerEvent, rest: Iterator[AnswerEvent], scoped: bool) -> Iterator[str]:
    yield _event(first.kind, first.model_dump_json())
    try:
        for event in rest:
            yield _event(event.kind, event.model_dump_json())
    except LoregraphError as exc:  # the chat model failed mid-answer
        yield _event("error", scoped_problem(exc, scoped).model_dump_json())


def _event(kind: str, data: str) -> str:
    return f"event: {kind}\ndata: {data}\n\n"


@router.get("/campaigns/{campaign}/entities/{name}", summary="One entity, by name, alias or id")
def entity(
    where: ScopeDep,
    service: ServiceDep,
    name: str,
    as_player: PlayerQ = False,
    as_of: AsOfQ = None,
) -> EntityView:
    return service.entity(
        name, where.campaign, as_player=where.audience(as_player), as_of_session=as_of
    )
