"""Would the shipped embedding model type prose entities better than cue words?

For every gold entity the offline extractor finds, embed its description (the quoted
sentence) with all-MiniLM-L6-v2 and take the nearest *type prototype* (a sentence describing
each type). Reported: the prototype's type accuracy alone, the cue words' accuracy, and what
the prototype says for the entities the cue words left ``Other``. A measurement only: the
extractor uses cue words (see docs/benchmarks.md for the decision).

    PYTHONPATH=. python benchmarks/bench_prose_prototypes.py \
        --data tests/data/prose_campaign --data tests/data/prose_heldout
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import yaml

from benchmarks.bench_prose_extraction import Gold, _documents, _extract
from extraction.resolution import EntityResolver
from graphrag_core.providers.sentence_transformers import SentenceTransformerEmbedder

PROTOTYPES = {
    "NPC": "a person: a man or a woman, an innkeeper, a priest, a merchant, a soldier",
    "PC": "a player character, one of the adventurers in the party",
    "Location": "a place: a town, a village, an inn, a temple, a river, a forest, a keep",
    "Faction": "a group of people: a guild, an order, a gang, a council, a cult",
    "Item": "an object: a sword, a crown, a key, a ring, a relic, a pearl",
    "Deity": "a god or goddess who is worshipped",
    "Creature": "a beast or monster: a wolf, a dragon, a wraith",
    "Event": "an event in history: a flood, a battle, a festival, a storm",
    "Quest": "a quest, a task the party must do",
}


def _cosine(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)) or 1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, action="append")
    args = parser.parse_args()
    embedder = SentenceTransformerEmbedder()
    kinds = list(PROTOTYPES)
    prototypes = dict(zip(kinds, embedder.embed([PROTOTYPES[k] for k in kinds]), strict=True))
    for root in args.data or [Path("tests/data/prose_campaign")]:
        gold = Gold.model_validate(yaml.safe_load((root / "gold.yaml").read_text("utf-8")))
        extraction = _extract(_documents(root / "world"))
        found = EntityResolver(extraction.entities)
        pairs = [(g, found.get(found.resolve(g.name) or "")) for g in gold.entities]
        matched = [(g, e) for g, e in pairs if e is not None and e.description]
        vectors = embedder.embed([f"{e.name}: {e.description}" for _, e in matched])
        nearest = [max(kinds, key=lambda k, v=v: _cosine(v, prototypes[k])) for v in vectors]
        cues = sum(e.type == g.type for g, e in matched)
        proto = sum(n == g.type for (g, _), n in zip(matched, nearest, strict=True))
        others = [(g.type, n) for (g, e), n in zip(matched, nearest, strict=True)
                  if e.type == "Other"]  # fmt: skip
        print(f"{root}: {len(matched)} entities; cue words {cues / len(matched):.2f}, "
              f"prototype {proto / len(matched):.2f}; left Other by cues, "
              f"(gold, prototype): {others}")  # fmt: skip


if __name__ == "__main__":
    main()
