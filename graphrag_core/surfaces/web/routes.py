"""The game master's web page: one HTML page, a small vanilla JS file and a vendored graph
library (cytoscape, MIT), served offline, plus the few JSON reads it needs under
``/web/api``. Every read goes through the service with the audience the page asks for: the
player toggle calls the same player-safe service functions as ``--as-player``.

``web_router(service, campaign=...)`` returns the router; ``guard`` is a FastAPI dependency
the JSON endpoints run first (the HTTP surface passes one that admits game masters' keys
only)."""

from __future__ import annotations

import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, Field

from changelog.schema import parse_changeset
from graphrag_core.errors import (
    LoregraphError,
    UnknownCampaignError,
    UnknownEntityError,
)
from graphrag_core.models import CampaignView, Change, ChangeSetRecord, EntityView
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.mcp.access import Access

STATIC = Path(str(files("graphrag_core.surfaces.web") / "static"))

Player = Annotated[bool, Query(description="Answer as for players (no GM-only content).")]
AsOf = Annotated[int | None, Query(ge=0, description="The world as of this session.")]
Campaign = Annotated[str, Query(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChangesetText(_Body):
    text: str = Field(min_length=1, max_length=1_000_000, description="YAML or JSON.")
    amend: bool = False


class DraftRequest(_Body):
    session: int = Field(ge=1)
    transcript: str = Field(min_length=1, max_length=2_000_000)


def web_router(
    service: LoregraphService,
    *,
    campaign: str,
    guard: Callable[..., Access | None] | None = None,
) -> APIRouter:
    """The page at ``/`` (and ``/web``), its static files at ``/web/static``, its JSON at
    ``/web/api``; ``campaign`` is the one the page opens on. ``guard`` (see
    :func:`.guard.gm_guard`) returns the caller's access, None for the local game master."""
    gate = guard or _local_gm
    router = APIRouter(include_in_schema=False)
    api = APIRouter(prefix="/web/api", dependencies=[Depends(gate)])

    @router.get("/")
    def root() -> RedirectResponse:
        return RedirectResponse("/web")

    @router.get("/web")
    def page() -> HTMLResponse:
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        return HTMLResponse(html.replace("{{campaign}}", campaign))

    @router.get("/web/static/{name:path}")
    def static(name: str) -> FileResponse:
        path = (STATIC / name).resolve()
        if not path.is_file() or STATIC.resolve() not in path.parents:
            raise HTTPException(404, f"no static file {name!r}")
        return FileResponse(path)

    @api.get("/campaigns")
    def campaigns(who: Access | None = Depends(gate)) -> list[str]:  # noqa: B008 (the gate is local)
        with _errors():
            return [c for c in service.campaigns() if who is None or c == who.campaign]

    @api.get("/ask")
    def ask(
        q: Annotated[str, Query(min_length=1, max_length=2000)],
        c: Campaign,
        player: Player = False,
        as_of: AsOf = None,
    ) -> dict[str, Any]:
        with _errors():
            result = service.ask(q, c, as_player=player, as_of_session=as_of, k=10)
            return result.model_dump(mode="json")

    @api.get("/entity")
    def entity(
        name: Annotated[str, Query(min_length=1, max_length=200)],
        c: Campaign,
        player: Player = False,
        as_of: AsOf = None,
    ) -> dict[str, Any]:
        with _errors():
            found = service.entity(name, c, as_player=player, as_of_session=as_of)
            view = service.view(c, as_player=player, as_of_session=as_of).view
            return {
                "entity": found.model_dump(mode="json"),
                "timeline": timeline(found, view),
                "graph": neighbourhood(found, view),
            }

    @api.get("/passage")
    def passage(
        id: Annotated[str, Query(min_length=1, max_length=300)],
        c: Campaign,
        player: Player = False,
    ) -> dict[str, Any]:
        with _errors():
            chunks = service.view(c, as_player=player).view.chunks
        if id not in chunks:
            raise HTTPException(404, f"no passage {id!r} in this view")
        return chunks[id].model_dump(mode="json", include={"id", "source_path", "heading", "text"})

    @api.get("/communities")
    def communities(c: Campaign, player: Player = False) -> dict[str, Any]:
        with _errors():
            found = service.communities(c, as_player=player)
            names = service.view(c, as_player=player).view.entities
        return community_graph(found, {k: e.name for k, e in names.items()})

    @api.get("/changelog")
    def changelog(c: Campaign, player: Player = False) -> list[dict[str, Any]]:
        with _errors():
            records = service.changesets(c)
            view = service.view(c, as_player=player).view
        by_revision: dict[tuple[int, int], list[Change]] = defaultdict(list)
        for change in view.changes.values():
            by_revision[(change.session_id, change.revision)].append(change)
        names = {k: e.name for k, e in view.entities.items()}
        gone = {(r.session_id, r.withdraws): r for r in records if r.withdraws is not None}
        # players see only revisions with changes in their view: never a withdrawal (its note
        # is the GM's) nor a withdrawn revision
        return [
            {
                **r.model_dump(mode="json"),
                "withdrawn_by": _withdrawal(gone.get((r.session_id, r.revision))),
                "changes": [
                    _change(ch, names) for ch in _ordered(by_revision[(r.session_id, r.revision)])
                ],
            }
            for r in records
            if by_revision[(r.session_id, r.revision)] or not player
        ]

    @api.post("/changeset/check")
    def check(body: ChangesetText) -> dict[str, Any]:
        with _errors():
            parsed = parse_changeset(body.text, filename="draft")
        return parsed.model_dump(mode="json", exclude_none=True)

    @api.post("/changeset")
    def post(body: ChangesetText, c: Campaign) -> dict[str, Any]:
        with _errors():
            outcome = service.post_and_rebuild(body.text, c, source_name="web", amend=body.amend)
        result = outcome.post
        return {
            "session_id": result.session_id,
            "revision": result.revision,
            "action": result.action,
            "changes": len(result.changes),
            "rebuild": result.rebuild,
        }

    @api.post("/recap/draft")
    def draft(body: DraftRequest, c: Campaign) -> dict[str, Any]:
        with _errors(), tempfile.TemporaryDirectory(prefix="loregraph-web-") as folder:
            transcript, output = Path(folder) / "recap.txt", Path(folder) / "draft.yaml"
            transcript.write_text(body.transcript, encoding="utf-8")
            made = service.draft_recap(transcript, c, body.session, output)
            return {"text": output.read_text(encoding="utf-8"), "skipped": made.skipped}

    router.include_router(api)
    return router


def _local_gm() -> Access | None:
    return None


@contextmanager
def _errors() -> Iterator[None]:
    """loregraph's errors as the one-line messages the CLI prints: 404 for an unknown
    campaign or entity, 400 for anything else the caller can fix."""
    try:
        yield
    except (UnknownCampaignError, UnknownEntityError) as exc:
        raise HTTPException(404, str(exc)) from exc
    except LoregraphError as exc:
        raise HTTPException(400, str(exc)) from exc


def _withdrawal(record: ChangeSetRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return record.model_dump(mode="json", include={"revision", "at_session", "source", "note"})


def _ordered(changes: list[Change]) -> list[Change]:
    return sorted(changes, key=lambda c: (c.session_id, c.revision, c.seq))


def _change(change: Change, names: dict[str, str]) -> dict[str, Any]:
    return {
        **change.model_dump(mode="json", include={"id", "session_id", "field", "new_value"}),
        "entity": names.get(change.entity_id, change.entity_id),
        "entity_id": change.entity_id,
        "target": names.get(change.target_id or "", change.target_id),
        "old_value": change.old_value,
        "note": str(change.details.get("note", "")),
        "visibility": change.visibility,
    }


def timeline(entity: EntityView, view: CampaignView) -> list[dict[str, Any]]:
    """The entity's changes and its mentions in session records, by session."""
    sessions: dict[int, dict[str, list[Any]]] = defaultdict(lambda: {"changes": [], "mentions": []})
    for change in entity.changes:
        sessions[change.session_id]["changes"].append(_change(change, entity.names))
    for chunk in view.chunks.values():  # session records: the ingest stamps their session
        number = chunk.session
        if number is not None and entity.id in (chunk.subject, *chunk.mentions):
            quote = " ".join(chunk.text.split())
            sessions[number]["mentions"].append(
                {"id": chunk.id, "source": chunk.source_path, "quote": quote[:240]}
            )
    return [{"session": n, **sessions[n]} for n in sorted(sessions)]


def neighbourhood(entity: EntityView, view: CampaignView) -> dict[str, Any]:
    """The entity and its neighbours one relation away, as graph elements."""
    ids = {entity.id} | {r.source for r in entity.relations} | {r.target for r in entity.relations}
    nodes = [_node(i, view) for i in sorted(ids) if i in view.entities]
    edges = [
        {"source": r.source, "target": r.target, "label": r.type}
        for r in entity.relations
        if r.source in view.entities and r.target in view.entities
    ]
    return {"nodes": nodes, "edges": edges, "centre": entity.id}


def _node(entity_id: str, view: CampaignView) -> dict[str, Any]:
    entity = view.entities[entity_id]
    state = view.states.get(entity_id)
    return {
        "id": entity_id,
        "label": entity.name,
        "type": entity.type,
        "inactive": bool(state and state.inactive),
    }


def community_graph(found: list[Any], names: dict[str, str]) -> dict[str, Any]:
    """The communities of the coarsest level with their members, as graph elements."""
    top = min((c.level for c in found), default=0)
    nodes, edges = [], []
    for community in found:
        if community.level != top:
            continue
        nodes.append({"id": community.id, "label": community.title, "kind": "community"})
        for member in community.members:
            if member in names:
                nodes.append({"id": member, "label": names[member], "kind": "entity"})
                edges.append({"source": member, "target": community.id, "label": "in"})
    unique = {n["id"]: n for n in nodes}
    return {"nodes": list(unique.values()), "edges": edges}
