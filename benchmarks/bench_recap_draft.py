"""Score the offline recap draft against hand-made gold: stated changes found, hedged wording
never proposed, precision.

Corpora (each: known entities, prose recaps, gold changes and hedged non-changes):

* ``tests/data/recap_draft``: five recaps written for this benchmark (issue 10, part B);
* ``tests/data/prose_campaign``: the prose-only campaign's ten recaps (issue 10, part A), when
  present; its known entities are those of its gold file.
* ``examples/emberfall``: the example campaign's seven prose recaps (written before this
  drafter, never read while writing its patterns), scored against the example's hand-written
  changelogs of the same sessions, restricted to the statuses the drafter proposes (dead,
  destroyed, disbanded, missing, lost, captured, alive) and hostility between an entity and the
  party; its known entities are those the offline extraction of its world finds. A changelog
  may hold a change its recap does not state in words, so recall here is a lower bound.

A proposal is *correct* when a gold change of its session names the same entity with the same
status (or a hostile attitude toward the party); a *hedged proposal* is one whose quote holds a
hedged gold quote of its session. Recall of deaths and destructions counts gold changes to
``dead``/``destroyed`` only; gold about something the campaign does not know by name
(``named_entity: false``) is reported apart, as no resolver can name it.

    python benchmarks/bench_recap_draft.py [--json] [--data tests/data]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from changelog.normalise import PARTY_NAMES
from extraction.offline import extract
from extraction.recap import normalise_quote as normalise
from extraction.recap_offline import draft_offline
from extraction.resolution import EntityResolver
from extraction.sessions import session_number
from graphrag_core.config import IngestSettings
from graphrag_core.models import Entity, SourceDocument
from graphrag_core.services.ingest import read_sources

ROOT = Path(__file__).resolve().parents[1] / "tests" / "data"
FATAL = ("dead", "destroyed")


@dataclass
class Score:
    corpus: str
    recaps: int = 0
    proposed: int = 0
    correct: int = 0
    gold: int = 0
    found: int = 0
    fatal: int = 0
    fatal_found: int = 0
    unnamed: int = 0
    hedged: int = 0
    hedged_proposed: int = 0
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)


def corpora(root: Path = ROOT) -> list[tuple[str, list[Entity], Path, dict[int, Any]]]:
    found = []
    mine = root / "recap_draft"
    found.append(("recap_draft (part B)", _entities(mine / "entities.yaml"), mine / "sessions",
                  _gold(mine / "gold.yaml")))  # fmt: skip
    theirs = root / "prose_campaign"
    if (theirs / "gold_recap_changes.yaml").is_file():
        found.append(("prose_campaign (part A)", _entities(theirs / "gold.yaml"),
                      theirs / "world" / "sessions",
                      _gold(theirs / "gold_recap_changes.yaml")))  # fmt: skip
    found.append(emberfall())
    return found


PROPOSABLE = frozenset({"dead", "destroyed", "disbanded", "missing", "lost", "captured", "alive"})
EXAMPLE = ROOT.parents[1] / "examples" / "emberfall"


def emberfall() -> tuple[str, list[Entity], Path, dict[int, Any]]:
    """The example's recaps, with gold from its changelogs (see the module docstring)."""
    documents = read_sources(EXAMPLE / "world").documents
    entities = list(extract(documents, chunk_size=IngestSettings().chunk_size).entities)
    resolver = EntityResolver(entities)
    names = {e.id: e.name for e in entities}
    gold: dict[int, Any] = {}
    for path in sorted((EXAMPLE / "changelog").glob("session-*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        changes = [
            {"entity": names[i], "status": u["status"]}
            for u in data.get("entity_updates") or []
            if u.get("status") in PROPOSABLE and (i := resolver.resolve(u["entity_id"]))
        ]
        for rel in data.get("relationship_updates") or []:
            ends = [str(rel["from"]), str(rel["to"])]
            other = [e for e in ends if e.casefold() not in PARTY_NAMES]
            hostile = rel.get("new_status") == "hostile" and len(other) == 1
            if hostile and (entity_id := resolver.resolve(other[0])):
                changes.append({"entity": names[entity_id], "attitude": "hostile"})
        gold[int(data["session_id"])] = {"changes": changes, "hedged": []}
    return ("emberfall example (blind)", entities, EXAMPLE / "world" / "sessions", gold)


def _entities(path: Path) -> list[Entity]:
    items = yaml.safe_load(path.read_text("utf-8"))["entities"]
    return [
        Entity(id=f"e{i}", name=e["name"], type=e["type"], aliases=tuple(e.get("aliases", ())))
        for i, e in enumerate(items)
    ]


def _gold(path: Path) -> dict[int, Any]:
    return {int(k): v for k, v in yaml.safe_load(path.read_text("utf-8"))["sessions"].items()}


def score(name: str, entities: list[Entity], sessions: Path, gold: dict[int, Any]) -> Score:
    result = Score(name)
    by_name = {n.casefold(): e for e in entities for n in (*e.aliases, e.name)}
    for path in sorted(sessions.glob("*.md")):
        text = path.read_text("utf-8")
        doc = SourceDocument(path=path.name, kind="markdown", sha256=_sha(text), text=text)
        session = session_number(doc)
        assert session is not None, f"{path} is no session record"
        started = time.perf_counter()
        draft = draft_offline(text, session=session, entities=entities)
        result.seconds += time.perf_counter() - started
        result.recaps += 1
        _compare(result, draft.changeset, gold.get(session, {}), by_name, session)
    return result


def _compare(
    result: Score, changeset: dict[str, Any], gold: dict[str, Any], by_name: dict[str, Entity],
    session: int,
) -> None:  # fmt: skip
    proposals = [(u["entity_id"], u["status"], u["quote"]) for u in changeset["entity_updates"]]
    proposals += [(u["from"], "hostile", u["quote"]) for u in changeset["relationship_updates"]]
    wanted = set()
    for change in gold.get("changes") or []:
        entity = by_name.get(change["entity"].casefold())
        value = change.get("status") or change.get("attitude")
        fatal = value in FATAL
        if entity is None or change.get("named_entity") is False or change.get("target"):
            result.unnamed += 1
            continue
        result.gold += 1
        result.fatal += fatal
        key = (entity.id, value)
        wanted.add(key)
        if any((p[0], p[1]) == key for p in proposals):
            result.found += 1
            result.fatal_found += fatal
        else:
            result.misses.append(f"s{session} {change['entity']} {value}")
    hedges = [normalise(h["quote"]) for h in gold.get("hedged") or []]
    result.hedged += len(hedges)
    for entity_id, value, quote in proposals:
        result.proposed += 1
        if (entity_id, value) in wanted:
            result.correct += 1
            continue
        result.wrong.append(f"s{session} {entity_id} {value}: {quote!r}")
        result.hedged_proposed += any(h in normalise(quote) for h in hedges)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def report(s: Score) -> dict[str, Any]:
    return {
        "corpus": s.corpus, "recaps": s.recaps, "gold_changes": s.gold,
        "recall": round(_ratio(s.found, s.gold), 3),
        "deaths_destructions": s.fatal,
        "deaths_destructions_recall": round(_ratio(s.fatal_found, s.fatal), 3),
        "proposed": s.proposed, "precision": round(_ratio(s.correct, s.proposed), 3),
        "hedged_in_gold": s.hedged, "hedged_proposed": s.hedged_proposed,
        "unnamed_or_not_toward_party": s.unnamed, "ms_per_recap": round(
            1000 * s.seconds / max(s.recaps, 1), 2),
        "misses": s.misses, "wrong": s.wrong,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--data", type=Path, default=ROOT, help="folder holding the corpora")
    args = parser.parse_args()
    rows = [report(score(*corpus)) for corpus in corpora(args.data)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(f"{row['corpus']}: {row['recaps']} recaps, {row['gold_changes']} gold changes")
        print(f"  deaths/destructions found {row['deaths_destructions_recall']:.2f} "
              f"(of {row['deaths_destructions']}); all changes found {row['recall']:.2f}; "
              f"precision {row['precision']:.2f} ({row['proposed']} proposed); hedged "
              f"proposed {row['hedged_proposed']} (of {row['hedged_in_gold']} hedged in gold); "
              f"{row['ms_per_recap']} ms per recap")  # fmt: skip
        for line in row["misses"]:
            print(f"  missed: {line}")
        for line in row["wrong"]:
            print(f"  wrong:  {line}")
        if row["unnamed_or_not_toward_party"]:
            print(f"  not scored: {row['unnamed_or_not_toward_party']} gold change(s) about an "
                  "unnamed thing or an attitude toward someone else")  # fmt: skip


if __name__ == "__main__":
    main()
