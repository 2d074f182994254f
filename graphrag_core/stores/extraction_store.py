"""The extraction part of a Cypher store: the LLM extraction cache and the game master's
entity-resolution decisions, both kept with the campaign's data (so they move with
``loregraph migrate``). Dialect-agnostic: statements by name through ``_read``/``_write``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from graphrag_core.models import GmDecision
from graphrag_core.stores.rows import Row, checked
from graphrag_core.stores.statements import Statement, batched


class ExtractionStore(ABC):
    """Cache LLM extractions by key; store GM decisions append-only."""

    @abstractmethod
    def _read(self, name: str, params: dict[str, Any]) -> list[Row]: ...

    @abstractmethod
    def _write(self, statements: Sequence[Statement]) -> None: ...

    def load_extraction_cache(self, campaign: str, keys: Sequence[str]) -> dict[str, str]:
        if not keys:
            return {}
        rows = self._read("extraction_cache_load", {"campaign": campaign, "keys": list(keys)})
        return {row["key"]: row["value"] for row in rows}

    def extraction_cache_keys(self, campaign: str) -> list[str]:
        """Every cached extraction's key (for migration and housekeeping)."""
        return [row["key"] for row in self._read("extraction_cache_keys", {"campaign": campaign})]

    def save_extraction_cache(self, campaign: str, entries: Mapping[str, str]) -> None:
        rows = [{"key": key, "value": value} for key, value in sorted(entries.items())]
        if rows:
            self._write(list(batched("extraction_cache_save", campaign, "rows", rows)))

    def load_gm_decisions(self, campaign: str) -> list[GmDecision]:
        rows = self._read("gm_decisions_load", {"campaign": campaign})
        return [GmDecision(**{**row, "names": tuple(row["names"] or ())}) for row in rows]

    def append_gm_decision(self, campaign: str, decision: GmDecision) -> None:
        props = checked(f"GM decision {decision.seq}", decision.model_dump(exclude={"seq"}))
        self._write(
            [("gm_decision_append", {"campaign": campaign, "seq": decision.seq, "props": props})]
        )
