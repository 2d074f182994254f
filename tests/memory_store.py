"""An in-memory ``GraphStore`` for unit tests of services: no server, no Cypher.

It runs the very statements the Cypher store builds (``statements.delta_statements`` and the
same row builders of :mod:`graphrag_core.stores.rows`), checked by the same ``rows`` checks, so a
value FalkorDB refuses fails here with the same ``StoreError`` and nothing written. Each named
statement is then applied by the method of the same name on :class:`_Campaign`, which holds
what the graph would: node properties as rows, float32 vectors, and edges as keys. Loads
decode rows with the Cypher store's own converters and sort as the ``*_load.cypher`` files do.
The contract suite (``tests/integration/test_store_contract*.py``) runs it beside FalkorDB.

Approximations: MENTIONS edges are not kept (no port method reads them). Full-text search
scores as FalkorDB's index does (RediSearch TF-IDF, no stop words, a word's stem as an extra
term) but: its stemmer keeps only plurals (FalkorDB's Snowball one also finds "running" for
"run"); it splits words at any whitespace, where FalkorDB splits at spaces and punctuation only
(a word either side of a newline is one token there); it leaves out FalkorDB's proximity divisor
for documents matching several query words, and the stale entries a FalkorDB index counts until
its garbage collection runs. Same hits for plain one-line text; scores and ties may differ.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import re
import threading
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import ValidationError

from graphrag_core.analytics_models import AnalyticsSnapshot
from graphrag_core.errors import StoreError
from graphrag_core.models import (
    Change,
    ChangeSetRecord,
    Chunk,
    Entity,
    GmDecision,
    GraphDelta,
    Relation,
    ScoredId,
    SourceRecord,
    StoreHealth,
    Visibility,
)
from graphrag_core.ports import SearchKind
from graphrag_core.stores import rows as r
from graphrag_core.stores.rows import Row
from graphrag_core.stores.schema import MIGRATIONS
from graphrag_core.stores.statements import Statement, batched, delta_statements, revision_bump

Vector = tuple[float, ...]
_WORD = re.compile(r"\w+")


def _f32(values: Iterable[float]) -> Vector:
    """What ``vecf32`` keeps of a vector."""
    return tuple(array("f", values))


@dataclass
class _Campaign:
    """One campaign's part of the graph: nodes as property rows by key, and their vectors."""

    sources: dict[str, Row] = field(default_factory=dict)
    entities: dict[str, Row] = field(default_factory=dict)
    relations: dict[tuple[str, str, str], Row] = field(default_factory=dict)
    chunks: dict[str, Row] = field(default_factory=dict)
    vectors: dict[str, dict[str, Vector]] = field(
        default_factory=lambda: {"entity": {}, "chunk": {}, "summary": {}}
    )
    changesets: dict[tuple[int, int], Row] = field(default_factory=dict)
    changes: dict[str, Row] = field(default_factory=dict)
    summaries: dict[str, Row] = field(default_factory=dict)
    snapshot: str | None = None
    cache: dict[str, str] = field(default_factory=dict)
    decisions: dict[int, Row] = field(default_factory=dict)

    def listed(self) -> bool:
        """Whether ``campaigns_list.cypher`` would name this campaign."""
        held = (self.sources, self.entities, self.chunks, self.changesets, self.decisions)
        return any(held) or bool(self.cache) or self.snapshot is not None

    def copy(self) -> _Campaign:
        """A copy to write to: rows are replaced, never changed in place, so shallow will do."""
        fields = {f.name: copy.copy(getattr(self, f.name)) for f in dataclasses.fields(self)}
        return _Campaign(**{**fields, "vectors": {k: dict(v) for k, v in self.vectors.items()}})

    # one method per statement name, taking that statement's parameters

    def relations_delete(self, p: Row) -> None:
        for row in p["rows"]:
            self.relations.pop((row["source"], row["type"], row["target"]), None)

    def chunks_delete(self, p: Row) -> None:
        for cid in p["ids"]:
            self.chunks.pop(cid, None)
            self.vectors["chunk"].pop(cid, None)

    def entities_delete(self, p: Row) -> None:  # DETACH DELETE: its relations go too
        for eid in p["ids"]:
            self.entities.pop(eid, None)
            self.vectors["entity"].pop(eid, None)
        gone = set(p["ids"])
        self.relations = {k: v for k, v in self.relations.items() if not gone & {k[0], k[2]}}

    def sources_delete(self, p: Row) -> None:
        for path in p["paths"]:
            self.sources.pop(path, None)

    def sources_upsert(self, p: Row) -> None:
        for row in p["rows"]:
            self.sources[row["path"]] = {**self.sources.get(row["path"], {}), **row["props"]}

    def entities_upsert(self, p: Row) -> None:
        for row in p["rows"]:
            self.entities[row["id"]] = {**self.entities.get(row["id"], {}), **row["props"]}

    def relations_upsert(self, p: Row) -> None:  # MATCH both ends first: else nothing
        for row in p["rows"]:
            if row["source"] in self.entities and row["target"] in self.entities:
                key = (row["source"], row["type"], row["target"])
                self.relations[key] = {**self.relations.get(key, {}), **row["props"]}

    def chunks_upsert(self, p: Row) -> None:
        for row in p["rows"]:
            self.chunks[row["id"]] = {**self.chunks.get(row["id"], {}), **row["props"]}

    def chunk_mentions_clear(self, p: Row) -> None:
        """MENTIONS edges: provenance no port method reads (the chunk's ``mentions`` is)."""

    chunk_mentions_link = chunk_mentions_clear

    def _embed(self, kind: str, nodes: Mapping[str, Row], rows: Sequence[Row]) -> None:
        for row in rows:
            if row["id"] in nodes:
                self.vectors[kind][row["id"]] = _f32(row["embedding"])

    def entity_embeddings_set(self, p: Row) -> None:
        self._embed("entity", self.entities, p["rows"])

    def chunk_embeddings_set(self, p: Row) -> None:
        self._embed("chunk", self.chunks, p["rows"])

    def summary_embeddings_set(self, p: Row) -> None:
        self._embed("summary", self.summaries, p["rows"])

    def changeset_append(self, p: Row) -> None:  # MERGE … ON CREATE: append-only
        self.changesets.setdefault((p["session_id"], p["revision"]), p["props"])

    def changes_append(self, p: Row) -> None:
        for row in p["rows"]:
            self.changes.setdefault(row["id"], row["props"])

    def analytics_summaries_clear(self, p: Row) -> None:
        self.summaries.clear()
        self.vectors["summary"].clear()

    def analytics_summaries_create(self, p: Row) -> None:
        self.summaries.update({row["id"]: row["props"] for row in p["rows"]})

    def analytics_snapshot_save(self, p: Row) -> None:
        self.snapshot = p["snapshot_json"]

    def extraction_cache_save(self, p: Row) -> None:
        self.cache.update({row["key"]: row["value"] for row in p["rows"]})

    def gm_decision_append(self, p: Row) -> None:
        self.decisions.setdefault(p["seq"], p["props"])


