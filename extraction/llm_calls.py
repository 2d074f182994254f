"""One structured LLM call: ask for JSON of a pydantic model's shape, validate it, and on
malformed, truncated or off-schema output ask once more with the error (the repair round).
Every call is counted in the ledger, a failed one too (with its retries); a failed call
raises its ``ChatModelError`` (the caller decides whether the run can go on)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from extraction.ledger import Ledger
from extraction.llm_schema import model_schema
from extraction.prompt_files import load_prompt
from graphrag_core.errors import ChatModelError, ExtractionError
from graphrag_core.models import ChatReply
from graphrag_core.ports import ChatModel

M = TypeVar("M", bound=BaseModel)
REPAIR_ENTITY_LIMIT = 12


class UnusableOutputError(ExtractionError):
    """The output stayed unusable after the repair round; carries the reason."""


def parse_reply(text: str, finish_reason: str, model: type[M]) -> M:
    """The validated model, or ``ValueError`` saying what was wrong."""
    if finish_reason == "length":
        raise ValueError("the answer was cut off at the token limit (truncated JSON)")
    try:
        data = json.loads(_strip_fences(text))
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at character {exc.pos})") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'top level'}: {err['msg']}"
            for err in exc.errors()[:5]
        )
        raise ValueError(f"JSON of the wrong shape ({problems})") from exc


def _strip_fences(text: str) -> str:
    """Small models like wrapping JSON in a Markdown code fence."""
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[1] if "\n" in stripped else ""
        stripped = stripped.rsplit("```", 1)[0]
    return stripped


def structured_call(
    chat: ChatModel,
    messages: Sequence[dict[str, str]],
    model: type[M],
    *,
    stage: str,
    ledger: Ledger,
    max_tokens: int,
    schema: dict[str, Any] | None = None,
) -> tuple[M, list[dict[str, str]]]:
    """The validated answer and the conversation that led to it; ``UnusableOutputError`` when even
    the repair round gives nothing usable. ``schema`` (default: the model's own) is what the
    server is sent; it may be narrower than ``model`` (enums); ``model`` checks the answer."""
    schema = schema or model_schema(model)
    reply = _complete(chat, messages, schema, max_tokens, stage, ledger)
    try:
        parsed = parse_reply(reply.text, reply.finish_reason, model)
        return parsed, [*messages, {"role": "assistant", "content": reply.text}]
    except ValueError as first:
        repair = load_prompt("repair").messages(error=str(first), limit=REPAIR_ENTITY_LIMIT)
        conversation = [*messages, {"role": "assistant", "content": reply.text}, repair[1]]
        again = _complete(chat, conversation, schema, max_tokens, "repair", ledger)
        try:
            parsed = parse_reply(again.text, again.finish_reason, model)
        except ValueError as second:
            raise UnusableOutputError(f"{first}; after one repair round: {second}") from second
        return parsed, [*conversation, {"role": "assistant", "content": again.text}]


def _complete(
    chat: ChatModel,
    messages: Sequence[dict[str, str]],
    schema: dict[str, Any],
    max_tokens: int,
    stage: str,
    ledger: Ledger,
) -> ChatReply:
    """One call, counted in the ledger whether it succeeds or fails."""
    try:
        reply = chat.complete(messages, json_schema=schema, max_tokens=max_tokens)
    except ChatModelError as exc:
        ledger.failed_call(stage, exc.attempts)
        raise
    ledger.call(stage, reply)
    return reply
