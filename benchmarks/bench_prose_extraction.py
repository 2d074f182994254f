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

``--names CAMPAIGN`` (repeatable) scores a campaign whose ``world/names.yaml`` is a hand-made
list of its real entities (``examples/saltreach`` and the like): only ``world/lore/`` and
``world/sessions/`` are extracted, as ``loregraph ingest`` of a prose-only copy would, and the
name list is the gold (:func:`score_names`).

    PYTHONPATH=. python benchmarks/bench_prose_extraction.py \
        [--data tests/data/prose_campaign] [--data tests/data/prose_heldout] \
        [--names examples/saltreach --names examples/duneveil ...]
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Sequence
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


class NamedEntity(BaseModel):
    """One entry of a campaign's ``names.yaml`` (its status is not scored here)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str
    name: str
    type: str
    aliases: tuple[str, ...] = ()
    gm_aliases: tuple[str, ...] = ()
    visibility: str = "party"


def _in_prose(text: str, prose: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(text) + r"(?!\w)", prose, re.IGNORECASE) is not None


def score_names(
    extraction: Extraction, names: Sequence[NamedEntity], prose: str
) -> dict[str, float]:
    """The scores of a prose-only extraction against a campaign's name list:

    - recall: listed entities whose name or one of its aliases resolves to an extracted entity
      (over those the prose names at all);
    - precision: extracted entities whose name (or, failing that, one of its aliases) is a
      listed name or alias ("Eydis Brandsdottir", alias "Jarl Eydis"); ``split``: how many
      of those name an entity another extracted entity already names ("Black Tide" beside
      "Black Tide Smugglers");
    - type accuracy over the recalled, and how many of the misses are confident wrong types
      (not ``Other``);
    - alias links: listed aliases written in the prose (party ones) that resolve to the same
      extracted entity as their entity's name (or the entity it was recalled by);
    - GM leaks: a GM-only entity's name or alias, or a GM alias, that a player resolves to a
      party-visible extracted entity (must be 0).
    """
    entities = [e for e in extraction.entities if e.id != PARTY_ID]
    found = EntityResolver(entities)
    truth = EntityResolver(
        Entity(id=n.id, name=n.name, type=n.type, aliases=n.aliases) for n in names
    )
    named = [n for n in names if any(_in_prose(t, prose) for t in (n.name, *n.aliases))]
    hits: dict[str, str] = {}
    for n in named:
        eid = next((e for t in (n.name, *n.aliases) if (e := found.resolve(t))), None)
        if eid is not None:
            hits[n.id] = eid
    types = {n.id: n.type for n in names}
    typed = [(types[gid], found.get(eid)) for gid, eid in hits.items()]
    right_type = sum(e is not None and e.type == t for t, e in typed)
    wrong_guess = sum(e is not None and e.type not in (t, "Other") for t, e in typed)
    listed = [
        next((g for t in (e.name, *e.aliases) if (g := truth.resolve(t, include_gm=False))), None)
        for e in entities
    ]
    right = sum(gid is not None for gid in listed)
    split = right - len({gid for gid in listed if gid is not None})
    aliases = [
        (n.id, alias) for n in names if n.visibility == "party" for alias in n.aliases
        if _in_prose(alias, prose)
    ]  # fmt: skip
    linked = sum(
        gid in hits and found.resolve(alias, include_gm=False) == hits[gid]
        for gid, alias in aliases
    )
    secrets = [
        *(t for n in names if n.visibility == "gm" for t in (n.name, *n.aliases)),
        *(a for n in names for a in n.gm_aliases),
    ]
    leaks = 0
    for secret in secrets:
        eid = found.resolve(secret, include_gm=False)
        entity = found.get(eid) if eid else None
        leaks += entity is not None and entity.visibility == "party"
    return {
        "listed": len(named),
        "entities": len(entities),
        "recall": _ratio(len(hits), len(named)),
        "precision": _ratio(right, len(entities)),
        "split": split,
        "type_accuracy": _ratio(right_type, len(hits)),
        "wrong_types": wrong_guess,
        "alias_links": _ratio(linked, len(aliases)),
        "aliases_in_prose": len(aliases),
        "gm_leaks": leaks,
    }


def names_report(campaign: Path, verbose: bool = False) -> dict[str, float]:
    """Score the prose-only extraction of ``campaign/world`` against its ``names.yaml``."""
    world = campaign / "world"
    raw = yaml.safe_load((world / "names.yaml").read_text("utf-8"))
    names = [NamedEntity.model_validate(item) for item in raw["entities"]]
    docs = [d for d in _documents(world) if d.path.startswith(("lore/", "sessions/"))]
    extraction = _extract(docs)
    prose = " ".join(" ".join(d.text.split()) for d in docs)  # a name may wrap a line
    scores = score_names(extraction, names, prose)
    if verbose:
        _explain(extraction, names)
    return scores


def _explain(extraction: Extraction, names: Sequence[NamedEntity]) -> None:
    entities = [e for e in extraction.entities if e.id != PARTY_ID]
    found = EntityResolver(entities)
    truth = EntityResolver(
        Entity(id=n.id, name=n.name, type=n.type, aliases=n.aliases) for n in names
    )
    for n in names:
        eid = next((e for t in (n.name, *n.aliases) if (e := found.resolve(t))), None)
        got = found.get(eid) if eid else None
        if got is None:
            print(f"  MISS {n.name} ({n.type})")
            continue
        missing = [a for a in n.aliases if found.resolve(a) != eid]
        note = "" if got.type == n.type else f" TYPE {got.type} != {n.type}"
        print(f"  hit {n.name} -> {got.name} [{got.type}]{note} aliases-missing={missing}")
    for extra in entities:
        if all(truth.resolve(t) is None for t in (extra.name, *extra.aliases)):
            print(f"  EXTRA {extra.name} [{extra.type}] aliases={list(extra.aliases)}")


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
    parser.add_argument("--names", type=Path, action="append", default=[])
    parser.add_argument("--verbose", action="store_true", help="list misses and extras")
    parser.add_argument("--no-speed", action="store_true")
    args = parser.parse_args()
    for campaign in args.names:
        scores = names_report(campaign, args.verbose)
        print(f"{campaign} (names.yaml): " + ", ".join(f"{k} {v:.2f}" for k, v in scores.items()))
    if args.names and not args.data:
        return
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