class MemoryStore:
    """Every ``GraphStore`` role port, in memory. A write applies its statements to copies of
    the campaigns it touches and swaps them in whole (one writer at a time): a reader sees the
    graph before or after a write, never half of one, and a failure leaves nothing behind."""

    def __init__(self, *, dimension: int = 64) -> None:
        self.dimension = dimension
        self._campaigns: dict[str, _Campaign] = {}
        self._revisions: dict[str, int] = {}  # outlive a deleted campaign, as in the graph
        self._worlds: dict[str, int] = {}  # the world revisions: every write but the changelog's
        self._migrated = False
        self._lock = threading.RLock()

    def _query(self, vector: Sequence[float]) -> Vector:
        """The query vector as ``vecf32`` makes it; FalkorDB refuses one of another size."""
        if len(vector) != self.dimension:
            raise StoreError(
                f"vector search: vector dimension mismatch, expected {self.dimension} but got "
                f"{len(vector)}"
            )
        return _f32(float(v) for v in vector)

    def _of(self, campaign: str) -> _Campaign:
        return self._campaigns.get(campaign) or _Campaign()

    def _write(self, statements: Sequence[Statement]) -> None:
        """Like ``CypherStore._write``: check every parameter, apply every statement, bump the
        revision of every campaign written to — all or nothing."""
        for name, params in statements:
            r.check_statement(name, params)
        with self._lock:
            written = {p["campaign"]: self._of(p["campaign"]).copy() for _, p in statements}
            for name, params in statements:
                getattr(written[params["campaign"]], name)(params)
            self._campaigns = {**self._campaigns, **written}
            for campaign in written:
                self._revisions[campaign] = self._revisions.get(campaign, 0) + 1
                if revision_bump(campaign, statements)[0] == "campaign_revision_bump":
                    self._worlds[campaign] = self._worlds.get(campaign, 0) + 1

    # ------------------------------------------------------------ admin

    def migrate(self) -> None:
        self._migrated = True

    def close(self) -> None:
        return None

    def health(self) -> StoreHealth:
        applied = MIGRATIONS if self._migrated else ()
        pending = () if self._migrated else (f"{len(MIGRATIONS)} migration(s) not applied",)
        return StoreHealth(
            kind="memory", where="in memory", reachable=True, version="MemoryStore",
            migrations_expected=MIGRATIONS, migrations_applied=applied, problems=pending,
        )  # fmt: skip

    def campaign_revision(self, campaign: str) -> int:
        return self._revisions.get(campaign, 0)

    def world_revision(self, campaign: str) -> int:
        return self._worlds.get(campaign, 0)

    # ------------------------------------------------------------ campaigns and the base graph

    def list_campaigns(self) -> list[str]:
        return sorted(name for name, state in self._campaigns.items() if state.listed())

    def delete_campaign(self, campaign: str) -> None:
        with self._lock:
            if self._of(campaign).listed():
                self._campaigns = {k: v for k, v in self._campaigns.items() if k != campaign}
                self._revisions[campaign] = self._revisions.get(campaign, 0) + 1
                self._worlds[campaign] = self._worlds.get(campaign, 0) + 1

    def load_sources(self, campaign: str) -> dict[str, SourceRecord]:
        found = sorted(self._of(campaign).sources.items())
        return {path: SourceRecord(path=path, **props) for path, props in found}

    def apply_delta(self, campaign: str, delta: GraphDelta) -> None:
        statements = delta_statements(campaign, delta, self.dimension)
        if statements:
            self._write(statements)

    def load_entities(self, campaign: str) -> list[Entity]:
        rows = sorted(self._of(campaign).entities.items())
        return [r.to_entity({"id": eid, **props}) for eid, props in rows]

    def load_relations(self, campaign: str) -> list[Relation]:
        rows = sorted(self._of(campaign).relations.items())
        return [r.to_relation({"source": s, "type": t, "target": o, **p}) for (s, t, o), p in rows]

    def load_chunks(self, campaign: str) -> list[Chunk]:
        chunks = self._of(campaign).chunks
        rows = [{"id": cid, **p, "end_offset": p["end"]} for cid, p in chunks.items()]
        rows.sort(key=lambda row: (row["source_path"], row["start"], row["id"]))
        return [r.to_chunk(row) for row in rows]

    def load_vectors(self, campaign: str, kind: SearchKind) -> dict[str, Vector]:
        return dict(sorted(self._of(campaign).vectors[kind].items()))

    # ------------------------------------------------------------ retrieval

    def vector_search(
        self,
        campaign: str,
        kind: SearchKind,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        state = self._of(campaign)
        nodes = state.entities if kind == "entity" else state.chunks
        return _nearest(nodes, state.vectors[kind], self._query(vector), k, visibilities)

    def fulltext_search(
        self,
        campaign: str,
        kind: SearchKind,
        text: str,
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        """Any of the words of ``text``, scored like FalkorDB's index (RediSearch TF-IDF):
        per query term found, its count times ``floor(log2(1 + docs / docs with it))``, over
        the count of the document's most frequent word. The index, like FalkorDB's, holds
        every campaign's entities (``search_text``) or chunks (``text``)."""
        query = [term for word in _WORD.findall(text) for term in _expand(word.lower())]
        if k <= 0 or not query:
            return []
        prop, table = ("search_text", "entities") if kind == "entity" else ("text", "chunks")
        docs = [
            (name, key, _terms(row[prop]), row["visibility"])
            for name, state in self._campaigns.items()
            for key, row in getattr(state, table).items()
        ]
        df = Counter(term for *_, terms, _ in docs for term in set(query) & terms.keys())
        idf = {term: math.floor(math.log2(1 + len(docs) / n)) for term, n in df.items()}
        hits = []
        for name, key, terms, visibility in docs:
            found = [term for term in query if term in terms]
            if name == campaign and visibility in visibilities and found:
                top = max(n for term, n in terms.items() if not term.startswith("+"))
                score = sum(terms[term] * idf[term] for term in found) / top
                hits.append(ScoredId(id=key, score=score))
        return sorted(hits, key=lambda hit: (-hit.score, hit.id))[:k]

    def neighbourhood(
        self,
        campaign: str,
        entity_ids: Sequence[str],
        hops: int,
        visibilities: Sequence[Visibility],
    ) -> dict[str, int]:
        """Breadth-first over visible relations, both ways, between visible entities."""
        state = self._of(campaign)
        seen = {eid for eid, row in state.entities.items() if row["visibility"] in visibilities}
        found = {eid: 0 for eid in entity_ids if eid in seen}
        frontier = set(found)
        for hop in range(1, hops + 1):
            step = set()
            for (source, _, target), row in state.relations.items():
                if row["visibility"] in visibilities and {source, target} <= seen:
                    step |= {target} if source in frontier else set()
                    step |= {source} if target in frontier else set()
            frontier = step - found.keys()
            found.update(dict.fromkeys(sorted(frontier), hop))
        return found

    # ------------------------------------------------------------ changelog

    def load_changesets(self, campaign: str) -> list[ChangeSetRecord]:
        rows = sorted(self._of(campaign).changesets.items())
        return [ChangeSetRecord(session_id=s, revision=v, **p) for (s, v), p in rows]

    def append_changeset(
        self, campaign: str, record: ChangeSetRecord, changes: Sequence[Change]
    ) -> None:
        header = {
            "campaign": campaign,
            "session_id": record.session_id,
            "revision": record.revision,
            "props": r.checked(f"change set {record.session_id}", r.changeset_props(record)),
        }
        rows = [r.change_row(change) for change in changes]
        self._write(
            [("changeset_append", header), *batched("changes_append", campaign, "rows", rows)]
        )

    def load_changes(self, campaign: str) -> list[Change]:
        rows = [{"id": cid, **p} for cid, p in self._of(campaign).changes.items()]
        rows.sort(key=lambda row: (row["session_id"], row["revision"], row["seq"]))
        return [r.to_change(row) for row in rows]

    # ------------------------------------------------------------ analytics

    def save_analytics(
        self, campaign: str, snapshot: AnalyticsSnapshot, vectors: Mapping[str, Sequence[float]]
    ) -> None:
        rows = [
            {"id": s.key, "props": r.checked(f"summary {s.key}", {
                "community_id": s.community_id, "visibility": s.visibility,
                "title": s.title, "summary": s.summary})}
            for s in snapshot.summaries
        ]  # fmt: skip
        keys = [s.key for s in snapshot.summaries]
        embedded = r.vector_rows(keys, {k: tuple(v) for k, v in vectors.items()}, self.dimension)
        header = {"snapshot_json": snapshot.model_dump_json(), "built_at": snapshot.built_at}
        self._write(
            [
                ("analytics_summaries_clear", {"campaign": campaign}),
                *batched("analytics_summaries_create", campaign, "rows", rows),
                *batched("summary_embeddings_set", campaign, "rows", embedded),
                ("analytics_snapshot_save", {"campaign": campaign, **header}),
            ]
        )

    def load_analytics(self, campaign: str) -> AnalyticsSnapshot | None:
        stored = self._of(campaign).snapshot
        try:
            return AnalyticsSnapshot.model_validate_json(stored) if stored else None
        except ValidationError:  # written by an older version: the next build starts afresh
            return None

    def load_summary_vectors(self, campaign: str) -> dict[str, Vector]:
        return dict(sorted(self._of(campaign).vectors["summary"].items()))

    def summary_search(
        self,
        campaign: str,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        state = self._of(campaign)
        query = self._query(vector)
        return _nearest(state.summaries, state.vectors["summary"], query, k, visibilities)

    # ------------------------------------------------------------ extraction memory

    def load_extraction_cache(self, campaign: str, keys: Sequence[str]) -> dict[str, str]:
        cache = self._of(campaign).cache
        return {key: cache[key] for key in keys if key in cache}

    def extraction_cache_keys(self, campaign: str) -> list[str]:
        return sorted(self._of(campaign).cache)

    def save_extraction_cache(self, campaign: str, entries: Mapping[str, str]) -> None:
        rows = [{"key": key, "value": value} for key, value in sorted(entries.items())]
        if rows:
            self._write(list(batched("extraction_cache_save", campaign, "rows", rows)))

    def load_gm_decisions(self, campaign: str) -> list[GmDecision]:
        rows = sorted(self._of(campaign).decisions.items())
        return [
            GmDecision(**{**p, "seq": seq, "names": tuple(p["names"] or ())}) for seq, p in rows
        ]

    def append_gm_decision(self, campaign: str, decision: GmDecision) -> None:
        props = r.checked(f"GM decision {decision.seq}", decision.model_dump(exclude={"seq"}))
        self._write(
            [("gm_decision_append", {"campaign": campaign, "seq": decision.seq, "props": props})]
        )


def _stem(word: str) -> str:
    """A plural's singular, the one part of the index's English (Snowball) stemmer kept."""
    keep = word.endswith(("ss", "us")) or not any(v in word[:-2] for v in "aeiouy")
    return word if keep or not word.endswith("s") else word[:-1]


def _terms(text: str) -> Counter[str]:
    """What the index holds of a document: each lower-cased word, and ``+stem`` for a word
    whose stem differs, with their counts."""
    words = [w.lower() for w in _WORD.findall(text)]
    return Counter(words) + Counter(f"+{_stem(w)}" for w in words if _stem(w) != w)


def _expand(word: str) -> list[str]:
    """The terms a query word matches: itself, its stem, and words that stem to it."""
    return list(dict.fromkeys((word, _stem(word), f"+{_stem(word)}")))


def _nearest(
    nodes: Mapping[str, Row],
    vectors: Mapping[str, Vector],
    q: Vector,
    k: int,
    visibilities: Sequence[Visibility],
) -> list[ScoredId]:
    """The ``k`` visible nodes nearest ``q`` by cosine similarity, best first, ties by id (a
    zero vector scores 0 here, NaN on FalkorDB)."""
    q_norm = math.sqrt(sum(v * v for v in q))
    hits = []
    for key, vector in vectors.items():
        if nodes[key]["visibility"] in visibilities:
            norm = q_norm * math.sqrt(sum(v * v for v in vector))
            dot = sum(a * b for a, b in zip(q, vector, strict=True))
            hits.append(ScoredId(id=key, score=dot / norm if norm else 0.0))
    return sorted(hits, key=lambda hit: (-hit.score, hit.id))[: max(k, 0)]
