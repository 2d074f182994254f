"""The example campaign behind a real HTTP app, shared by the HTTP tests and the benchmark:
a real embedded store, the real embedding model, the change sets of the example posted and
the analytics built."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient

from graphrag_core.ports import Embedder
from graphrag_core.services.keys import KeyRing, Role, create_key
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files
from graphrag_core.surfaces.http.app import create_app
from graphrag_core.wiring import open_service
from tests.integration.test_player_leaks import Oracle, _words, gather

CAMPAIGN = "emberfall"


def oracle_for(service: LoregraphService, example_dir: Path) -> Oracle:
    """The GM-only texts, secret names and hidden ids of the example (see test_player_leaks)."""
    secrets = gather(example_dir)
    gm = service.view(CAMPAIGN, as_player=False).view
    hidden = [c.id for c in gm.chunks.values() if c.visibility == "gm"]
    hidden += [c.id for c in gm.changes.values() if c.visibility == "gm"]
    hidden += [e.id for e in gm.entities.values() if e.visibility == "gm"]
    ids = "|".join(re.escape(i) for i in sorted(hidden, key=len, reverse=True))
    return Oracle(
        shingles=secrets.shingles(),
        names=[re.compile(rf"\b{re.escape(_words(n))}\b") for n in secrets.secret_names() if n],
        ids=re.compile(rf"(?<![\w-])(?:{ids})(?![\w-])") if ids else None,
    )


@contextmanager
def example_service(
    work: Path, embedder: Embedder, example_dir: Path
) -> Iterator[LoregraphService]:
    """The example campaign ingested, its change sets posted and built, in ``work/data``."""
    world = work / "emberfall"
    shutil.copytree(example_dir, world)
    with open_service(Settings(data_dir=work / "data"), embedder=embedder) as service:
        report = service.ingest(world / "world", CAMPAIGN)
        assert report.wrote and not report.failures
        for file in changelog_files(world):
            service.post_changelog(file, CAMPAIGN)
        service.build(CAMPAIGN)
        yield service


def new_key(data_dir: Path, campaign: str, role: Role) -> dict[str, str]:
    """A fresh key's request headers."""
    _, key = create_key(data_dir, campaign, role, datetime.now(UTC))
    return {"Authorization": f"Bearer {key}"}


@contextmanager
def client(service: LoregraphService, keys_dir: Path) -> Iterator[TestClient]:
    """A client of the real app on ``service``, with the keys of ``keys_dir`` (none there:
    the local GM's server)."""
    app = create_app(service, KeyRing(keys_dir))
    with TestClient(app, raise_server_exceptions=False) as http:
        yield http
