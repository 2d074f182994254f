"""The analytics part of a Cypher store: the snapshot of metrics and communities, and the
indexed community summaries. Dialect-agnostic: statements by name through ``_read``/``_write``.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from graphrag_core.analytics_models import AnalyticsSnapshot, CommunitySummary
from graphrag_core.models import ScoredId, Visibility
from graphrag_core.stores.rows import Row, checked, vector_rows
from graphrag_core.stores.statements import Statement, batched

logger = logging.getLogger(__name__)

_MIN_FETCH = 64
_FETCH_GROWTH = 4
_MAX_FETCH_ROUNDS = 6


class AnalyticsStore(ABC):
    """Save and load the analytics snapshot; search community summaries by vector."""

    dimension: int

    @abstractmethod
    def _read(self, name: str, params: dict[str, Any]) -> list[Row]: ...

    @abstractmethod
    def _write(self, statements: Sequence[Statement]) -> None: ...

    def save_analytics(
        self,
        campaign: str,
        snapshot: AnalyticsSnapshot,
        vectors: Mapping[str, Sequence[float]],
    ) -> None:
        """Replace the campaign's snapshot and summaries in one atomic write: the old ones
        serve until the new ones are complete."""
        rows = [_summary_row(s) for s in snapshot.summaries]
        keys = [s.key for s in snapshot.summaries]
        embedded = vector_rows(keys, {k: tuple(v) for k, v in vectors.items()}, self.dimension)
        header = {"snapshot_json": snapshot.model_dump_json(), "built_at": snapshot.built_at}
        self._write(
            [
                ("analytics_summaries_clear", {"campaign": campaign}),
                *batched("analytics_summaries_create", campaign, "rows", rows),
                *batched("summary_embeddings_set", campaign, "rows", embedded),
                ("analytics_snapshot_save", {"campaign": campaign, **header}),
            ]
        )

    def load_analytics(self, campaign: str) -> AnalyticsSnapshot | None:
        """The stored snapshot; None when there is none, or when it was written in a format
        this version cannot read (the next build starts afresh)."""
        rows = self._read("analytics_snapshot_load", {"campaign": campaign})
        if not rows or not rows[0]["snapshot_json"]:
            return None
        try:
            return AnalyticsSnapshot.model_validate_json(rows[0]["snapshot_json"])
        except ValidationError:
            logger.warning(
                "the analytics snapshot of %r predates this version of loregraph and is "
                "ignored: run `loregraph build -c %s` to rebuild it",
                campaign,
                campaign,
            )
            return None

    def load_summary_vectors(self, campaign: str) -> dict[str, tuple[float, ...]]:
        """The stored embedding of every community summary, by summary key."""
        rows = self._read("summary_vectors_load", {"campaign": campaign})
        return {row["id"]: tuple(float(v) for v in row["embedding"]) for row in rows}

    def summary_search(
        self,
        campaign: str,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        """Like ``vector_search``: grow the fetch until ``k`` summaries of this campaign and
        audience are found or none are left."""
        if k <= 0:
            return []
        scope = {"campaign": campaign, "visibilities": list(visibilities)}
        params = {**scope, "vector": [float(v) for v in vector], "k": k}
        available = self._read("summaries_embeddable_count", scope)
        total = available[0]["n"] if available else 0
        fetch = max(k * _FETCH_GROWTH, _MIN_FETCH)
        rows: list[Row] = []
        for _ in range(_MAX_FETCH_ROUNDS):
            rows = self._read("vector_search_summaries", {**params, "fetch": fetch})
            if len(rows) >= min(k, total):
                break
            fetch *= _FETCH_GROWTH
        return [ScoredId(id=row["id"], score=float(row["similarity"])) for row in rows]


def _summary_row(summary: CommunitySummary) -> Row:
    """The indexed part of a summary (the snapshot JSON holds the whole)."""
    props = {
        "community_id": summary.community_id,
        "visibility": summary.visibility,
        "title": summary.title,
        "summary": summary.summary,
    }
    return {"id": summary.key, "props": checked(f"summary {summary.key}", props)}
