"""Evaluate a labelled campaign on its PROSE ONLY: no name list, as a new user's campaign arrives.

    python benchmarks/prose_only.py sallowmere --data-dir /tmp/po --out /tmp/po-out

For ``examples/<c>`` this copies ``world/lore`` and ``world/sessions`` (nothing else: no
``names.yaml``) into a scratch folder and runs the same commands a user would, through the CLI:

1. ``loregraph ingest`` of the copy as campaign ``<c>-prose`` (the offline extractor, no model);
2. ``loregraph changelog post`` of each ``examples/<c>/changelog/*.yaml`` in order, with every
   names.yaml id written as the first of its name and aliases the prose-only graph knows (the
   prose may only say "Ma Dorsey" for the list's "Margaret Dorsey"), else its name (a post
   resolves a name, an alias or a near name). An update naming an entity the extractor did
   not find is refused by the post; the refused updates are dropped, the rest of the set is
   posted again, and the report lists what was dropped;
3. ``loregraph eval benchmarks/questions/<c>.yaml`` with every label (gold, forbidden,
   ``expect_status``) written the same way: a label that names nothing in the prose-only graph
   stays a miss and is listed in the report's ``unresolved``.

Prints one summary line per campaign and writes ``OUT/<c>-prose.json`` (the eval report) and
``OUT/<c>-prose-setup.txt`` (what was dropped). Needs ``loregraph`` on PATH (``make demo``).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
_REFUSED = re.compile(r"(entity_updates|relationship_updates)\[(\d+)\]")


def _spellings(campaign: str) -> dict[str, list[str]]:
    """Each names.yaml id's name, then its (player-visible) aliases."""
    listed = ROOT / "examples" / campaign / "world" / "names.yaml"
    if not listed.is_file():
        raise SystemExit(
            f"examples/{campaign} has no world/names.yaml: the prose-only run labels its graph "
            "by the campaign's name list; pick a campaign that has one"
        )
    raw = yaml.safe_load(listed.read_text())
    return {
        str(e["id"]): [str(e["name"]), *(str(a) for a in e.get("aliases") or ())]
        for e in raw["entities"]
    }


def _as_known(data_dir: Path, campaign: str, spellings: dict[str, list[str]]) -> dict[str, str]:
    """Each id written as the first of its name and aliases the prose-only graph knows (the
    prose may only ever say "Ma Dorsey" for the list's "Margaret Dorsey"); the name when it
    knows none. Resolved as ``loregraph entity`` resolves, by the service itself."""
    from graphrag_core.errors import UnknownEntityError
    from graphrag_core.settings import Settings
    from graphrag_core.wiring import open_service

    known: dict[str, str] = {}
    with open_service(Settings(data_dir=data_dir)) as service:
        for entity_id, names in spellings.items():
            known[entity_id] = names[0]
            for name in names:
                try:
                    service.entity(name, campaign)
                except UnknownEntityError:
                    continue
                known[entity_id] = name
                break
    return known


def _by_spelling(spellings: dict[str, list[str]], known: dict[str, str]) -> dict[str, str]:
    """``known`` (id → the spelling the prose-only graph knows) plus every names.yaml name and
    alias of one id → that spelling: most change sets name their entities ("Dr Ezra Quill")
    rather than giving ids. A spelling two ids share is left out."""
    owners: dict[str, set[str]] = {}
    for entity_id, names in spellings.items():
        for name in names:
            owners.setdefault(name, set()).add(entity_id)
    spelled = {name: known[ids.pop()] for name, ids in owners.items() if len(ids) == 1}
    return {**spelled, **known}


_REFERENCES = frozenset(
    ("entity_id", "from", "to", "target", "killed_by", "destroyed_by", "captured_by", "held_by")
)
"""The change-set keys whose values name entities (a note or a status word is left alone)."""


def _named(value: Any, names: dict[str, str], *, keys: frozenset[str] | None = None) -> Any:
    """``value`` with every entity reference (alone, or in a list or mapping) written as the
    name the prose-only graph knows. With ``keys``, only the values of those mapping keys (at
    any depth) are references: a note or a status word is never rewritten."""
    if isinstance(value, str):
        return value if keys is not None else names.get(value, value)
    if isinstance(value, list):
        return [_named(v, names, keys=keys) for v in value]
    if not isinstance(value, dict):
        return value
    if keys is None:
        return {names.get(k, k) if isinstance(k, str) else k: v for k, v in value.items()}
    refs = keys
    return {
        k: _named(v, names) if k in refs else _named(v, names, keys=refs) for k, v in value.items()
    }


