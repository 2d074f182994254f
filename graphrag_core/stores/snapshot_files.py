"""Read-snapshot blobs as files: ``<root>/<campaign>/<name>``, written through a temporary file
and ``os.replace`` so a reader (another process too) sees the old file or the new one, never
half of one. The files are a cache: deleting them costs one slow first query."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

logger = logging.getLogger(__name__)


class SnapshotDirectory:
    """:class:`~graphrag_core.ports.SnapshotFiles` under one directory."""

    def __init__(self, root: Path, store_identity: str) -> None:
        self.root = root
        self._identity = store_identity

    @property
    def store_identity(self) -> str:
        return self._identity

    def read(self, campaign: str, name: str) -> bytes | None:
        try:
            return (self._folder(campaign) / name).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            logger.warning("cannot read the read snapshot %s of %r: %s", name, campaign, exc)
            return None

    def write(self, campaign: str, name: str, data: bytes) -> None:
        """Write atomically; a failure (a full disk, a read-only data dir) is logged, never
        raised: the snapshot is only a cache."""
        folder = self._folder(campaign)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(tmp, folder / name)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            logger.warning("cannot write the read snapshot %s of %r: %s", name, campaign, exc)

    def delete(self, campaign: str) -> None:
        shutil.rmtree(self._folder(campaign), ignore_errors=True)

    def _folder(self, campaign: str) -> Path:
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in campaign)
        return self.root / safe
