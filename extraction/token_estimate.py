"""Prompt tokens of a chat request as OpenAI bills them, for the dry run.

A request costs its messages' tokens plus the chat framing (OpenAI's published rule: 3 tokens
per message plus its role, and 3 that prime the reply), plus the JSON schema when the
structured-output mode sends one. The encoding follows the model: ``o200k_base`` for gpt-4o,
gpt-4.1, gpt-4.5, gpt-5 and the o-series, ``cl100k_base`` for gpt-4 and gpt-3.5. For any other
model the count is an estimate with ``o200k_base`` (other vendors tokenise differently)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from graphrag_core.ports import TokenCounter

PER_MESSAGE = 3
PER_REPLY = 3
_O200K = re.compile(r"^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d)")
_CL100K = re.compile(r"^(gpt-4|gpt-3\.5|gpt-35)")


def encoding_for(model: str) -> tuple[str, bool]:
    """The encoding of ``model`` and whether counts with it are exact (an OpenAI model)."""
    name = model.casefold().rsplit("/", 1)[-1]
    if _O200K.match(name):
        return "o200k_base", True
    if _CL100K.match(name):
        return "cl100k_base", True
    return "o200k_base", False


def prompt_tokens(
    messages: Sequence[dict[str, str]], counter: TokenCounter, schema: object | None = None
) -> int:
    """Tokens of the messages with their framing, plus ``schema`` when one is sent."""
    framed = sum(PER_MESSAGE + counter.count(m["role"]) + counter.count(m["content"])
                 for m in messages)  # fmt: skip
    sent = counter.count(json.dumps(schema)) if schema is not None else 0
    return framed + PER_REPLY + sent