def _loregraph(args: list[str], data_dir: Path) -> subprocess.CompletedProcess[str]:
    command = ["loregraph", "--data-dir", str(data_dir), *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _post(
    path: Path, change_set: dict[str, Any], campaign: str, data_dir: Path, log: list[str]
) -> None:
    """Post ``change_set``; drop the updates a refusal names and post the rest once more."""
    path.write_text(yaml.safe_dump(change_set, sort_keys=False, allow_unicode=True))
    done = _loregraph(["changelog", "post", str(path), "-c", campaign], data_dir)
    if done.returncode == 0:
        log.append(f"{path.name}: posted whole")
        return
    refused = {(m.group(1), int(m.group(2))) for m in _REFUSED.finditer(done.stdout + done.stderr)}
    if not refused:
        log.append(f"{path.name}: NOT POSTED: {(done.stdout + done.stderr).strip()}")
        return
    for key in ("entity_updates", "relationship_updates"):
        kept = []
        for i, update in enumerate(change_set.get(key) or []):
            if (key, i) in refused:
                log.append(
                    f"{path.name}: dropped {key}[{i}] {json.dumps(update, ensure_ascii=False)}"
                )
            else:
                kept.append(update)
        change_set[key] = kept
    path.write_text(yaml.safe_dump(change_set, sort_keys=False, allow_unicode=True))
    again = _loregraph(["changelog", "post", str(path), "-c", campaign], data_dir)
    state = "posted the rest" if again.returncode == 0 else f"NOT POSTED: {again.stderr.strip()}"
    log.append(f"{path.name}: {state}")


def run(campaign: str, data_dir: Path, out: Path) -> dict[str, Any]:
    target = f"{campaign}-prose"
    spellings = _spellings(campaign)  # no name list: said before anything is ingested
    log: list[str] = []
    with tempfile.TemporaryDirectory(prefix=f"{target}-") as scratch:
        prose = Path(scratch) / target
        for part in ("lore", "sessions"):
            shutil.copytree(ROOT / "examples" / campaign / "world" / part, prose / part)
        done = _loregraph(["ingest", str(prose), "-c", target], data_dir)
        if done.returncode != 0:
            raise SystemExit(f"ingest of {campaign}'s prose failed: {done.stderr.strip()}")
        names = _by_spelling(spellings, _as_known(data_dir, target, spellings))
        for source in sorted((ROOT / "examples" / campaign / "changelog").glob("*.yaml")):
            change_set = _named(yaml.safe_load(source.read_text()), names, keys=_REFERENCES)
            _post(Path(scratch) / source.name, change_set, target, data_dir, log)
        questions = yaml.safe_load(
            (ROOT / "benchmarks" / "questions" / f"{campaign}.yaml").read_text()
        )
        questions["campaign"] = target
        for q in questions["questions"]:
            for key in ("gold", "forbidden", "expect_status"):
                if key in q:
                    q[key] = _named(q[key], names)
        qfile = Path(scratch) / f"{target}.yaml"
        qfile.write_text(yaml.safe_dump(questions, sort_keys=False, allow_unicode=True))
        report_path = out / f"{target}.json"
        done = _loregraph(["eval", str(qfile), "-c", target, "-o", str(report_path)], data_dir)
        if done.returncode != 0:
            raise SystemExit(f"eval of {target} failed: {done.stderr.strip()}")
    (out / f"{target}-setup.txt").write_text("\n".join(log) + "\n")
    report: dict[str, Any] = json.loads(report_path.read_text())
    overall = {s["name"]: s["overall"] for s in report["systems"]}
    rk, se = overall["ranker"], overall["semantic-only"]
    dropped = sum(1 for line in log if ": dropped " in line)
    print(
        f"{target:16s} MRR@10 {rk['mrr_at_10']:.3f} semantic {se['mrr_at_10']:.3f} "
        f"ratio {rk['mrr_at_10'] / se['mrr_at_10']:.2f} nP@5 {rk['np_at_5']:.3f} "
        f"halluc {rk['hallucination_rate']:.3f} as-of {rk['as_of_accuracy']:.3f} "
        f"unresolved {len(report.get('unresolved', []))} dropped updates {dropped}"
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("campaigns", nargs="+", help="examples/<campaign> names, e.g. sallowmere")
    parser.add_argument("--data-dir", type=Path, required=True, help="a scratch data dir")
    parser.add_argument("--out", type=Path, required=True, help="where reports go")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for campaign in args.campaigns:
        run(campaign, args.data_dir, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
