"""Ingest manifests: one JSON file per run under ``<data_dir>/manifests/<campaign>/``.

Each holds the files with their SHA-256, what was added/changed/removed, the counts and the
failures; ``latest.json`` is a copy of the newest."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime
from pathlib import Path

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
