"""Two posts of the same new session at the same time: one is stored, the other sees it (real
embedded FalkorDB). Each post reads the stored change sets, then waits for the other to have
read them too (or for a short while): without a lock both would plan revision 1 and write."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphrag_core.errors import ChangelogConflictError
from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service

pytestmark = pytest.mark.integration


class _MeetAfterReading:
    """The real store; ``load_changesets`` returns only once both posters have read (or the
    other is blocked elsewhere), so that their reads overlap whenever nothing serialises them."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self._barrier = threading.Barrier(2, timeout=2.0)

    def load_changesets(self, campaign: str) -> Any:
        records = self._inner.load_changesets(campaign)
        # broken: the other poster is waiting for a lock, there is nothing to meet
        with contextlib.suppress(threading.BrokenBarrierError):
            self._barrier.wait()
        return records

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@pytest.fixture()
def service(tmp_path: Path, real_embedder: Embedder, world: Path) -> Iterator[LoregraphService]:
    with open_service(Settings(data_dir=tmp_path / "data"), embedder=real_embedder) as svc:
        svc.ingest(world, "race")
        yield svc


def _changeset(folder: Path, name: str, status: str) -> Path:
    path = folder / name
    update = {"entity_id": "Torven", "status": status, "note": name}
    path.write_text(json.dumps({"session_id": 9, "entity_updates": [update]}))
    return path


def test_concurrent_posts_of_one_new_session_never_interleave(
    service: LoregraphService, tmp_path: Path
) -> None:
    service.store = _MeetAfterReading(service.store)  # type: ignore[assignment]
    files = [_changeset(tmp_path, "a.json", "dead"), _changeset(tmp_path, "b.json", "missing")]
    outcomes: dict[str, object] = {}

    def post(path: Path) -> None:
        try:
            outcomes[path.name] = service.post_changelog(path, "race").action
        except ChangelogConflictError as exc:
            outcomes[path.name] = exc

    threads = [threading.Thread(target=post, args=(f,)) for f in files]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    actions = sorted(str(o) if isinstance(o, str) else "conflict" for o in outcomes.values())
    assert actions == ["conflict", "new"], outcomes
    records = service.store.load_changesets("race")
    assert [(r.session_id, r.revision) for r in records] == [(9, 1)]
    changes = service.store.load_changes("race")
    assert len({c.details["note"] for c in changes}) == 1  # one change set, not a mix
    assert len(changes) == 1
