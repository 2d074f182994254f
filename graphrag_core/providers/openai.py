"""The ``ChatModel`` adapter on the official ``openai`` SDK, for any OpenAI-compatible server
(OpenAI, vLLM, Ollama, llama.cpp).

* Timeouts and retries are the SDK's own: exponential backoff with jitter on 408/409/429/5xx
  and connection errors, ``max_retries`` times, honouring ``Retry-After``. Every HTTP request
  is counted, so a reply (and a failure) says how many retries it took.
* A semaphore caps the requests in flight (``concurrency``), across threads.
* Structured output: ``json_schema`` → ``json_object_schema`` (llama.cpp) → ``json_object``.
  Until a mode has worked once, a structured request is sent without the SDK's retries, so a
  server that rejects the mode (llama.cpp answers HTTP 500 "Input should be 'text' or
  'json_object'") is seen at once; the adapter then steps down, under a lock and only from
  the mode the failed request used, so concurrent failures step down once. A request that
  failed with an older mode is sent again with the current one.
* Vendor errors and replies that are not chat completions (an HTML page from a proxy, an
  empty ``choices`` list) become :class:`ChatModelError` subclasses that say what to do.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any, cast

import openai
from openai.types.chat import ChatCompletion

from graphrag_core.config import LlmSettings, StructuredOutput
from graphrag_core.errors import (
    ChatModelError,
    ChatModelRateLimitError,
    ChatModelRequestError,
    ChatModelUnavailableError,
    ConfigError,
)
from graphrag_core.models import ChatReply

__all__ = ["OpenAIChatModel"]

logger = logging.getLogger(__name__)

_FALLBACK: dict[StructuredOutput, StructuredOutput] = {
    "json_schema": "json_object_schema",
    "json_object_schema": "json_object",
}
_REJECTION_HINTS = ("json_object", "json_schema", "response_format")
_NO_KEY = "not-needed"  # local servers ignore the key, the SDK insists on one


class _NotACompletionError(Exception):
    """The server answered 200 with something that is not a chat completion."""


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
        self._working: set[StructuredOutput] = set()  # modes the server accepted once
        self._lock = threading.Lock()
        self._where = settings.base_url or "https://api.openai.com/v1"
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._requests = threading.local()  # HTTP requests of the current call, per thread
        key = settings.api_key.get_secret_value() if settings.api_key else None
        self._client = client or openai.OpenAI(
            api_key=key or _NO_KEY,
            base_url=settings.base_url,
            timeout=settings.timeout_s,
            max_retries=settings.max_retries,
            http_client=openai.DefaultHttpxClient(event_hooks={"request": [self._count]}),
        )
        self._probe = self._client.with_options(max_retries=0)

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
            self._requests.n = 0
            try:
                reply = self._complete(messages, json_schema, max_tokens)
            except openai.OpenAIError as exc:
                raise self._error(exc, self._attempts()) from exc
            except _NotACompletionError as exc:
                raise ChatModelRequestError(
                    f"model {self._model!r} at {self._where} answered with something that is "
                    f"not an OpenAI chat completion ({exc}); check that LOREGRAPH_LLM_BASE_URL "
                    "is the server's OpenAI-compatible /v1 endpoint (a proxy or login page "
                    "answers like this)",
                    attempts=self._attempts(),
                ) from exc
            return reply.model_copy(update={"retries": self._attempts() - 1})

    def _count(self, request: object) -> None:
        self._requests.n = getattr(self._requests, "n", 0) + 1

    def _attempts(self) -> int:
        return max(1, getattr(self._requests, "n", 1))

    def _complete(
        self,
        messages: Sequence[dict[str, str]],
        json_schema: dict[str, object] | None,
        max_tokens: int,
    ) -> ChatReply:
        while True:
            mode = self._mode
            probing = json_schema is not None and mode not in self._working
            try:
                reply = self._call(
                    self._probe if probing else self._client, messages, json_schema, mode,
                    max_tokens,
                )  # fmt: skip
            except openai.APIStatusError as exc:
                if json_schema is not None and _rejects_mode(exc):
                    if self._step_down(mode, exc):
                        continue
                    raise
                if not (probing and _retryable(exc)):
                    raise
                reply = self._call(self._client, messages, json_schema, mode, max_tokens)
            except (openai.APIConnectionError, openai.APITimeoutError):
                if not probing:
                    raise
                reply = self._call(self._client, messages, json_schema, mode, max_tokens)
            if json_schema is not None:
                self._working.add(mode)
            return reply

    def _call(
        self,
        client: Any,
        messages: Sequence[dict[str, str]],
        json_schema: dict[str, object] | None,
        mode: StructuredOutput,
        max_tokens: int,
    ) -> ChatReply:
        extra: dict[str, Any] = {}
        if json_schema is not None:
            extra["response_format"] = response_format(mode, json_schema)
        raw = client.chat.completions.with_raw_response.create(
            model=self._model,
            messages=cast(Any, list(messages)),
            max_tokens=max_tokens,
            temperature=0,
            **extra,
        )
        return self._reply(raw)

    def _reply(self, raw: Any) -> ChatReply:
        try:
            response = raw.parse()
        except (ValueError, TypeError) as exc:
            raise _NotACompletionError(f"unreadable body: {exc}") from exc
        if not isinstance(response, ChatCompletion):
            raise _NotACompletionError(f"got {str(response)[:80]!r}")
        try:
            choice = response.choices[0]
            text = choice.message.content or ""
        except (IndexError, AttributeError, TypeError) as exc:
            raise _NotACompletionError(f"no choice with a message: {exc}") from exc
        usage = response.usage
        return ChatReply(
            text=text,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            model=response.model or self._model,
            finish_reason=choice.finish_reason or "",
        )

    def _step_down(self, used: StructuredOutput, exc: openai.APIStatusError) -> bool:
        """After the server rejected mode ``used``: whether to send the request again (with
        the mode in use now). Only the first failure of a mode steps down."""
        with self._lock:
            if self._mode != used:
                return True  # another request already stepped down
            if used not in _FALLBACK:
                return False
            self._mode = _FALLBACK[used]
            logger.warning(
                "%s rejected structured output %r (%s); using %r", self._where, used, exc,
                self._mode,
            )  # fmt: skip
            return True

    def _error(self, exc: openai.OpenAIError, attempts: int) -> ChatModelError:
        what = f"model {self._model!r} at {self._where}"
        if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
            return ChatModelUnavailableError(
                f"{what} did not answer ({exc}); check LOREGRAPH_LLM_BASE_URL and that the "
                "server runs, or raise LOREGRAPH_LLM__TIMEOUT_S",
                attempts=attempts,
            )
        if isinstance(exc, openai.RateLimitError):
            return ChatModelRateLimitError(
                f"{what} is rate limited after every retry ({exc}); lower "
                "LOREGRAPH_LLM__CONCURRENCY or try later",
                attempts=attempts,
            )
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return ChatModelRequestError(
                f"{what} refused the API key ({exc}); set LOREGRAPH_LLM_API_KEY or OPENAI_API_KEY",
                attempts=attempts,
            )
        if isinstance(exc, openai.InternalServerError):
            return ChatModelUnavailableError(
                f"{what} kept failing ({exc}); try again later", attempts=attempts
            )
        return ChatModelRequestError(f"{what} rejected the request ({exc})", attempts=attempts)


def _rejects_mode(exc: openai.APIStatusError) -> bool:
    """Whether the server refused the ``response_format`` rather than failing otherwise."""
    return exc.status_code in (400, 422, 500) and any(h in str(exc) for h in _REJECTION_HINTS)


def _retryable(exc: openai.APIStatusError) -> bool:
    """What the SDK would have retried (see ``_should_retry`` in the SDK)."""
    return exc.status_code in (408, 409, 429) or exc.status_code >= 500


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
