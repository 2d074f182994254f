"""Ingest manifests: one JSON file per run under ``<data_dir>/manifests/<campaign>/``.

Each holds the files with their SHA-256, what was added/changed/removed, the counts and the
failures; ``latest.json`` is a copy of the newest. Ingest reads them back for two things: the
folders earlier runs ingested (so a single file keeps its campaign-relative path) and which files
failed the last time they were seen (so a file that is back is extracted again)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from graphrag_core.models import IngestReport


def write_manifest(data_dir: Path, report: IngestReport, when: datetime) -> Path:
    folder = data_dir / "manifests" / _safe(report.campaign)
    folder.mkdir(parents=True, exist_ok=True)
    payload = {"written_at": when.isoformat(), **report.model_dump(mode="json")}
    text = json.dumps(payload, indent=2, sort_keys=True)
    path = folder / f"ingest-{when.strftime('%Y%m%dT%H%M%S%fZ')}.json"
    _atomic_write(path, text)
    _atomic_write(folder / "latest.json", text)
    return path


def _atomic_write(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so a reader never sees half a manifest."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    Path(tmp).replace(path)


def _safe(campaign: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in campaign)


def remove_manifests(data_dir: Path, campaign: str) -> None:
    """Delete the campaign's run manifests (when the campaign is deleted)."""
    folder = data_dir / "manifests" / _safe(campaign)
    for path in folder.glob("*.json"):  # the run manifests and latest.json
        path.unlink(missing_ok=True)
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


def read_manifests(data_dir: Path, campaign: str) -> Iterator[dict[str, Any]]:
    """The campaign's run manifests, newest first; unreadable ones are skipped."""
    folder = data_dir / "manifests" / _safe(campaign)
    for path in sorted(folder.glob("ingest-*.json"), reverse=True):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            yield data


def ingest_roots(manifests: Iterable[dict[str, Any]]) -> Iterator[Path]:
    """The folders that ``manifests`` (newest first) ingested, newest first, without repeats;
    lazily, so a caller that stops early reads no older manifest."""
    seen: set[str] = set()
    for manifest in manifests:
        root = str(manifest.get("root", ""))
        if root and root not in seen:
            seen.add(root)
            yield Path(root)


def failed_last_time(manifests: Iterable[dict[str, Any]], paths: Iterable[str]) -> frozenset[str]:
    """Those of ``paths`` that failed in the newest run of ``manifests`` (newest first) that saw
    them (read or failed)."""
    pending = set(paths)
    failed: set[str] = set()
    for manifest in manifests:
        if not pending:
            break
        failures, files = manifest.get("failures") or {}, manifest.get("files") or {}
        seen = {p for p in pending if p in failures or p in files}
        failed |= {p for p in seen if p in failures}
        pending -= seen
    return frozenset(failed)
