"""The read snapshot (``<data dir>/snapshots/<campaign>/``) on the real embedded FalkorDB: the
same rankings as straight from the store, the in-process vector search the same as the store's,
never used once the store moved on (a write by another service, as by another process), a
damaged or foreign file ignored with a warning and rewritten, one campaign's files never
serving another, and deleted with the campaign; a post or a withdrawal elsewhere makes the next
process reread only the changelog."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
import yaml

from changelog.impact import RebuildPolicy
from graphrag_core.models import AskResult, Entity, GraphDelta
from graphrag_core.ports import Embedder
from graphrag_core.services.service import LoregraphService
from graphrag_core.services.views import load_stored
from graphrag_core.settings import Settings
from graphrag_core.surfaces.cli.demo import changelog_files
from graphrag_core.wiring import open_service
from tests.fakes import HashEmbedder

pytestmark = pytest.mark.integration

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "questions" / "emberfall.yaml"


def _questions() -> list[tuple[str, int | None]]:
    data = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    return [(q["question"], q.get("as_of")) for q in data["questions"]]


def _ranked(result: AskResult) -> tuple[list[tuple[str, str]], list[float]]:
    """The results in order, and their scores: compared to 1e-5, as the store computes cosine
    similarity in single precision, the snapshot's search too but with sums in another order."""
    return [(r.kind, r.id) for r in result.results], [r.score for r in result.results]


def _assert_same(
    one: list[tuple[list[tuple[str, str]], list[float]]],
    other: list[tuple[list[tuple[str, str]], list[float]]],
) -> None:
    assert [items for items, _ in one] == [items for items, _ in other]
    for (_, scores), (_, expected) in zip(one, other, strict=True):
        assert scores == pytest.approx(expected, abs=1e-5)


def _emberfall(tmp_path: Path, example_dir: Path, embedder: Embedder, name: str) -> Settings:
    world = tmp_path / "emberfall"
    if not world.exists():
        shutil.copytree(example_dir, world)
    settings = Settings(data_dir=tmp_path / "data")
    with open_service(settings, embedder=embedder) as service:
        service.ingest(world / "world", name)
        for file in changelog_files(world):
            service.post_changelog(file, name)
        service.build(name)
    return settings


def _folder(settings: Settings, campaign: str) -> Path:
    return settings.data_dir / "snapshots" / campaign


def test_rankings_are_the_same_with_the_snapshot_as_from_the_store(
    tmp_path: Path, example_dir: Path, real_embedder: Embedder
) -> None:
    settings = _emberfall(tmp_path, example_dir, real_embedder, "emberfall")
    folder = _folder(settings, "emberfall")
    asked = [(q, as_of, player) for q, as_of in _questions() for player in (False, True)]

    def answers(service: LoregraphService) -> list[tuple[list[tuple[str, str]], list[float]]]:
        return [
            _ranked(service.ask(q, "emberfall", as_player=p, as_of_session=a, k=20))
            for q, a, p in asked
        ]

    assert {p.name for p in folder.iterdir()} >= {
        "vectors-entity.npz", "vectors-chunk.npz", "vectors-summary.npz",
    }  # fmt: skip
    with open_service(settings, embedder=real_embedder) as service:
        index = service._search("emberfall")._index
        assert index is not None and set(index.kinds) == {"entity", "chunk", "summary"}
        with_snapshot = answers(service)
        assert {p.name for p in folder.iterdir()} >= {
            "world.json",
            "changelog.json",
            "analytics.json",
            "bm25-gm.npz",
            "bm25-party.npz",
        }
        # the same store, no snapshot: every read and search goes to the store
        plain = LoregraphService(
            store=service.store, embedder=real_embedder, clock=service.clock,
            data_dir=settings.data_dir, ranking=settings.ranking, analytics=settings.analytics,
        )  # fmt: skip
        _assert_same(answers(plain), with_snapshot)
    with open_service(settings, embedder=real_embedder) as again:  # all read from the files
        _assert_same(answers(again), with_snapshot)


