"""The figures of ``loregraph eval`` on hand-computed fixtures."""

from __future__ import annotations

import pytest

from ranking.eval_models import EvalQuestion, Offer
from ranking.evaluation import (
    Run,
    as_of_correct,
    figures,
    hallucinated,
    percentile,
    ratios,
    reciprocal_rank,
    system_report,
)


def offers(*ids: str, unavailable: tuple[str, ...] = ()) -> tuple[Offer, ...]:
    return tuple(Offer(entity_id=i, available=i not in unavailable) for i in ids)


def q(gold: tuple[str, ...], kind: str = "lookup", **extra: object) -> EvalQuestion:
    return EvalQuestion.model_validate({"question": "?", "type": kind, "gold": gold, **extra})


def test_precision_normalised_precision_and_mrr_by_hand() -> None:
    first = (q(("b", "x")), Run(offers("a", "b", "c"), 0.010))
    second = (q(("a", "b", "c", "d", "e", "f")), Run(offers("z", "y", "a", "b", "c"), 0.030))
    third = (q(("k",)), Run(offers(*"abcdefghij", "k"), 0.020))  # k is 11th: no MRR@10
    result = figures([first, second, third])
    assert result.p_at_5 == pytest.approx((1 / 5 + 3 / 5 + 0) / 3)
    assert result.np_at_5 == pytest.approx((1 / 2 + 3 / 5 + 0) / 3)
    assert result.mrr_at_10 == pytest.approx((1 / 2 + 1 / 3 + 0) / 3)
    assert (result.latency_p50_ms, result.latency_p95_ms) == (20.0, 30.0)
    assert result.hallucination_rate is None and result.as_of_accuracy is None


def test_hallucination_is_a_forbidden_entity_offered_as_available_in_the_top_5() -> None:
    trap = q(("inn",), "status_trap", forbidden=("tavern",))
    assert hallucinated(trap, offers("inn", "tavern")) == ("tavern",)
    assert hallucinated(trap, offers("inn", "tavern", unavailable=("tavern",))) == ()
    assert hallucinated(trap, offers("a", "b", "c", "d", "e", "tavern")) == ()
    lore = q(("inn",), "lookup", forbidden=("tavern",))
    assert hallucinated(lore, offers("tavern")) == ()  # only current-state questions count
    rate = figures([(trap, Run(offers("tavern"), 0.0)), (trap, Run(offers("inn"), 0.0))])
    assert rate.hallucination_rate == 0.5


def test_as_of_needs_the_gold_entity_and_the_expected_status() -> None:
    question = q(("torven",), "as_of", as_of=3, expect_status={"torven": "alive"})
    alive = (Offer(entity_id="torven", status="alive"),)
    dead = (Offer(entity_id="torven", status="dead"),)
    assert as_of_correct(question, alive)
    assert not as_of_correct(question, dead)
    assert not as_of_correct(question, (Offer(entity_id="torven"),))  # no status reported
    assert not as_of_correct(question, offers("x"))


def test_ratios_and_per_type_figures() -> None:
    a, b = q(("x",)), q(("y",), "relationship")
    ours = system_report("ranker", [(a, Run(offers("x"), 0.0)), (b, Run(offers("y"), 0.0))])
    theirs = system_report("base", [(a, Run(offers("z", "x"), 0.0)), (b, Run(offers(), 0.0))])
    assert set(ours.by_type) == {"lookup", "relationship"}
    assert theirs.by_type["lookup"].mrr_at_10 == 0.5
    assert ratios(ours, theirs)["mrr_at_10"] == 4.0
    assert ratios(ours, theirs)["as_of_accuracy"] is None


def test_percentile_is_nearest_rank() -> None:
    assert percentile([], 0.95) == 0.0
    assert percentile([float(v) for v in range(1, 101)], 0.95) == 95.0
    assert reciprocal_rank(offers("a"), ("b",)) == 0.0
