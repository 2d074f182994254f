"""A write the server fails part-way never leaves the record that makes a retry a no-op: a
change set's record and a file's Source row (ingest's "already read" mark) are written in a
transaction of their own, after the content they mark. Real embedded FalkorDB, with one
statement broken so the server itself fails it mid-transaction (what no pre-check can see:
out of memory, a timeout on a shared server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_core.errors import StoreError
from graphrag_core.models import Change, ChangeSetRecord, Entity, GraphDelta, SourceRecord
from graphrag_core.stores.falkordb import FalkorDBStore

pytestmark = pytest.mark.integration


class _BrokenStatement(FalkorDBStore):
    """The real store, but the server rejects statement ``broken`` (a syntax error)."""

    broken = ""

    def _q(self, name: str) -> str:
        return "THIS IS NOT CYPHER" if name == self.broken else super()._q(name)


@pytest.fixture()
def stores(tmp_path: Path) -> Iterator[tuple[FalkorDBStore, _BrokenStatement]]:
    good = FalkorDBStore.embedded(tmp_path / "data", "g", dimension=8)
    good.migrate()
    bad = _BrokenStatement.embedded(tmp_path / "data", "g", dimension=8)
    try:
        yield good, bad
    finally:
        bad.close()
        good.close()


def _changes() -> list[Change]:
    return [
        Change(id=f"s3-r1-{i}", session_id=3, seq=i, kind="entity_status", entity_id="torven",
               field="status", new_value="missing")
        for i in range(3)
    ]  # fmt: skip


def test_a_change_set_failed_mid_write_is_not_recorded(
    stores: tuple[FalkorDBStore, _BrokenStatement],
) -> None:
    good, bad = stores
    record = ChangeSetRecord(
        session_id=3, revision=1, content_hash="h", source="s3.yaml", posted_at="t",
        change_count=3,
    )  # fmt: skip
    bad.broken = "changes_append"
    with pytest.raises(StoreError):
        bad.append_changeset("c", record, _changes())
    assert good.load_changesets("c") == [], "a record without its changes: a retry is a no-op"
    assert good.load_changes("c") == []
    good.append_changeset("c", record, _changes())  # the retry completes it
    assert [r.change_count for r in good.load_changesets("c")] == [3]
    assert len(good.load_changes("c")) == 3


def test_an_ingest_failed_mid_write_leaves_no_source_row(
    stores: tuple[FalkorDBStore, _BrokenStatement],
) -> None:
    good, bad = stores
    delta = GraphDelta(
        sources_upsert=(SourceRecord(path="world.yaml", sha256="x", kind="worldpack"),),
        entities_upsert=(Entity(id="torven", name="Torven", type="NPC", sources=("world.yaml",)),),
    )
    bad.broken = "entities_upsert"
    with pytest.raises(StoreError):
        bad.apply_delta("c", delta)
    assert good.load_sources("c") == {}, "a Source row without its entities: ingest skips it"
    good.apply_delta("c", delta)
    assert set(good.load_sources("c")) == {"world.yaml"}
    assert [e.id for e in good.load_entities("c")] == ["torven"]
