"""Helpers the prose-extraction tests share: the names a line yields, the entities some
Markdown files yield, a small world (a name list and one prose file) and its stated relations."""

from __future__ import annotations

import hashlib
from pathlib import Path

from extraction.offline import extract
from extraction.prose_names import common_words, name_spans
from extraction.sources import discover, load_document
from graphrag_core.models import Entity, Extraction, SourceDocument


def names_in(text: str) -> list[str]:
    """The names one text yields, its own words as the corpus's common words."""
    return [s.name for s in name_spans(text, common_words([text]))]


def entities_of(*texts: tuple[str, str]) -> dict[str, Entity]:
    """The entities extracted from Markdown files given as ``(path, text)``, by name."""
    docs = [
        SourceDocument(
            path=path, kind="markdown", sha256=hashlib.sha256(text.encode()).hexdigest(), text=text
        )
        for path, text in texts
    ]
    return {e.name: e for e in extract(docs, chunk_size=1200).entities}


def world(tmp_path: Path, names: str, prose: str, file: str) -> Extraction:
    """What a folder holding the name list ``names`` and the prose file ``file`` yields."""
    (tmp_path / "names.yaml").write_text(names, encoding="utf-8")
    (tmp_path / file).write_text(prose, encoding="utf-8")
    docs = [load_document(path, tmp_path) for path in discover(tmp_path)]
    return extract(docs, chunk_size=1200)


def stated_relations(extraction: Extraction) -> set[tuple[str, str, str]]:
    """``(source, type, target)`` of every relation the prose states (no co-occurrence)."""
    return {(r.source, r.type, r.target) for r in extraction.relations if r.evidence == "stated"}
