"""Preview → expand → context for agents, over the service's ``ask`` and ``entity``.

A handle names one item of the audience's view: ``entity:<id>`` or ``passage:<chunk id>``.
A preview item carries the exact token cost (the service's token counter) of expanding it;
an expansion never exceeds the budget asked: items that do not fit are cut at a line, or
left out and named. Interim until the ranker issue's service functions land; the tools'
shapes stay the same."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.errors import RequestError
from graphrag_core.models import EntityView, RankedResult
from graphrag_core.services.service import LoregraphService


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PreviewItem(_Out):
    handle: str = Field(description="Pass to expand: entity:<id> or passage:<chunk id>.")
    kind: str = Field(description="entity or passage.")
    type: str = Field(description="Entity type, or 'passage'.")
    name: str
    status: str | None = Field(description="Effective status after the changelog.")
    available: bool = Field(description="False when dead, destroyed, hostile, ... now.")
    status_change: str = Field(default="", description="Why the status is what it is.")
    gist: str = Field(description="One line.")
    tokens: int = Field(description="Exact token cost of expanding this item.")


class Preview(_Out):
    question: str
    campaign: str
    view: str = Field(description="gm or player: whose view of the world this is.")
    as_of: int | None = None
    items: tuple[PreviewItem, ...]
    tokens: int = Field(description="Token cost of expanding every item.")


class Expansion(_Out):
    handle: str
    text: str = Field(description="Markdown: summary, facts, relations, changes, sources.")
    tokens: int
    cut: bool = Field(default=False, description="True when the text was cut to fit.")


class Expanded(_Out):
    budget: int
    tokens: int = Field(description="Tokens used, never more than the budget.")
    items: tuple[Expansion, ...]
    left_out: tuple[str, ...] = Field(default=(), description="Handles that did not fit.")


class Context(_Out):
    question: str
    budget: int
    tokens: int
    markdown: str = Field(description="Preview plus the expansions that fit, ready to paste.")
    handles: tuple[str, ...] = Field(description="The handles expanded in the markdown.")
    left_out: tuple[str, ...] = ()


Counter = Callable[[str], int]


def counter_for(service: LoregraphService) -> Counter:
    tokens = service.token_counter
    if tokens is None:
        return lambda text: max(1, len(text) // 4)
    return tokens.count


def preview(
    service: LoregraphService,
    question: str,
    campaign: str,
    *,
    as_player: bool,
    k: int = 10,
    as_of: int | None = None,
) -> Preview:
    result = service.ask(question, campaign, as_player=as_player, as_of_session=as_of, k=k)
    count = counter_for(service)
    items = tuple(
        _item(r, count(_text(service, _handle(r), campaign, as_player, as_of)))
        for r in result.results
    )
    return Preview(
        question=question,
        campaign=campaign,
        view="player" if as_player else "gm",
        as_of=as_of,
        items=items,
        tokens=sum(i.tokens for i in items),
    )


def expand(
    service: LoregraphService,
    handles: Sequence[str],
    campaign: str,
    *,
    as_player: bool,
    budget: int,
    as_of: int | None = None,
) -> Expanded:
    if budget < 1:
        raise RequestError("budget must be at least 1 token")
    count = counter_for(service)
    used, items, left_out = 0, [], []
    for handle in dict.fromkeys(handles):
        text = _text(service, handle, campaign, as_player, as_of)
        fitted, cut = fit_lines(text, budget - used, count)
        if not fitted:
            left_out.append(handle)
            continue
        tokens = count(fitted)
        used += tokens
        items.append(Expansion(handle=handle, text=fitted, tokens=tokens, cut=cut))
    return Expanded(budget=budget, tokens=used, items=tuple(items), left_out=tuple(left_out))


def context(
    service: LoregraphService,
    question: str,
    campaign: str,
    *,
    as_player: bool,
    budget: int,
    k: int = 10,
    as_of: int | None = None,
) -> Context:
    seen = preview(service, question, campaign, as_player=as_player, k=k, as_of=as_of)
    count = counter_for(service)
    head = f"# Context: {question}\n\n" + "\n".join(
        f"- [{i.handle}] {i.name} ({i.type}, {_mark(i)}): {i.gist}" for i in seen.items
    )
    room = budget - count(head) - 2
    if room < 1:
        raise RequestError(f"budget {budget} is too small for the preview; try {count(head) + 200}")
    body = expand(
        service, [i.handle for i in seen.items], campaign,
        as_player=as_player, budget=room, as_of=as_of,
    )  # fmt: skip
    markdown = "\n\n".join([head, *(e.text for e in body.items)])
    return Context(
        question=question,
        budget=budget,
        tokens=count(markdown),
        markdown=markdown,
        handles=tuple(e.handle for e in body.items),
        left_out=body.left_out,
    )


def _handle(result: RankedResult) -> str:
    return f"{result.kind}:{result.id}"


def _mark(item: PreviewItem) -> str:
    status = item.status or "no status"
    return f"{status}, available" if item.available else f"{status}, unavailable"


def _item(result: RankedResult, tokens: int) -> PreviewItem:
    gist = " ".join(result.text.split())
    return PreviewItem(
        handle=_handle(result),
        kind=result.kind,
        type=result.type,
        name=result.name,
        status=result.status,
        available=result.available,
        status_change=result.status_note,
        gist=gist if len(gist) <= 160 else gist[:157] + "...",
        tokens=tokens,
    )


def _text(
    service: LoregraphService, handle: str, campaign: str, as_player: bool, as_of: int | None
) -> str:
    kind, _, ident = handle.partition(":")
    if kind == "entity" and ident:
        view = service.entity(ident, campaign, as_player=as_player, as_of_session=as_of)
        return entity_markdown(view)
    if kind == "passage" and ident:
        chunks = service.view(campaign, as_player=as_player, as_of_session=as_of).view.chunks
        if ident in chunks:
            chunk = chunks[ident]
            where = f"{chunk.source_path} › {chunk.heading}" if chunk.heading else chunk.source_path
            return f"## Passage ({where}) [{handle}]\n\n{chunk.text.strip()}"
    raise RequestError(f"unknown handle {handle!r}: use a handle from preview")


def entity_markdown(view: EntityView) -> str:
    """An entity as Markdown, every fact with where it comes from."""
    lines = [f"## {view.name} ({view.type}) [entity:{view.id}]"]
    status = view.status or "no status"
    if view.status_change is not None:
        change = view.status_change
        status += f" (since session {change.session_id}, change {change.id})"
    lines.append(f"Status: {status}")
    if view.aliases:
        lines.append("Aliases: " + ", ".join(view.aliases))
    if view.description:
        lines.append(view.description.strip())
    if view.gm_notes:
        lines.append("GM notes: " + view.gm_notes.strip())
    name = view.names.get
    lines += [
        f"- {name(r.source, r.source)} {r.type} {name(r.target, r.target)}" for r in view.relations
    ]
    lines += [
        f"- session {c.session_id}: {c.field} → {c.new_value} (change {c.id})"
        for c in view.changes[-5:]
    ]
    if view.sources:
        lines.append("Sources: " + ", ".join(view.sources))
    return "\n".join(lines)


def fit_lines(text: str, room: int, count: Counter) -> tuple[str, bool]:
    """``text`` if it fits in ``room`` tokens, else its longest fitting prefix of whole lines
    (``""`` when not even the first line fits)."""
    if room < 1:
        return "", False
    if count(text) <= room:
        return text, False
    lines = text.splitlines()
    while lines and count("\n".join([*lines, "…"])) > room:
        lines.pop()
    return ("\n".join([*lines, "…"]), True) if lines else ("", False)
