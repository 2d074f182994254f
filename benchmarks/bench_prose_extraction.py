"""How well the offline extractor turns plain prose into a world, against hand-made gold.

The corpus (``tests/data/prose_campaign/world``: lore notes and ten session recaps, no world pack,
no front matter) and its ``gold.yaml`` (entities with type, aliases and whether they are
mentioned at least twice; stated relations) were written by hand for issue 10. Scores:

- entity recall: gold entities mentioned at least twice that the extraction holds (a gold name
  resolves to an extracted entity);
- precision: extracted entities that are gold entities (by name or alias);
- type accuracy: over the recalled entities;
- alias links: gold aliases that resolve to the right extracted entity;
- relation precision / recall: stated relations (co-occurrence links are counted apart), with
  ``owned_by``/``contains`` read as the reverse of ``owns``/``located_in``;
- speed: MB of text per minute, on copies of the corpus (at least 1 MB) in one extraction.

    PYTHONPATH=. python benchmarks/bench_prose_extraction.py \
        [--data tests/data/prose_campaign] [--data tests/data/prose_heldout]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

from extraction.offline import extract_with_warnings
from extraction.resolution import EntityResolver
from extraction.slugs import normalise_name
from extraction.sources import discover, load_document
from graphrag_core.config import IngestSettings
from graphrag_core.models import PARTY_ID, Entity, Extraction, SourceDocument

_REVERSED = {"owned_by": "owns", "contains": "located_in"}
Triple = tuple[str, str, str]


def _documents(root: Path) -> list[SourceDocument]:
    return [load_document(p, root) for p in discover(root) if p.suffix in (".md", ".txt")]


def _extract(docs: list[SourceDocument]) -> Extraction:
    settings = IngestSettings()
    found, _ = extract_with_warnings(
        docs, chunk_size=settings.chunk_size, overlap=settings.chunk_overlap
    )
    return found


def _ratio(hits: int, total: int) -> float:
    return hits / total if total else 1.0


def _triple(source: str, kind: str, target: str) -> Triple:
    if kind in _REVERSED:
        return (normalise_name(target), _REVERSED[kind], normalise_name(source))
    return (normalise_name(source), kind, normalise_name(target))


class GoldEntity(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    type: str
    twice: bool
    aliases: tuple[str, ...] = ()


class Gold(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    entities: tuple[GoldEntity, ...]
    relations: tuple[tuple[str, str, str], ...]


def score(extraction: Extraction, gold: Gold) -> dict[str, float]:
    """The scores of one extraction against one gold file."""
    entities = [e for e in extraction.entities if e.id != PARTY_ID]
    found = EntityResolver(entities)
    truth = EntityResolver(
        Entity(id=f"g{i}", name=g.name, type=g.type, aliases=g.aliases)
        for i, g in enumerate(gold.entities)
    )
    twice = [g for g in gold.entities if g.twice]
    hits = {g.name: eid for g in twice if (eid := found.resolve(g.name)) is not None}
    types = {g.name: g.type for g in gold.entities}
    typed = sum(e.type == types[name] for name, eid in hits.items() if (e := found.get(eid)))
    right = sum(truth.resolve(e.name) is not None for e in entities)
    aliases = [(g.name, alias) for g in gold.entities for alias in g.aliases]
    linked = sum(
        found.resolve(alias) is not None and found.resolve(alias) == found.resolve(name)
        for name, alias in aliases
    )
    names = {e.id: e.name for e in entities}
    stated = {
        _triple(names[r.source], r.type, names[r.target])
        for r in extraction.relations
        if r.evidence == "stated" and r.source in names and r.target in names
    }
    wanted = {_triple(*t) for t in gold.relations}
    return {
        "entities": len(entities),
        "recall": _ratio(len(hits), len(twice)),
        "precision": _ratio(right, len(entities)),
        "type_accuracy": _ratio(typed, len(hits)),
        "alias_links": _ratio(linked, len(aliases)),
        "relation_precision": _ratio(len(stated & wanted), len(stated)),
        "relation_recall": _ratio(len(stated & wanted), len(wanted)),
        "co_occurrence_links": sum(r.evidence == "co_occurrence" for r in extraction.relations),
    }


def speed(docs: list[SourceDocument], target_bytes: int = 1_000_000) -> tuple[float, float]:
    """(MB extracted, MB per minute) over enough renamed copies of ``docs``."""
    size = sum(len(d.text.encode()) for d in docs)
    copies = max(1, -(-target_bytes // size))
    many = [d.model_copy(update={"path": f"copy{n}/{d.path}"}) for n in range(copies) for d in docs]
    started = time.perf_counter()
    _extract(many)
    minutes = (time.perf_counter() - started) / 60
    megabytes = size * copies / 1e6
    return megabytes, megabytes / minutes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, action="append")
    parser.add_argument("--no-speed", action="store_true")
    args = parser.parse_args()
    roots = args.data or [Path("tests/data/prose_campaign")]
    for root in roots:
        gold = Gold.model_validate(yaml.safe_load((root / "gold.yaml").read_text("utf-8")))
        docs = _documents(root / "world")
        scores = score(_extract(docs), gold)
        print(f"{root}: " + ", ".join(f"{k} {v:.2f}" for k, v in scores.items()))
    if not args.no_speed:
        megabytes, rate = speed(_documents(roots[0] / "world"))
        print(f"offline ingest speed: {rate:.1f} MB/min ({megabytes:.2f} MB in one extraction)")


if __name__ == "__main__":
    main()
