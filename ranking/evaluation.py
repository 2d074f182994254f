"""The figures of ``loregraph eval``, computed from what each system offered per question.

For one question with gold entities ``G`` and the entities a system offered, in rank order
(duplicates dropped; see :mod:`ranking.baselines` for what a passage offers):

- ``P@5`` = gold entities in the top 5 / 5; ``nP@5`` = the same / ``min(5, |G|)``;
- ``MRR@10`` = 1 / rank of the first gold entity in the top 10 (0 when none);
- a **hallucination**: a forbidden entity (dead, destroyed, hostile, ... now) offered *as
  available* in the top 5 of a current-state question (``current_state``, ``status_trap``);
  a baseline marks nothing unavailable, so whatever it offers it offers as available;
- **as-of accuracy** (``as_of`` questions): a gold entity in the top 5, and every
  ``expect_status`` entity reported with that status (a system that reports no status gets
  such a question wrong);
- latency p50 / p95 over the questions, in milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ranking.eval_models import (
    CURRENT_TYPES,
    EvalQuestion,
    Figures,
    Offer,
    QuestionOutcome,
    SystemReport,
)

TOP = 5
MRR_DEPTH = 10
RATIO_METRICS = ("p_at_5", "np_at_5", "mrr_at_10", "as_of_accuracy")


@dataclass(frozen=True)
class Run:
    """One system's answer to one question."""

    offers: tuple[Offer, ...]
    seconds: float


def dedupe(offers: Sequence[Offer]) -> tuple[Offer, ...]:
    """The first offer of each entity, in order."""
    seen: dict[str, Offer] = {}
    for offer in offers:
        seen.setdefault(offer.entity_id, offer)
    return tuple(seen.values())


def hits(offers: Sequence[Offer], gold: Sequence[str], n: int = TOP) -> int:
    wanted = set(gold)
    return sum(offer.entity_id in wanted for offer in offers[:n])


def reciprocal_rank(offers: Sequence[Offer], gold: Sequence[str], n: int = MRR_DEPTH) -> float:
    wanted = set(gold)
    for rank, offer in enumerate(offers[:n], start=1):
        if offer.entity_id in wanted:
            return 1.0 / rank
    return 0.0


def hallucinated(question: EvalQuestion, offers: Sequence[Offer]) -> tuple[str, ...]:
    """Forbidden entities offered as available in the top 5 of a current-state question."""
    if question.type not in CURRENT_TYPES:
        return ()
    banned = set(question.forbidden)
    return tuple(o.entity_id for o in offers[:TOP] if o.entity_id in banned and o.available)


def as_of_correct(question: EvalQuestion, offers: Sequence[Offer]) -> bool:
    top = {o.entity_id: o for o in offers[:TOP]}
    if not hits(offers, question.gold):
        return False
    return all(
        eid in top and top[eid].status == status for eid, status in question.expect_status.items()
    )


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def figures(pairs: Sequence[tuple[EvalQuestion, Run]]) -> Figures:
    current = [(q, r) for q, r in pairs if q.type in CURRENT_TYPES]
    as_of = [(q, r) for q, r in pairs if q.type == "as_of"]
    millis = [r.seconds * 1000.0 for _, r in pairs]
    return Figures(
        questions=len(pairs),
        p_at_5=_mean([hits(r.offers, q.gold) / TOP for q, r in pairs]) or 0.0,
        np_at_5=_mean([hits(r.offers, q.gold) / min(TOP, len(q.gold)) for q, r in pairs]) or 0.0,
        mrr_at_10=_mean([reciprocal_rank(r.offers, q.gold) for q, r in pairs]) or 0.0,
        hallucination_rate=_mean([float(bool(hallucinated(q, r.offers))) for q, r in current]),
        as_of_accuracy=_mean([float(as_of_correct(q, r.offers)) for q, r in as_of]),
        latency_p50_ms=round(percentile(millis, 0.5), 3),
        latency_p95_ms=round(percentile(millis, 0.95), 3),
    )


def system_report(name: str, pairs: Sequence[tuple[EvalQuestion, Run]]) -> SystemReport:
    types = sorted({q.type for q, _ in pairs})
    return SystemReport(
        name=name,
        overall=figures(pairs),
        by_type={t: figures([(q, r) for q, r in pairs if q.type == t]) for t in types},
    )


def outcome(name: str, question: EvalQuestion, run: Run) -> QuestionOutcome:
    return QuestionOutcome(
        question=question.question,
        type=question.type,
        system=name,
        offered=tuple(o.entity_id for o in run.offers[:MRR_DEPTH]),
        reciprocal_rank=reciprocal_rank(run.offers, question.gold),
        hallucinated=hallucinated(question, run.offers),
    )


def ratios(system: SystemReport, baseline: SystemReport) -> dict[str, float | None]:
    """``system / baseline`` per metric (None where the baseline scored 0 or has no figure)."""
    found: dict[str, float | None] = {}
    for metric in RATIO_METRICS:
        ours, theirs = getattr(system.overall, metric), getattr(baseline.overall, metric)
        found[metric] = round(ours / theirs, 3) if ours is not None and theirs else None
    return found
