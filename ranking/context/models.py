"""The values preview, expand and context return (the HTTP and MCP surfaces serialise them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.models import AskResult

ItemKind = Literal["entity", "community", "passage"]
Section = Literal["summary", "fact", "change", "excerpt"]


class _Value(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ContextLine(_Value):
    """One cited claim of an expansion."""

    section: Section = Field(description="summary, fact, change or excerpt.")
    text: str
    cites: tuple[str, ...] = Field(
        default=(), description="Handles the claim rests on: p:<chunk>, ch:<change>, e:, c:."
    )


class PreviewItem(_Value):
    """A cheap look at one entity, community or passage."""

    handle: str = Field(description="Stable handle to expand: e:<id>, c:<id> or p:<id>.")
    kind: ItemKind
    type: str = Field(description="Entity type, 'community' or 'passage'.")
    name: str
    status: str | None = Field(default=None, description="Effective status after the changelog.")
    available: bool = True
    status_note: str = Field(default="", description="Why the status is what it is.")
    status_change: str | None = Field(default=None, description="ch:<change> that set it.")
    gist: str = Field(default="", description="One line.")
    relations: tuple[str, ...] = Field(default=(), description="Key relations, 'type → name'.")
    cites: tuple[str, ...] = ()
    expand_tokens: int = Field(description="Exact tokens of `expand <handle>` without a budget.")


class Preview(_Value):
    question: str
    campaign: str
    as_player: bool
    as_of_session: int | None = None
    items: tuple[PreviewItem, ...]
    tokens: int = Field(description="Tokens of the preview's Markdown.")
    markdown: str


class Expansion(_Value):
    """Everything about one item, as cited lines (possibly trimmed)."""

    handle: str
    kind: ItemKind
    type: str
    name: str
    header: str = Field(description="Status line, always kept.")
    lines: tuple[ContextLine, ...] = ()


class Omission(_Value):
    """What the cascade left out of one item."""

    handle: str
    section: Section | Literal["item"]
    count: int


class ExpandResult(_Value):
    budget: int
    tokens: int = Field(description="Tokens of `markdown`, never above the budget.")
    items: tuple[Expansion, ...]
    omitted: tuple[Omission, ...] = ()
    markdown: str


class ContextBlock(_Value):
    """A preview plus the best expansions that fit, ready to paste into a prompt."""

    question: str
    campaign: str
    budget: int
    tokens: int
    preview: tuple[PreviewItem, ...]
    expansions: tuple[Expansion, ...]
    omitted: tuple[Omission, ...] = ()
    markdown: str


class CitedSentence(_Value):
    text: str
    cites: tuple[str, ...] = Field(description="Handles of the context the sentence rests on.")


class CitedAnswerText(_Value):
    """A model's reply, checked: the cited sentences, and those dropped for citing nothing."""

    sentences: tuple[CitedSentence, ...] = ()
    dropped: tuple[str, ...] = ()


class CitedAnswer(_Value):
    """``ask`` with a model: the answer, the context it was written from, and the model."""

    question: str
    campaign: str
    answer: str = Field(description="The kept sentences, each followed by its handles.")
    sentences: tuple[CitedSentence, ...] = ()
    dropped: tuple[str, ...] = Field(default=(), description="Sentences that cited nothing.")
    model: str
    context: ContextBlock


AnswerEventKind = Literal["search", "context", "generation", "token", "complete"]


class AnswerEvent(_Value):
    """One step of a streamed answer, for surfaces that show progress (SSE, MCP, CLI)."""

    kind: AnswerEventKind
    text: str = Field(
        default="", description="search/context/generation: what happened; token: a piece."
    )
    answer: CitedAnswer | None = Field(default=None, description="complete: the answer.")
    ranked: AskResult | None = Field(
        default=None,
        description="search: the ranked list; complete without a chat model: the same list, "
        "as the answer.",
    )
    context: ContextBlock | None = Field(
        default=None, description="context: the block the answer is written from."
    )
