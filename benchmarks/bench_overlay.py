"""Cost of the changelog overlay: 10k changes over 10k entities (target: ≤ 5 ms per query).

Run: ``python benchmarks/bench_overlay.py [--entities N] [--changes N] [--runs N]``.
Prints p50 / p95 milliseconds over repeated runs: the per-query path (base states computed once
per graph version and reused), the from-scratch path, and the parts. Changes are spread
uniformly at random over the entities (about 60 % of them touched), half of them GM-only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from changelog.overlay import OverlayMemo, base_states, effective_changes, effective_states
from graphrag_core.models import PARTY_ID, Change, Entity

STATUSES = ("alive", "dead", "missing", "captured")
ATTITUDES = ("allied", "neutral", "hostile")
VISIBLE = ("party", "gm")


def make_entities(count: int) -> dict[str, Entity]:
    return {
        f"npc-{i}": Entity(id=f"npc-{i}", name=f"NPC {i}", type="NPC", status="alive")
        for i in range(count)
    }


def make_changes(count: int, entity_count: int, seed: int = 7) -> list[Change]:
    rng = random.Random(seed)
    changes = []
    for n in range(count):
        session, seq = 1 + n // 100, 1 + n % 100
        entity = f"npc-{rng.randrange(entity_count)}"
        other = rng.choice((PARTY_ID, f"npc-{rng.randrange(entity_count)}"))
        kind = ("entity_status", "entity_property", "relationship")[n % 3]
        changes.append(
            Change(
                id=f"s{session}-r1-{seq}",
                session_id=session,
                seq=seq,
                kind=kind,
                entity_id=entity,
                field={"entity_status": "status", "entity_property": "owner"}.get(kind, "attitude"),
                new_value=rng.choice(ATTITUDES if kind == "relationship" else STATUSES),
                target_id=other if kind == "relationship" else None,
                visibility=rng.choice(("party", "gm")),
            )
        )
    return changes


def measure(runs: int, call: Callable[[], object]) -> tuple[float, float]:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    return statistics.median(timings), timings[round(0.95 * (len(timings) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--changes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    entities = make_entities(args.entities)
    changes = make_changes(args.changes, args.entities)
    base = base_states(entities)
    memo = OverlayMemo(entities, changes)
    print(f"overlay: {args.changes} changes over {args.entities} entities, {args.runs} runs")
    cases: dict[str, Callable[[], object]] = {
        "effective_changes (filter + order)": lambda: effective_changes(
            changes, visibilities=VISIBLE
        ),
        "effective_states, base precomputed": lambda: effective_states(
            entities, changes, visibilities=VISIBLE, base=base
        ),
        "effective_states, from scratch": lambda: effective_states(
            entities, changes, visibilities=VISIBLE
        ),
        "base_states (once per graph)": lambda: base_states(entities),
        "OverlayMemo.states, warm (per query)": lambda: memo.states(visibilities=VISIBLE),
    }
    for name, call in cases.items():
        p50, p95 = measure(args.runs, call)
        print(f"  {name:<38} p50 {p50:7.2f} ms   p95 {p95:7.2f} ms")


if __name__ == "__main__":
    main()