def test_the_in_process_vector_search_is_the_stores(tmp_path: Path, example_dir: Path) -> None:
    embedder = HashEmbedder(384)
    settings = _emberfall(tmp_path, example_dir, embedder, "emberfall")
    with open_service(settings, embedder=embedder) as service:
        search = service._search("emberfall")
        assert search._index is not None and len(search._index.kinds) == 3
        store = service.store
        for text in ("Where can the party rest tonight?", "ember crown", "Torven", "x"):
            vector = embedder.embed([text])[0]
            for visibilities in (["gm", "party"], ["party"], ["gm"]):
                for kind in ("entity", "chunk"):
                    mine = search.vector_search("emberfall", kind, vector, 10, visibilities)
                    theirs = store.vector_search("emberfall", kind, vector, 10, visibilities)
                    assert [h.id for h in mine] == [h.id for h in theirs]
                    assert [h.score for h in mine] == pytest.approx([h.score for h in theirs])
                mine = search.summary_search("emberfall", vector, 8, visibilities)
                theirs = store.summary_search("emberfall", vector, 8, visibilities)
                assert [h.id for h in mine] == [h.id for h in theirs]
                assert [h.score for h in mine] == pytest.approx([h.score for h in theirs])


def test_a_write_by_another_service_is_seen_and_the_old_snapshot_never_used(
    tmp_path: Path, example_dir: Path
) -> None:
    embedder = HashEmbedder(384)
    world = tmp_path / "emberfall"
    shutil.copytree(example_dir, world)
    settings = Settings(data_dir=tmp_path / "data")
    files = changelog_files(world)
    with open_service(settings, embedder=embedder) as writer:
        writer.ingest(world / "world", "one")
        for file in files[:3]:
            writer.post_changelog(file, "one")
        writer.build("one")
    with open_service(settings, embedder=embedder) as reader:
        before = reader.ask("Is Torven alive?", "one", k=20)
        assert (_folder(settings, "one") / "world.json").exists()
        with open_service(settings, embedder=embedder) as writer:  # another process's post
            for file in files[3:]:
                writer.post_changelog(file, "one")
            # and an entity's text changed without its vector file being refreshed
            torven = next(e for e in writer.store.load_entities("one") if "torven" in e.id)
            changed = torven.model_copy(update={"description": "A tanner of Millbrook."})
            writer.store.apply_delta(
                "one",
                GraphDelta(
                    entities_upsert=(changed,),
                    vectors={changed.id: embedder.embed(["A tanner of Millbrook."])[0]},
                ),
            )
        with open_service(settings, embedder=embedder) as fresh:  # a new process, at once
            stored = load_stored(fresh.store, "one")
            assert fresh._stored_campaign("one").entities == stored.entities
            assert fresh._stored_campaign("one").changes == stored.changes
            fresh_answer = _ranked(fresh.ask("Is Torven alive?", "one", k=20))
        after = reader.ask("Is Torven alive?", "one", k=20)
        assert after != before
        assert reader._stored_campaign("one").entities == stored.entities
        assert reader._stored_campaign("one").changes == stored.changes
        index = reader._search("one")._index
        assert index is not None and "entity" not in index.kinds  # that vector is not in hand
        assert "chunk" in index.kinds
        _assert_same([_ranked(after)], [fresh_answer])


