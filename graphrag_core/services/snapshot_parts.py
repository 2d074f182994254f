"""What every part of a read snapshot shares: the format, the header naming the store and the
campaign (and, for the parts that follow the store, the revision they were read at), and the
one-line warning for a part that cannot be used."""

from __future__ import annotations

import json
import logging
from typing import Any

from graphrag_core.ports import SnapshotFiles

logger = logging.getLogger(__name__)

FORMAT = 1
"""Bumped whenever what a part holds changes shape: a part of another format is ignored."""


class UnusablePartError(Exception):
    """A part that cannot be used (says why)."""


def part_header(files: SnapshotFiles, campaign: str, part: str, **extra: object) -> bytes:
    fields: dict[str, object] = {"format": FORMAT, "part": part, "campaign": campaign}
    fields |= {"store": files.store_identity, **extra}
    return json.dumps(fields, sort_keys=True).encode("utf-8")


REVISION_KEYS = frozenset({"revision", "world"})
"""The header fields that name the store revision a part was read at: the campaign revision
(every write bumps it) or the world revision (every write but the changelog's)."""


def same_but_revision(header: dict[str, Any], expected: bytes) -> bool:
    """The header matches ``expected`` in everything but the revisions."""
    wanted: dict[str, Any] = json.loads(expected)
    return {k: v for k, v in header.items() if k not in REVISION_KEYS} == wanted


def ignored(campaign: str, name: str, why: str) -> None:
    logger.warning(
        "the read snapshot %s of campaign %r is ignored (%s); it is read again from the store",
        name, campaign, why,
    )  # fmt: skip
