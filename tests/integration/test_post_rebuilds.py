"""Posts that each call for an analytics rebuild, arriving while a build runs (real embedded
store, real model): builds never overlap, the posts that wrote before the next build started
share that one build, and the stored snapshot has seen every post."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from changelog.impact import RebuildPolicy
from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService, PostOutcome
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service

pytestmark = pytest.mark.integration

CAMPAIGN = "rebuilds"


@pytest.fixture()
def service(tmp_path: Path, real_embedder: Embedder, world: Path) -> Iterator[LoregraphService]:
    with open_service(Settings(data_dir=tmp_path / "data"), embedder=real_embedder) as svc:
        svc.ingest(world, CAMPAIGN)
        svc.build(CAMPAIGN)
        # every post calls for a rebuild
        svc.rebuild_policy = RebuildPolicy(
            schedule_threshold=0.001, force_threshold=0.001, min_sessions_between=0
        )
        yield svc


def _post(session: int) -> dict[str, Any]:
    return {
        "session_id": session,
        "entity_updates": [{"entity_id": "Torven", "properties": {"ledger": str(session)}}],
    }


def test_posts_during_a_build_share_the_next_one(service: LoregraphService) -> None:
    real_build = service.analytics.build
    first_started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def build(campaign: str, progress: Any, **kwargs: Any) -> Any:
        calls.append(len(service.changesets(campaign)))
        if len(calls) == 1:  # hold the first build until every post is stored
            first_started.set()
            assert release.wait(60)
        return real_build(campaign, progress, **kwargs)

    service.analytics.build = build  # type: ignore[method-assign]
    outcomes: dict[int, PostOutcome] = {}

    def post(session: int) -> None:
        outcomes[session] = service.post_and_rebuild(_post(session), CAMPAIGN)

    first = threading.Thread(target=post, args=(1,))
    first.start()
    assert first_started.wait(60)
    others = [threading.Thread(target=post, args=(s,)) for s in (2, 3, 4)]
    for thread in others:
        thread.start()
    deadline = time.monotonic() + 60
    while len(service.changesets(CAMPAIGN)) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    release.set()
    for thread in [first, *others]:
        thread.join(timeout=120)

    assert all(o.post.rebuild != "none" for o in outcomes.values())
    assert calls == [1, 4], calls  # the second build saw all four posts; no third
    assert outcomes[1].build is not None
    assert sum(outcomes[s].build is not None for s in (2, 3, 4)) == 1
    snapshot = service.analytics.stored(CAMPAIGN)
    assert snapshot is not None and snapshot.last_rebuild_session == 4