def test_a_damaged_or_foreign_snapshot_is_ignored_with_a_warning_and_rewritten(
    tmp_path: Path, example_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    embedder = HashEmbedder(384)
    settings = _emberfall(tmp_path, example_dir, embedder, "one")
    with open_service(settings, embedder=embedder) as service:
        expected = _ranked(service.ask("Where can the party rest tonight?", "one", k=20))
        expected_player = _ranked(service.ask("Who are our allies?", "one", as_player=True))
    folder = _folder(settings, "one")
    stored = (folder / "world.json").read_bytes()
    damage = {
        "world.json": stored[: len(stored) // 2],  # truncated
        "changelog.json": b'{"format": 1}',  # a header and no body
        "analytics.json": b"not json at all",
        "bm25-gm.npz": b"PK\x03\x04 broken zip",
        "bm25-party.npz": b"",
        "vectors-entity.npz": (folder / "vectors-entity.npz").read_bytes()[:1000],
        "vectors-chunk.npz": b"\x00" * 64,
    }
    for name, data in damage.items():
        (folder / name).write_bytes(data)
    summary_vectors = (folder / "vectors-summary.npz").read_bytes()
    caplog.set_level(logging.WARNING)
    with open_service(settings, embedder=embedder) as service:
        rest = service.ask("Where can the party rest tonight?", "one", k=20)
        allies = service.ask("Who are our allies?", "one", as_player=True)
        _assert_same([_ranked(rest), _ranked(allies)], [expected, expected_player])
    warned = " ".join(r.getMessage() for r in caplog.records if "read snapshot" in r.getMessage())
    for name in ("world.json", "changelog.json", "analytics.json", "bm25-gm.npz"):
        assert name in warned
    assert "vectors-entity.npz" in warned
    assert (folder / "world.json").read_bytes() == stored  # rewritten whole
    assert (folder / "vectors-summary.npz").read_bytes() == summary_vectors  # left alone
    # another format: ignored too, never parsed as this one
    first, _, rest = stored.partition(b"\n")
    meta = json.loads(first)
    (folder / "world.json").write_bytes(json.dumps({**meta, "format": 999}).encode() + b"\n" + rest)
    caplog.clear()
    with open_service(settings, embedder=embedder) as service:
        rest = service.ask("Where can the party rest tonight?", "one", k=20)
        _assert_same([_ranked(rest)], [expected])
    assert any("another format" in r.getMessage() for r in caplog.records)


def test_one_campaigns_snapshot_never_serves_another_and_goes_with_it(
    tmp_path: Path, example_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    embedder = HashEmbedder(384)
    settings = _emberfall(tmp_path, example_dir, embedder, "one")
    with open_service(settings, embedder=embedder) as service:
        service.ask("Who are our allies?", "one")
        lone = Entity(id="lone-hermit", name="Lone Hermit", type="NPC", description="A hermit.")
        service.store.apply_delta(
            "two",
            GraphDelta(entities_upsert=(lone,), vectors={lone.id: embedder.embed(["x"])[0]}),
        )
    one, two = _folder(settings, "one"), _folder(settings, "two")
    two.mkdir(parents=True)
    for path in one.iterdir():  # every file of "one" planted in "two"'s folder
        shutil.copy(path, two / path.name)
    caplog.set_level(logging.WARNING)
    with open_service(settings, embedder=embedder) as service:
        result = service.ask("Who are our allies? Lone Hermit", "two", k=20)
        assert {r.id for r in result.results} <= {"lone-hermit"}
        assert [e.id for e in service._stored_campaign("two").entities] == ["lone-hermit"]
        assert any("another format, store" in r.getMessage() for r in caplog.records)
        service.delete_campaign("one")
        assert not one.exists() and two.exists()


def test_after_a_build_the_next_process_reads_no_store_for_its_first_query(
    tmp_path: Path, example_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = HashEmbedder(384)
    settings = _emberfall(tmp_path, example_dir, embedder, "one")  # ends with a build
    with open_service(settings, embedder=embedder) as reference:
        expected = _ranked(reference.ask("Who are our allies?", "one", as_player=True))
    shutil.rmtree(_folder(settings, "one"))
    with open_service(settings, embedder=embedder) as builder:
        builder.build("one")
    with open_service(settings, embedder=embedder) as service:

        def refused(*_: object) -> None:
            raise AssertionError("the first query read the store")

        for name in ("load_entities", "load_relations", "load_chunks", "load_changes"):
            monkeypatch.setattr(service.store, name, refused)
        for name in ("load_changesets", "load_analytics", "vector_search", "summary_search"):
            monkeypatch.setattr(service.store, name, refused)
        allies = _ranked(service.ask("Who are our allies?", "one", as_player=True))
        _assert_same([allies], [expected])


_WORLD_READS = ("load_entities", "load_relations", "load_chunks", "load_analytics")
_VECTOR_READS = ("vector_search", "summary_search", "load_vectors", "load_summary_vectors")


def _refuse_world_reads(service: LoregraphService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``service``'s store refuse every read of the world (entities, relations, chunks,
    analytics, vectors): only the changelog may be read."""

    def refused(*_: object) -> None:
        raise AssertionError("the world was read from the store")

    for name in (*_WORLD_READS, *_VECTOR_READS):
        monkeypatch.setattr(service.store, name, refused)


def _torven(result: AskResult) -> str | None:
    return next(r.status for r in result.results if r.id == "torven-blackwater")


def test_a_post_or_a_withdrawal_elsewhere_rereads_only_the_changelog(
    tmp_path: Path, example_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A post (and a withdrawal) by another process moves the campaign revision but not the
    world revision: the next process reads the world, the analytics, BM25 and the vectors from
    the snapshot and only the changelog from the store, and sees the change; so does the
    process that was already running, without rereading the world either. An ingest moves the
    world revision: the world is read again, never taken stale from the snapshot."""
    embedder = HashEmbedder(384)
    world = tmp_path / "emberfall"
    shutil.copytree(example_dir, world)
    settings = Settings(data_dir=tmp_path / "data")
    files = changelog_files(world)
    question = "Is Torven Blackwater alive?"
    with open_service(settings, embedder=embedder) as writer:
        writer.ingest(world / "world", "one")
        for file in files[:3]:
            writer.post_changelog(file, "one")
        writer.build("one")
        world_at, revision_at = (
            writer.store.world_revision("one"),
            writer.store.campaign_revision("one"),
        )
    with open_service(settings, embedder=embedder) as reader:
        before = reader.ask(question, "one", k=20)
        assert _torven(before) == "alive"
        with open_service(settings, embedder=embedder) as writer:  # another process's post
            writer.rebuild_policy = RebuildPolicy(schedule_threshold=1e9, force_threshold=1e9)
            assert writer.post_and_rebuild(files[3], "one").build is None  # session 4: dead
            assert writer.store.world_revision("one") == world_at
            assert writer.store.campaign_revision("one") > revision_at
            stored = load_stored(writer.store, "one")
        with open_service(settings, embedder=embedder) as fresh:  # a new process, at once
            _refuse_world_reads(fresh, monkeypatch)
            posted = fresh.ask(question, "one", k=20)
            assert fresh._stored_campaign("one").changes == stored.changes
            assert fresh._stored_campaign("one").records == stored.records
            assert fresh._stored_campaign("one").entities == stored.entities
            index = fresh._search("one")._index
            assert index is not None and set(index.kinds) == {"entity", "chunk", "summary"}
        assert _torven(posted) == "dead"
        _refuse_world_reads(reader, monkeypatch)
        seen = reader.ask(question, "one", k=20)  # the running process sees it too
        assert _torven(seen) == "dead"
        _assert_same([_ranked(seen)], [_ranked(posted)])
        monkeypatch.undo()
        with open_service(settings, embedder=embedder) as writer:  # withdrawn elsewhere
            writer.rebuild_policy = RebuildPolicy(schedule_threshold=1e9, force_threshold=1e9)
            assert writer.withdraw("one", 4).build is None
            assert writer.store.world_revision("one") == world_at
        with open_service(settings, embedder=embedder) as fresh:
            _refuse_world_reads(fresh, monkeypatch)
            withdrawn = fresh.ask(question, "one", k=20)
        assert _torven(withdrawn) == "alive"
        _assert_same([_ranked(withdrawn)], [_ranked(before)])
        monkeypatch.undo()
        # an ingest that changes the world moves the world revision: read again, not stale
        lore = world / "world" / "lore" / "factions.md"
        lore.write_text(
            lore.read_text(encoding="utf-8") + "\nTorven Blackwater keeps a grey heron.\n",
            encoding="utf-8",
        )
        with open_service(settings, embedder=embedder) as writer:
            writer.ingest(world / "world", "one")
            assert writer.store.world_revision("one") > world_at
            stored = load_stored(writer.store, "one")
        with open_service(settings, embedder=embedder) as fresh:
            assert fresh._stored_campaign("one").chunks == stored.chunks
            assert any("grey heron" in c.text for c in stored.chunks)
        reader_stored = reader._stored_campaign("one")
        assert (reader_stored.chunks, reader_stored.changes) == (stored.chunks, stored.changes)
