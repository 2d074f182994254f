"""The one exception tree of loregraph.

Every failure a user can meet is a ``LoregraphError``; its message says what was wrong and what
to do about it. Vendor errors (redis, falkordb, torch, openai, ...) are translated at the adapter
that met them.

    LoregraphError
    ├── ConfigError                 settings that cannot work (bad path, unknown store kind)
    ├── StoreError                  the graph store failed
    │   ├── StoreUnavailableError   the store is down or unreachable
    │   └── UnknownStatementError   no Cypher file of that name (a broken install)
    ├── SourceError                 a source file could not be read or parsed
    ├── ChangelogError              a change set is malformed
    │   ├── ChangelogConflictError  a session was already posted with different content
    │   └── WithdrawalError         nothing to withdraw (unknown or already withdrawn revision)
    ├── UnknownEntityError          a name or id matches no entity (carries near matches)
    ├── RequestError                a request that cannot be answered as asked (empty question)
    │   └── UnknownCampaignError    the campaign holds nothing (names those that exist)
    ├── ExtractionError             an extractor could not produce a valid result
    ├── AnalyticsError              graph analytics cannot answer (not built, unknown id)
    └── ChatModelError              the chat model (LLM) failed
        ├── ChatModelUnavailableError   connection refused, timed out, 5xx after retries
        ├── ChatModelRateLimitError     429 after every retry
        └── ChatModelRequestError       the server rejected the request (auth, bad input)
"""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_core.models import ChangeSetDifference


class LoregraphError(Exception):
    """Root of every error loregraph raises on purpose."""


class ConfigError(LoregraphError):
    """Settings that cannot work."""


class StoreError(LoregraphError):
    """The graph store failed while doing what was asked."""


class StoreUnavailableError(StoreError):
    """The graph store is down or cannot be reached."""


class UnknownStatementError(StoreError):
    """No Cypher statement of that name exists for that dialect (a file missing from
    ``cypher/``: reinstall loregraph)."""


class SourceError(LoregraphError):
    """A source file could not be read or parsed."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class ChangelogError(LoregraphError):
    """A change set is malformed; the message names the bad field."""


class ChangelogConflictError(ChangelogError):
    """A session was already posted with different content; ``difference`` says how, where
    the posted change set could be compared (it resolves against the campaign)."""

    def __init__(self, message: str, difference: ChangeSetDifference | None = None) -> None:
        super().__init__(message)
        self.difference = difference


class WithdrawalError(ChangelogError):
    """There is nothing to withdraw: ``missing`` when the session or revision was never posted,
    else the revision is already withdrawn (or is itself a withdrawal)."""

    def __init__(self, message: str, *, missing: bool) -> None:
        super().__init__(message)
        self.missing = missing


class UnknownEntityError(LoregraphError):
    """A name or id matches no entity of the campaign."""

    def __init__(self, name: str, suggestions: Sequence[str] = (), where: str = "") -> None:
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}unknown entity {name!r}.{hint}")
        self.name = name
        self.suggestions = tuple(suggestions)


class RequestError(LoregraphError):
    """A request that cannot be answered as asked, such as an empty question."""


class UnknownCampaignError(RequestError):
    """The campaign holds nothing in this store; the message names the campaigns that exist."""

    def __init__(self, campaign: str, known: Sequence[str]) -> None:
        listed = ", ".join(known) if known else "none yet"
        super().__init__(
            f"campaign {campaign!r} holds nothing (campaigns in this store: {listed}); name one "
            f"of them with --campaign, or ingest sources into {campaign!r} first"
        )
        self.campaign = campaign
        self.known = tuple(known)


class ExtractionError(LoregraphError):
    """An extractor could not produce a valid result."""


class AnalyticsError(LoregraphError):
    """Graph analytics cannot answer: no build yet, or an unknown community id."""


class ChatModelError(LoregraphError):
    """The chat model (LLM) failed; the message names the model, the endpoint and what to do.
    ``attempts``: the HTTP requests the failed call made (1 + its retries), for the ledger."""

    def __init__(self, message: str, *, attempts: int = 1) -> None:
        super().__init__(message)
        self.attempts = attempts


class ChatModelUnavailableError(ChatModelError):
    """The model server could not be reached, timed out or kept failing after every retry."""


class ChatModelRateLimitError(ChatModelError):
    """The model server kept answering 429 (rate limited) after every retry."""


class ChatModelRequestError(ChatModelError):
    """The model server rejected the request: bad key, unknown model, unsupported option."""
