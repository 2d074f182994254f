"""The data the GraphStore contract suite writes: a small harbour town, its change sets and
its analytics snapshot, with hashed embeddings of the production dimension."""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_core.analytics_models import (
    AnalyticsSnapshot,
    AudienceAnalytics,
    Community,
    CommunitySummary,
)
from graphrag_core.models import (
    Change,
    ChangeSetRecord,
    Chunk,
    Entity,
    GraphDelta,
    Relation,
    ScoredId,
    SourceRecord,
    Visibility,
)
from graphrag_core.ports import GraphStore
from tests.integration.store_backends import EMBEDDER

BOTH: tuple[Visibility, ...] = ("gm", "party")
PARTY: tuple[Visibility, ...] = ("party",)
MENTIONS_COUNT = "MATCH (:Chunk {campaign: $c})-[m:MENTIONS]->() RETURN count(m)"


def entity(eid: str, name: str, **fields: object) -> Entity:
    return Entity.model_validate({"id": eid, "name": name, "type": "NPC", **fields})


def chunk(cid: str, text: str, *mentions: str, **fields: object) -> Chunk:
    return Chunk.model_validate(
        {
            "id": cid, "source_path": "lore.md", "start": 0, "end": len(text), "text": text,
            "content_hash": f"h-{cid}", "mentions": mentions, **fields,
        }
    )  # fmt: skip


ENTITIES = (
    entity(
        "torven", "Torven Blackwater", aliases=("Torven",), gm_aliases=("The Drowned King",),
        status="alive", description="Keeper of the Rusty Anchor tavern.",
        gm_notes="Secretly a cultist of the deep.", attributes={"race": "human", "age": "54"},
        sources=("lore.md",),
    ),
    entity("anchor", "Rusty Anchor", type="Location", status="intact",
            description="A tavern by the docks where sailors rest."),
    entity("cult", "Cult of the Deep", type="Faction", visibility="gm",
            description="Drowned worshippers beneath the harbour."),
    entity("mira", "Mira Sand", description="A harbour pilot and smuggler."),
)  # fmt: skip
RELATIONS = (
    Relation(source="torven", target="anchor", type="owns", attitude="allied",
             description="Torven owns the Anchor.", source_path="lore.md", chunk_id="c1"),
    Relation(source="torven", target="cult", type="member_of", visibility="gm"),
    Relation(source="mira", target="anchor", type="knows", attitude="neutral"),
)  # fmt: skip
CHUNKS = (
    chunk("c1", "Torven Blackwater keeps the Rusty Anchor tavern by the docks.",
           "torven", "anchor", heading="Docks > Taverns", subject="anchor"),
    chunk("c2", "The Cult of the Deep meets beneath the harbour at night.", "cult",
           visibility="gm"),
    chunk("c3", "Mira Sand pilots ships through the harbour fog.", "mira", session=7, page=2),
)  # fmt: skip


def embed_all(
    entities: tuple[Entity, ...], chunks: tuple[Chunk, ...]
) -> dict[str, tuple[float, ...]]:
    texts = {e.id: f"{e.name} {e.description}" for e in entities}
    texts |= {c.id: c.text for c in chunks}
    return dict(zip(texts, EMBEDDER.embed(list(texts.values())), strict=True))


def delta(
    entities: tuple[Entity, ...] = ENTITIES,
    relations: tuple[Relation, ...] = RELATIONS,
    chunks: tuple[Chunk, ...] = CHUNKS,
) -> GraphDelta:
    return GraphDelta(
        sources_upsert=(SourceRecord(path="lore.md", sha256="abc", kind="markdown",
                                     chunk_count=len(chunks)),),
        entities_upsert=entities,
        relations_upsert=relations,
        chunks_upsert=chunks,
        vectors=embed_all(entities, chunks),
    )  # fmt: skip


def graph_state(store: GraphStore, campaign: str) -> tuple[object, ...]:
    return (
        store.load_sources(campaign),
        store.load_entities(campaign),
        store.load_relations(campaign),
        store.load_chunks(campaign),
        store.load_changesets(campaign),
        store.load_changes(campaign),
    )


def ids(results: Sequence[ScoredId]) -> list[str]:
    return [r.id for r in results]


def change(session: int, revision: int, seq: int, **fields: object) -> Change:
    return Change.model_validate(
        {
            "id": f"s{session}-r{revision}-{seq}", "session_id": session, "revision": revision,
            "seq": seq, "kind": "entity_status", "entity_id": "torven", "field": "status",
            "new_value": "dead", **fields,
        }
    )  # fmt: skip


def record(session: int, revision: int, count: int) -> ChangeSetRecord:
    return ChangeSetRecord(
        session_id=session, revision=revision, content_hash=f"h{session}.{revision}",
        source=f"session-{session}.yaml", posted_at="2026-01-01T00:00:00+00:00",
        title=f"Session {session}", change_count=count,
    )  # fmt: skip


def summary(community: str, visibility: Visibility, text: str) -> CommunitySummary:
    return CommunitySummary(
        community_id=community, visibility=visibility, title=f"{community} ({visibility})",
        summary=text, members=("torven", "anchor"),
    )  # fmt: skip


def _audience(visibility: Visibility, summaries: tuple[CommunitySummary, ...]) -> AudienceAnalytics:
    mine = tuple(s for s in summaries if s.visibility == visibility)
    communities = tuple(
        Community(id=cid, level=0, members=("anchor", "torven"))
        for cid in sorted({s.community_id for s in mine})
    )
    return AudienceAnalytics(communities=communities, summaries=mine)


def analytics(campaign: str, *summaries: CommunitySummary) -> AnalyticsSnapshot:
    return AnalyticsSnapshot(
        campaign=campaign, built_at="2026-01-01T00:00:00+00:00",
        gm=_audience("gm", summaries), party=_audience("party", summaries),
    )  # fmt: skip


def summary_vectors(snapshot: AnalyticsSnapshot) -> dict[str, tuple[float, ...]]:
    texts = {s.key: s.summary for s in snapshot.summaries}
    return dict(zip(texts, EMBEDDER.embed(list(texts.values())), strict=True))


HARBOUR = analytics(
    "c",
    summary("c-0-1", "gm", "The Cult of the Deep rules the harbour from beneath the docks."),
    summary("c-0-1", "party", "Sailors rest at the Rusty Anchor tavern by the docks."),
)
