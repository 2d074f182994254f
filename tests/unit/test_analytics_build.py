"""Whole builds (``build_snapshot``) on synthetic campaigns: stability of ids, versions and
summaries across rebuilds, the party's own clustering, and who writes the summaries."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import igraph as ig
import pytest

from graphrag_core.analytics.build import BuildOutcome, build_snapshot
from graphrag_core.analytics.runners import InProcessRunner
from graphrag_core.analytics_models import AnalyticsSnapshot, AudienceAnalytics
from graphrag_core.config import AnalyticsSettings
from graphrag_core.models import CampaignView, Entity, Relation
from graphrag_core.services.views import build_view
from tests.fakes import RecordingProgress
from tests.unit.test_analytics_summaries import FAIL, _scripted

SETTINGS = AnalyticsSettings()
GROUP = 40


def synthetic(n: int, seed: int = 7) -> tuple[list[Entity], list[Relation]]:
    """``n`` NPCs in groups of 40: four relations inside the group, one anywhere (seeded)."""
    rng = random.Random(seed)
    ids = [f"n{i:05d}" for i in range(n)]
    pairs = set()
    for i in range(n):
        base = i - i % GROUP
        pairs |= {(i, base + rng.randrange(GROUP)) for _ in range(4)}
        pairs.add((i, rng.randrange(n)))
    entities = [Entity(id=e, name=f"Npc {e}", type="NPC", description=f"{e} lives.") for e in ids]
    relations = [
        Relation(source=ids[a], target=ids[b], type="knows") for a, b in sorted(pairs) if a != b
    ]
    return entities, relations


def _views(
    entities: Sequence[Entity], relations: Sequence[Relation]
) -> tuple[CampaignView, CampaignView]:
    return (
        build_view("t", entities, relations, [], [], as_player=False),
        build_view("t", entities, relations, [], [], as_player=True),
    )


def _build(
    entities: Sequence[Entity],
    relations: Sequence[Relation],
    previous: AnalyticsSnapshot | None = None,
    **kwargs: object,
) -> BuildOutcome:
    gm, party = _views(entities, relations)
    settings = kwargs.pop("settings", SETTINGS)
    assert isinstance(settings, AnalyticsSettings)
    runner = InProcessRunner(settings)
    return build_snapshot(gm, party, previous, settings, runner=runner, built_at="", **kwargs)  # type: ignore[arg-type]


def _shape(analytics: AudienceAnalytics) -> dict[str, tuple[int, tuple[str, ...]]]:
    return {c.id: (c.version, c.members) for c in analytics.communities}


@pytest.fixture(scope="module")
def big() -> tuple[list[Entity], list[Relation], BuildOutcome]:
    entities, relations = synthetic(2000)
    return entities, relations, _build(entities, relations)


def test_unchanged_rebuild_keeps_every_id_and_summary(
    big: tuple[list[Entity], list[Relation], BuildOutcome],
) -> None:
    entities, relations, first = big
    again = _build(entities, relations, first.snapshot)
    total = len(first.snapshot.gm.communities) + len(first.snapshot.party.communities)
    assert total > 500
    assert again.snapshot == first.snapshot  # ids, versions, members, summaries: all of it
    assert (again.resummarised, again.reused_ids, again.reclustered) == (0, total, False)


def test_reclustering_unchanged_data_is_a_fixed_point(
    big: tuple[list[Entity], list[Relation], BuildOutcome],
) -> None:
    """Even when clustering runs (fingerprint forgotten), the warm start gives it all back."""
    entities, relations, first = big
    forgotten = first.snapshot.model_copy(
        update={
            "gm": first.snapshot.gm.model_copy(update={"fingerprint": ""}),
            "party": first.snapshot.party.model_copy(update={"fingerprint": ""}),
        }
    )
    again = _build(entities, relations, forgotten)
    assert again.reclustered and again.resummarised == 0
    assert _shape(again.snapshot.gm) == _shape(first.snapshot.gm)


def test_one_changed_relation_keeps_nearly_everything(
    big: tuple[list[Entity], list[Relation], BuildOutcome],
) -> None:
    entities, relations, first = big
    for changed in (
        [*relations, Relation(source="n00003", target="n01234", type="allied_with")],
        relations[:700] + relations[701:],
    ):
        again = _build(entities, changed, first.snapshot)
        old, new = _shape(first.snapshot.gm), _shape(again.snapshot.gm)
        kept_ids = len(old.keys() & new.keys()) / len(old)
        identical = sum(1 for cid, shape in new.items() if old.get(cid) == shape) / len(old)
        assert kept_ids >= 0.98 and identical >= 0.95, (kept_ids, identical)
        assert again.resummarised <= 0.05 * len(first.snapshot.summaries)


def _party_components(members: Sequence[str], view: CampaignView) -> int:
    index = {m: i for i, m in enumerate(members)}
    edges = {
        (min(index[r.source], index[r.target]), max(index[r.source], index[r.target]))
        for r in view.relations
        if r.source in index and r.target in index and r.source != r.target
    }
    return len(ig.Graph(n=len(members), edges=sorted(edges)).connected_components())


def _secret_world() -> tuple[list[Entity], list[Relation]]:
    """Two party-visible groups joined only by GM-only relations and a GM-only go-between."""
    entities, relations = synthetic(160, seed=11)
    entities.append(Entity(id="spy", name="The Spy", type="NPC", visibility="gm"))
    a, b = [e.id for e in entities[:40]], [e.id for e in entities[40:80]]
    secret = [Relation(source=x, target=y, type="serves", visibility="gm") for x in a for y in b]
    secret += [Relation(source="spy", target=x, type="knows") for x in a[:5] + b[:5]]
    return entities, relations + secret[::7]


def test_party_communities_are_clustered_from_the_party_graph_alone() -> None:
    entities, relations = _secret_world()
    outcome = _build(entities, relations)
    _, party_view = _views(entities, relations)
    assert outcome.snapshot.party.communities
    for c in outcome.snapshot.party.communities:
        assert c.id.startswith("p-") and "spy" not in c.members
        assert _party_components(c.members, party_view) == 1, c.id
    ranking = outcome.snapshot.party.metrics
    assert "spy" not in ranking and set(ranking) == set(party_view.entities)


def test_gm_only_changes_change_nothing_the_party_sees() -> None:
    entities, relations = _secret_world()
    first = _build(entities, relations)
    more_secrets = [
        Relation(source=f"n{i:05d}", target=f"n{i + 60:05d}", type="betrays", visibility="gm")
        for i in range(0, 40, 3)
    ]
    renamed = [
        e.model_copy(update={"gm_notes": "Secretly sold."}) if e.id == "n00007" else e
        for e in entities
    ]
    again = _build(renamed, relations + more_secrets, first.snapshot)
    assert again.snapshot.party == first.snapshot.party
    assert again.snapshot.gm != first.snapshot.gm
    fresh = _build(renamed, relations + more_secrets)  # and without any history
    assert fresh.snapshot.party == first.snapshot.party


def test_a_model_configured_later_rewrites_and_its_fallbacks_are_retried() -> None:
    entities, relations = synthetic(40, seed=2)
    extractive = _build(entities, relations)
    n = len(extractive.snapshot.summaries)
    cites_all = [e.id for e in entities]  # the writer keeps the ids each community knows
    reply = {"title": "T", "findings": [{"text": "X.", "entity_ids": cites_all}]}
    replies = [FAIL] + [json.dumps(reply)] * (n - 1)
    with_model = _build(entities, relations, extractive.snapshot, chat=_scripted(replies))
    assert with_model.resummarised == n and with_model.fallbacks == 1  # the model failed once
    notes = [s for s in with_model.snapshot.summaries if s.note]
    assert len(notes) == 1 and notes[0].method == "extractive"
    retried = _build(
        entities, relations, with_model.snapshot, chat=_scripted([json.dumps(reply)] * 5)
    )
    assert (retried.resummarised, retried.fallbacks) == (1, 0)  # only the fallback again
    assert all(s.method == "fake-llm" and not s.note for s in retried.snapshot.summaries)
    settings = SETTINGS.model_copy(update={"summary_max_chars": 300})
    resized = _build(entities, relations, retried.snapshot, settings=settings)
    assert resized.resummarised == n  # no model now, other settings: all rewritten


def test_repeated_model_errors_stop_calling_the_model() -> None:
    entities, relations = synthetic(120, seed=4)
    chat = _scripted([FAIL] * 3)
    outcome = _build(entities, relations, chat=chat)
    assert len(chat.requests) == SETTINGS.model_failures_before_giving_up
    assert outcome.fallbacks == len(outcome.snapshot.summaries) > 3


def test_progress_reports_each_stage_and_advances_summaries() -> None:
    entities, relations = synthetic(40, seed=2)
    progress = RecordingProgress()
    outcome = _build(entities, relations, progress=progress)
    tasks = [task for kind, task, _ in progress.events if kind == "start"]
    assert tasks == [
        "centrality (GM)", "communities (GM)", "summaries (GM)",
        "centrality (party)", "communities (party)", "summaries (party)",
    ]  # fmt: skip
    advanced = [t for kind, t, _ in progress.events if kind == "advance"]
    assert len(advanced) == len(outcome.snapshot.gm.communities) + len(
        outcome.snapshot.party.communities
    )
