"""The read snapshot (``<data dir>/snapshots/<campaign>/``) on the real embedded FalkorDB: the
same rankings as straight from the store, the in-process vector search the same as the store's,
never used once the store moved on (a write by another service, as by another process), a
damaged or foreign file ignored with a warning and rewritten, one campaign's files never
serving another, and deleted with the campaign."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
import yaml

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
            "stored.json",
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
        assert (_folder(settings, "one") / "stored.json").exists()
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
    stored = (folder / "stored.json").read_bytes()
    damage = {
        "stored.json": stored[: len(stored) // 2],  # truncated
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
    for name in ("stored.json", "analytics.json", "bm25-gm.npz", "vectors-entity.npz"):
        assert name in warned
    assert (folder / "stored.json").read_bytes() == stored  # rewritten whole
    assert (folder / "vectors-summary.npz").read_bytes() == summary_vectors  # left alone
    # another format: ignored too, never parsed as this one
    first, _, rest = stored.partition(b"\n")
    meta = json.loads(first)
    (folder / "stored.json").write_bytes(
        json.dumps({**meta, "format": 999}).encode() + b"\n" + rest
    )
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
