"""The version of the extraction code, so a re-ingest after an upgrade reads every source again.

A re-ingest skips a file whose SHA-256 the store already holds, which is right while the
extractor is the same and wrong once it is not: a new release that finds more names, folds more
duplicates or drops junk would leave the old graph in place for every unchanged file. So each
stored source also records the extractor that read it (:attr:`SourceRecord.extractor
<graphrag_core.models.SourceRecord.extractor>`), ``offline:<code>`` or ``llm:<code>``, where
``<code>`` is a digest of the extraction code itself (this package's modules, prompts and price
table, and the shared vocabularies it reads: titles, statuses, the taxonomy). A source read by
another extractor, or by none the store recorded (a store written before this), is read again;
an LLM run then pays only for chunks its cache does not hold.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources

_SHARED = ("titles.py", "statuses.py", "taxonomy.py")
_SUFFIXES = (".py", ".md", ".toml")


@lru_cache(maxsize=1)
def extraction_code() -> str:
    """A short digest of the extraction code and the vocabularies it reads."""
    digest = hashlib.sha256()
    files = [
        entry
        for root in (resources.files("extraction"), resources.files("extraction") / "prompts")
        for entry in root.iterdir()
        if entry.is_file() and entry.name.endswith(_SUFFIXES)
    ]
    shared = resources.files("graphrag_core")
    files += [shared / name for name in _SHARED]
    for entry in sorted(files, key=lambda e: str(e)):
        digest.update(entry.name.encode())
        digest.update(entry.read_bytes())
    return digest.hexdigest()[:12]


def extractor_tag(*, llm: bool) -> str:
    """What a source record says read it: ``offline:<code>`` or ``llm:<code>``."""
    return f"{'llm' if llm else 'offline'}:{extraction_code()}"
