"""``ask`` with a chat model: a short answer written from the context block, every sentence
citing a handle, as a stream of events the surfaces can forward (search, context,
generation, token, complete); :func:`ask_events` streams the ranked list the same way
when no chat model is configured.

The ChatModel port returns a reply whole, so the ``token`` events carry the *checked* answer
word by word: a surface streaming them never shows a sentence that is then dropped."""

from __future__ import annotations

from collections.abc import Generator, Iterator

from graphrag_core.config import PresetName
from graphrag_core.errors import ConfigError
from graphrag_core.models import AskResult
from graphrag_core.ports import ChatModel
from graphrag_core.services.context import ContextReads, context_from, preview_ranked
from ranking.context.answer import (
    MAX_ANSWER_TOKENS,
    answer_messages,
    checked_answer,
    context_handles,
    render_answer,
)
from ranking.context.models import AnswerEvent, CitedAnswer, ContextBlock


def _chat(reads: ContextReads) -> ChatModel:
    if reads.analytics.chat is None:
        raise ConfigError(
            "no chat model is configured: set [llm] in loregraph.toml (or LOREGRAPH_LLM_*); "
            "without one, `ask` gives the ranked list"
        )
    return reads.analytics.chat


def answer_events(
    reads: ContextReads,
    question: str,
    campaign: str,
    *,
    budget: int = 6000,
    k: int = 20,
    as_player: bool = False,
    as_of_session: int | None = None,
    preset: PresetName | None = None,
) -> Iterator[AnswerEvent]:
    """The answer's steps, ending with one ``complete`` event that holds it."""
    chat = _chat(reads)
    _, block = yield from _search(
        reads, question, campaign, k=k, budget=budget, as_player=as_player,
        as_of_session=as_of_session, preset=preset,
    )  # fmt: skip
    yield AnswerEvent(kind="generation", text=f"asking {chat.model_id}")
    answer = _write(chat, question, block)
    for word in answer.answer.split():
        yield AnswerEvent(kind="token", text=f"{word} ")
    yield AnswerEvent(kind="complete", text=answer.answer, answer=answer)


def ask_events(
    reads: ContextReads,
    question: str,
    campaign: str,
    *,
    budget: int = 6000,
    k: int = 10,
    as_player: bool = False,
    as_of_session: int | None = None,
    preset: PresetName | None = None,
) -> Iterator[AnswerEvent]:
    """``ask`` as events, for streaming surfaces: the cited answer's events with a chat model
    configured; without one ``search`` (the ranked list), ``context`` (the block an answer
    would be written from) and ``complete`` holding the ranked list."""
    if reads.analytics.chat is not None:
        yield from answer_events(
            reads, question, campaign, budget=budget, k=k, as_player=as_player,
            as_of_session=as_of_session, preset=preset,
        )  # fmt: skip
        return
    ranked, _ = yield from _search(
        reads, question, campaign, k=k, budget=budget, as_player=as_player,
        as_of_session=as_of_session, preset=preset,
    )  # fmt: skip
    done = ranked.note or "no chat model is configured: the ranked list is the answer"
    yield AnswerEvent(kind="complete", text=done, ranked=ranked)


def _search(
    reads: ContextReads,
    question: str,
    campaign: str,
    *,
    k: int,
    budget: int,
    as_player: bool,
    as_of_session: int | None,
    preset: PresetName | None,
) -> Generator[AnswerEvent, None, tuple[AskResult, ContextBlock]]:
    """The steps both streams share, ``search`` (the ranked list) then ``context`` (the block
    an answer is written from); returns both."""
    ranked = reads.ask(
        question, campaign, as_player=as_player, as_of_session=as_of_session, k=k, preset=preset
    )
    yield AnswerEvent(kind="search", text=f"{len(ranked.results)} results", ranked=ranked)
    block = context_from(reads, preview_ranked(reads, ranked, k), budget)
    yield AnswerEvent(kind="context", text=f"{block.tokens} tokens of context", context=block)
    return ranked, block


def _write(chat: ChatModel, question: str, block: ContextBlock) -> CitedAnswer:
    reply = chat.complete(answer_messages(question, block), max_tokens=MAX_ANSWER_TOKENS)
    checked = checked_answer(reply.text, context_handles(block))
    return CitedAnswer(
        question=question,
        campaign=block.campaign,
        answer=render_answer(checked),
        sentences=checked.sentences,
        dropped=checked.dropped,
        model=chat.model_id,
        context=block,
    )


def final_answer(events: Iterator[AnswerEvent]) -> CitedAnswer:
    """The answer of a stream of events (the ``complete`` event's)."""
    for event in events:
        if event.kind == "complete" and event.answer is not None:
            return event.answer
    raise RuntimeError("the answer stream ended without a complete event")
