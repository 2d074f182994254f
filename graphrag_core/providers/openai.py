"""The ``ChatModel`` adapter on the official ``openai`` SDK, for any OpenAI-compatible server
(OpenAI, vLLM, Ollama, llama.cpp).

* Timeouts and retries are the SDK's own: exponential backoff with jitter on 408/409/429/5xx
  and connection errors, ``max_retries`` times, honouring ``Retry-After``.
* A semaphore caps the requests in flight (``concurrency``), across threads.
* Structured output: ``json_schema`` → ``json_object_schema`` (llama.cpp) → ``json_object``.
  A server that rejects a mode (llama.cpp answers HTTP 500 "Input should be 'text' or
  'json_object'") makes the adapter step down once and remember it.
* Vendor errors become :class:`ChatModelError` subclasses that say what to do.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, cast

import openai

from graphrag_core.errors import (
    ChatModelError,
    ChatModelRateLimitError,
    ChatModelRequestError,
    ChatModelUnavailableError,
    ConfigError,
)
from graphrag_core.models import ChatReply
from graphrag_core.settings import LlmSettings, StructuredOutput

__all__ = ["OpenAIChatModel"]

_FALLBACK: dict[StructuredOutput, StructuredOutput] = {
    "json_schema": "json_object_schema",
    "json_object_schema": "json_object",
}
_REJECTION_HINTS = ("json_object", "json_schema", "response_format")
_NO_KEY = "not-needed"  # local servers ignore the key, the SDK insists on one


class OpenAIChatModel:
    """A ``ChatModel`` over ``/v1/chat/completions``."""

    def __init__(self, settings: LlmSettings, client: Any | None = None) -> None:
        if not settings.model:
            raise ConfigError(
                "no LLM model configured: set LOREGRAPH_LLM_MODEL (and LOREGRAPH_LLM_BASE_URL "
                "for a server other than OpenAI)"
            )
        self._model = settings.model
        self._mode: StructuredOutput = settings.structured_output
        self._where = settings.base_url or "https://api.openai.com/v1"
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        key = settings.api_key.get_secret_value() if settings.api_key else None
        self._client = client or openai.OpenAI(
            api_key=key or _NO_KEY,
            base_url=settings.base_url,
            timeout=settings.timeout_s,
            max_retries=settings.max_retries,
        )

    @property
    def model_id(self) -> str:
        return self._model

    @property
    def structured_output(self) -> StructuredOutput:
        """The mode in use now (after any fallback)."""
        return self._mode

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        json_schema: dict[str, object] | None = None,
        max_tokens: int = 1024,
    ) -> ChatReply:
        with self._slots:
            while True:
                try:
                    return self._call(messages, json_schema, max_tokens)
                except openai.APIStatusError as exc:
                    if json_schema is None or not self._step_down(exc):
                        raise self._error(exc) from exc
                except openai.OpenAIError as exc:
                    raise self._error(exc) from exc

    def _call(
        self,
        messages: Sequence[dict[str, str]],
        json_schema: dict[str, object] | None,
        max_tokens: int,
    ) -> ChatReply:
        extra: dict[str, Any] = {}
        if json_schema is not None:
            extra["response_format"] = response_format(self._mode, json_schema)
        raw = self._client.chat.completions.with_raw_response.create(
            model=self._model,
            messages=cast(Any, list(messages)),
            max_tokens=max_tokens,
            temperature=0,
            **extra,
        )
        response = raw.parse()
        choice = response.choices[0]
        usage = response.usage
        return ChatReply(
            text=choice.message.content or "",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            model=response.model or self._model,
            finish_reason=choice.finish_reason or "",
            retries=getattr(raw, "retries_taken", 0),
        )

    def _step_down(self, exc: openai.APIStatusError) -> bool:
        """Fall back to the next structured-output mode when the server rejected this one."""
        rejected = exc.status_code in (400, 422, 500) and any(
            hint in str(exc) for hint in _REJECTION_HINTS
        )
        if rejected and self._mode in _FALLBACK:
            self._mode = _FALLBACK[self._mode]
            return True
        return False

    def _error(self, exc: openai.OpenAIError) -> ChatModelError:
        what = f"model {self._model!r} at {self._where}"
        if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
            return ChatModelUnavailableError(
                f"{what} did not answer ({exc}); check LOREGRAPH_LLM_BASE_URL and that the "
                "server runs, or raise LOREGRAPH_LLM__TIMEOUT_S"
            )
        if isinstance(exc, openai.RateLimitError):
            return ChatModelRateLimitError(
                f"{what} is rate limited after every retry ({exc}); lower "
                "LOREGRAPH_LLM__CONCURRENCY or try later"
            )
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return ChatModelRequestError(
                f"{what} refused the API key ({exc}); set LOREGRAPH_LLM_API_KEY or OPENAI_API_KEY"
            )
        if isinstance(exc, openai.InternalServerError):
            return ChatModelUnavailableError(f"{what} kept failing ({exc}); try again later")
        return ChatModelRequestError(f"{what} rejected the request ({exc})")


def response_format(mode: StructuredOutput, schema: dict[str, object]) -> dict[str, Any]:
    """The ``response_format`` request field for ``mode``."""
    if mode == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": "response", "schema": schema, "strict": False},
        }
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}
