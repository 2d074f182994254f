"""Fuzz: change sets, source files (front matter, world packs, Markdown, file names, encodings)
and questions. Property: every input is accepted or refused with a one-line loregraph error —
never another exception — and a refused write changes nothing (the store's digest before and
after is the same). Fixed examples in CI (the ``ci`` profile, derandomized); the ``long``
profile runs 20x more with random seeds (docs/hardening.md).

The parsers are fuzzed alone with many examples (fast); a smaller share of the examples goes
through the whole service on the real embedded FalkorDB and the real embedding model."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from changelog.impact import RebuildPolicy
from changelog.schema import parse_changeset
from extraction.sources import document_from_bytes
from graphrag_core.errors import ChangelogError, LoregraphError, RequestError, SourceError
from graphrag_core.models import SourceUpload
from graphrag_core.ports import Embedder
from graphrag_core.services.ingest import check_document
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service
from tests.hardening.conftest import TALLY
from tests.integration.cli_world import WORLD

pytestmark = pytest.mark.integration

CAMPAIGN = "fuzz"
NAMES = ["Torven Blackwater", "Torven", "Red Oak Tavern", "the Red Oak", "Quiet Lantern Inn"]

# ------------------------------------------------------------------ strategies

_NASTY = st.sampled_from(
    ["\x00", "\ud800", "\udcff", "\u202e", "\ufeff", "\n---\n", "*a", "&a", "{{", "]]", "'", '"']
)
text = st.one_of(
    st.text(max_size=40),
    st.lists(st.one_of(st.text(max_size=8), _NASTY), max_size=6).map("".join),
    st.sampled_from(NAMES),
    st.integers(0, 5).map(lambda n: "x" * (10**n)),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), text)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=20,
)
entity_update = st.fixed_dictionaries(
    {"entity_id": st.one_of(st.sampled_from(NAMES), text)},
    optional={
        "status": st.one_of(st.sampled_from(["missing", "dead", "alive"]), text),
        "properties": st.dictionaries(text, st.one_of(text, scalars), max_size=3),
        "note": text,
        "visibility": st.one_of(st.sampled_from(["gm", "party"]), text),
        "entity_type": text,
    },
)
relationship_update = st.fixed_dictionaries(
    {"from": st.one_of(st.just("party"), st.sampled_from(NAMES)), "to": st.sampled_from(NAMES)},
    optional={"new_status": st.one_of(st.sampled_from(["allied", "hostile"]), text)},
)
changeset = st.fixed_dictionaries(
    {"session_id": st.integers(0, 40)},
    optional={
        "title": text,
        "date": st.one_of(text, st.just("2024-13-45")),
        "visibility": st.one_of(st.sampled_from(["gm", "party"]), text),
        "entity_updates": st.lists(entity_update, max_size=3),
        "relationship_updates": st.lists(relationship_update, max_size=2),
        "extra": json_values,
    },
)

plausible = st.fixed_dictionaries(
    {
        "session_id": st.integers(0, 40),
        "entity_updates": st.lists(
            st.fixed_dictionaries(
                {
                    "entity_id": st.sampled_from(NAMES),
                    "status": st.sampled_from(["missing", "dead", "alive", "destroyed"]),
                },
                optional={"note": text, "properties": st.dictionaries(text, text, max_size=2)},
            ),
            min_size=1,
            max_size=3,
        ),
    },
    optional={"title": text, "visibility": st.sampled_from(["gm", "party"])},
)


@st.composite
def changeset_texts(draw: st.DrawFn) -> tuple[str, str]:
    """(file name, text): a change set as JSON or YAML, or raw text."""
    form = draw(st.sampled_from(["json", "yaml", "raw", "yaml-raw"]))
    if form == "raw":
        return "fuzz.json", draw(st.text(max_size=200))
    if form == "yaml-raw":
        return "fuzz.yaml", draw(st.text(max_size=200))
    data: Any = draw(st.one_of(plausible, plausible, changeset, json_values))
    if form == "json":
        return "fuzz.json", json.dumps(data)
    try:
        return "fuzz.yaml", yaml.safe_dump(data, allow_unicode=True)
    except (yaml.YAMLError, UnicodeError):
        return "fuzz.yaml", json.dumps(data)


_WORLD_ENTRY = st.fixed_dictionaries(
    {"name": text},
    optional={
        "id": text,
        "type": text,
        "aliases": st.lists(text, max_size=2),
        "description": text,
        "gm_notes": text,
        "visibility": text,
        "attributes": st.dictionaries(text, scalars, max_size=2),
        "relations": st.lists(st.fixed_dictionaries({"type": text, "target": text}), max_size=2),
    },
)


@st.composite
def source_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """(campaign path, bytes): a world pack, a note with front matter, Markdown or text, in
    one of several encodings, under a fuzzed file name."""
    kind = draw(st.sampled_from([".yaml", ".md", ".txt", ".markdown"]))
    stem = draw(st.one_of(st.sampled_from(["world", "notes/a", "Torven"]), text))
    body: str
    if kind == ".yaml":
        pack: Any = draw(
            st.one_of(
                st.fixed_dictionaries({"entities": st.lists(_WORLD_ENTRY, max_size=3)}),
                json_values,
            )
        )
        try:
            body = yaml.safe_dump(pack, allow_unicode=True)
        except (yaml.YAMLError, UnicodeError):
            body = json.dumps(pack)
    else:
        front = draw(st.one_of(st.none(), st.dictionaries(text, json_values, max_size=3)))
        prose = draw(st.lists(st.one_of(text, st.just("\n# Heading\n")), max_size=8))
        head = ""
        if front is not None:
            try:
                head = "---\n" + yaml.safe_dump(front, allow_unicode=True) + "---\n"
            except (yaml.YAMLError, UnicodeError):
                head = "---\n" + json.dumps(front) + "\n---\n"
        body = head + "".join(prose)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "latin-1", "utf-16"]))
    raw = (
        body.encode(encoding, "surrogatepass")
        if encoding != "latin-1"
        else (body.encode("latin-1", "replace"))
    )
    return f"{stem}{kind}", draw(st.one_of(st.just(raw), st.binary(max_size=64)))


# ------------------------------------------------------------------ helpers


def _one_line(error: LoregraphError) -> bool:
    """A loregraph error is one line, or a short headed list (change-set validation); a line
    may quote a path (up to 1,024 characters), never a whole input."""
    lines = str(error).splitlines()
    return bool(lines) and all(len(line) < 1400 for line in lines) and len(lines) <= 40


def digest(service: LoregraphService) -> str:
    """Everything the store holds for the campaign (but posting times)."""
    store = service.store
    state = {
        "entities": sorted(e.model_dump_json() for e in store.load_entities(CAMPAIGN)),
        "relations": sorted(r.model_dump_json() for r in store.load_relations(CAMPAIGN)),
        "chunks": sorted(c.model_dump_json() for c in store.load_chunks(CAMPAIGN)),
        "sources": sorted(s.model_dump_json() for s in store.load_sources(CAMPAIGN).values()),
        "changesets": sorted(
            r.model_dump_json(exclude={"posted_at"}) for r in store.load_changesets(CAMPAIGN)
        ),
        "changes": sorted(c.model_dump_json() for c in store.load_changes(CAMPAIGN)),
    }
    return hashlib.sha256(json.dumps(state).encode()).hexdigest()


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder
) -> Iterator[LoregraphService]:
    world = tmp_path_factory.mktemp("world")
    (world / "world.yaml").write_text(WORLD)
    data_dir = tmp_path_factory.mktemp("data")
    with open_service(Settings(data_dir=data_dir), embedder=real_embedder) as svc:
        svc.rebuild_policy = RebuildPolicy(schedule_threshold=1e9, force_threshold=2e9)
        assert not svc.ingest(world, CAMPAIGN).failures
        yield svc


# ------------------------------------------------------------------ parsers alone


@settings(max_examples=250)
@given(changeset_texts())
def test_parsing_a_change_set_accepts_or_refuses_cleanly(case: tuple[str, str]) -> None:
    name, content = case
    TALLY["changeset parse tried"] += 1
    try:
        parse_changeset(content, filename=name)
    except ChangelogError as exc:
        TALLY["changeset parse rejected"] += 1
        assert _one_line(exc)


@settings(max_examples=250)
@given(source_files())
def test_reading_a_source_accepts_or_refuses_cleanly(case: tuple[str, bytes]) -> None:
    path, raw = case
    TALLY["source read tried"] += 1
    try:
        check_document(document_from_bytes(path, raw))
    except SourceError as exc:
        TALLY["source read rejected"] += 1
        assert _one_line(exc)


# ------------------------------------------------------------------ through the service


@settings(max_examples=40)
@given(changeset_texts())
def test_posting_a_change_set_accepts_or_refuses_without_a_partial_write(
    service: LoregraphService, case: tuple[str, str]
) -> None:
    name, content = case
    TALLY["changeset post tried"] += 1
    before = digest(service)
    try:
        service.post_changelog(content, CAMPAIGN, source_name=name, amend=True)
    except LoregraphError as exc:
        TALLY["changeset post rejected"] += 1
        assert _one_line(exc)
        assert digest(service) == before, f"a refused post changed the store: {exc}"


@settings(max_examples=15)
@given(source_files())
def test_ingesting_a_source_reports_it_alone(
    service: LoregraphService, case: tuple[str, bytes]
) -> None:
    path, raw = case
    TALLY["source ingest tried"] += 1
    number = TALLY["source ingest tried"]  # a new folder each time: nothing stored before
    upload = SourceUpload(path=f"fuzz{number}/{path}", data=raw)
    try:
        report = service.ingest_files([upload], CAMPAIGN)
    except LoregraphError as exc:
        TALLY["source ingest rejected"] += 1
        assert _one_line(exc)
        return
    stored = service.store.load_sources(CAMPAIGN)
    if report.failures:
        TALLY["source ingest rejected"] += 1
        assert not any(p.startswith(f"fuzz{number}/") for p in stored), report.failures
    else:
        assert any(p.startswith(f"fuzz{number}/") for p in stored), "accepted but not stored"
    assert "torven-blackwater" in {e.id for e in service.store.load_entities(CAMPAIGN)}


@settings(max_examples=150)
@given(st.one_of(text, st.text(max_size=300), st.integers(0, 4).map(lambda n: "q" * 10**n)))
def test_asking_anything_answers_or_refuses_cleanly(
    service: LoregraphService, question: str
) -> None:
    TALLY["question tried"] += 1
    try:
        service.ask(question, CAMPAIGN, as_player=True, k=5)
    except RequestError as exc:
        TALLY["question rejected"] += 1
        assert _one_line(exc)
