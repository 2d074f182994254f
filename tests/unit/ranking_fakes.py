"""A small campaign for the ranking tests, and a brute-force fake of the store's vector search.

The campaign: two places to rest (the Red Oak Tavern, destroyed in session 3, and the intact
Silver Stag Inn), two sell-sword companies (the Iron Hand, hostile since session 4, and the
neutral River Guild), Torven Blackwater (dead since session 5, with a GM-only alias and notes),
a GM-only cult and a GM-only chunk about it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from graphrag_core.config import RankingSettings
from graphrag_core.models import (
    CampaignView,
    Change,
    Chunk,
    EffectiveState,
    Entity,
    ScoredId,
    Visibility,
)
from graphrag_core.ports import GraphStore, SearchKind
from ranking.documents import chunk_document, entity_document
from ranking.lexical import LexicalIndex
from ranking.ranker import Ranker
from ranking.wording import spelt_out
from tests.fakes import HashEmbedder

CAMPAIGN = "saltmarsh"


class FakeVectorStore:
    """Only ``GraphStore.vector_search``: exact cosine over HashEmbedder vectors.

    ``leaky=True`` ignores the visibilities asked for, as a buggy adapter might."""

    def __init__(self, embedder: HashEmbedder, view: CampaignView, *, leaky: bool = False) -> None:
        self.leaky = leaky
        self.calls: list[tuple[str, SearchKind, int, tuple[Visibility, ...]]] = []
        self._items: dict[SearchKind, list[tuple[str, Visibility, tuple[float, ...]]]] = {
            "entity": [
                (e.id, e.visibility, embedder.embed([entity_document(e, gm=False)])[0])
                for e in view.entities.values()
            ],
            "chunk": [
                (c.id, c.visibility, embedder.embed([chunk_document(c)])[0])
                for c in view.chunks.values()
            ],
        }

    def vector_search(
        self,
        campaign: str,
        kind: SearchKind,
        vector: Sequence[float],
        k: int,
        visibilities: Sequence[Visibility],
    ) -> list[ScoredId]:
        self.calls.append((campaign, kind, k, tuple(visibilities)))
        scored = [
            ScoredId(id=item_id, score=_cosine(vector, item_vector))
            for item_id, visibility, item_vector in self._items[kind]
            if self.leaky or visibility in visibilities
        ]
        return sorted(scored, key=lambda s: (-s.score, s.id))[:k]

    def as_port(self) -> GraphStore:
        """The fake implements only what the ranker calls; tell the type checker so."""
        return cast(GraphStore, self)


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


ENTITIES = (
    Entity(
        id="red-oak-tavern",
        name="Red Oak Tavern",
        type="Location",
        status="intact",
        description="A tavern by the docks where the party can rest. Warm beds and ale.",
    ),
    Entity(
        id="silver-stag-inn",
        name="Silver Stag Inn",
        type="Location",
        status="intact",
        description="An inn on the hill where travellers rest. Quiet rooms and warm beds.",
    ),
    Entity(
        id="iron-hand",
        name="Iron Hand",
        type="Faction",
        status="active",
        description="A mercenary company that hires out swords to anyone who pays.",
    ),
    Entity(
        id="river-guild",
        name="River Guild",
        type="Faction",
        status="active",
        description="A mercenary company of boatmen that hires out swords along the river.",
    ),
    Entity(
        id="torven-blackwater",
        name="Torven Blackwater",
        type="NPC",
        status="alive",
        aliases=("Torven",),
        gm_aliases=("the Masked Lord",),
        gm_notes="Secretly pays the Iron Hand.",
        description="The harbour master of Saltmarsh.",
    ),
    Entity(
        id="shadow-cult",
        name="Cult of the Drowned",
        type="Faction",
        visibility="gm",
        description="A hidden cult beneath the inn.",
    ),
)

CHUNKS = (
    Chunk(
        id="c-tavern",
        source_path="places.md",
        start=0,
        end=60,
        content_hash="a",
        heading="Saltmarsh > Red Oak Tavern",
        subject="red-oak-tavern",
        mentions=("red-oak-tavern", "torven-blackwater"),
        text="The Red Oak Tavern is where the party can rest; Torven drinks there nightly.",
    ),
    Chunk(
        id="c-inn",
        source_path="places.md",
        start=60,
        end=120,
        content_hash="b",
        heading="Saltmarsh > Silver Stag Inn",
        subject="silver-stag-inn",
        mentions=("silver-stag-inn",),
        text="The Silver Stag Inn offers the party a place to rest and quiet rooms.",
    ),
    Chunk(
        id="c-market",
        source_path="places.md",
        start=120,
        end=180,
        content_hash="c",
        heading="Saltmarsh > Market",
        mentions=("red-oak-tavern",),
        text="The fish market lies beside the Red Oak Tavern.",
    ),
    Chunk(
        id="c-secret",
        source_path="secrets.md",
        start=0,
        end=60,
        content_hash="d",
        heading="Secrets",
        visibility="gm",
        subject="shadow-cult",
        mentions=("shadow-cult",),
        text="The party can rest safely in the cult hideout beneath the Silver Stag Inn.",
    ),
)

CHANGES = (
    Change(
        id="s3-r1-1",
        session_id=3,
        seq=1,
        kind="entity_status",
        entity_id="red-oak-tavern",
        field="status",
        old_value="intact",
        new_value="destroyed",
        source="sessions/3.md",
    ),
    Change(
        id="s4-r1-1",
        session_id=4,
        seq=1,
        kind="relationship",
        entity_id="iron-hand",
        target_id="party",
        relation_type="hostile_to",
        field="attitude",
        new_value="hostile",
        source="sessions/4.md",
    ),
    Change(
        id="s5-r1-1",
        session_id=5,
        seq=1,
        kind="entity_status",
        entity_id="torven-blackwater",
        field="status",
        old_value="alive",
        new_value="dead",
        source="sessions/5.md",
    ),
)

STATES = {
    "red-oak-tavern": EffectiveState(
        entity_id="red-oak-tavern",
        status="destroyed",
        status_change="s3-r1-1",
        status_session=3,
    ),
    "silver-stag-inn": EffectiveState(entity_id="silver-stag-inn", status="intact"),
    "iron-hand": EffectiveState(
        entity_id="iron-hand", status="active", attitude="hostile", attitude_change="s4-r1-1"
    ),
    "river-guild": EffectiveState(entity_id="river-guild", status="active", attitude="neutral"),
    "torven-blackwater": EffectiveState(
        entity_id="torven-blackwater", status="dead", status_change="s5-r1-1", status_session=5
    ),
    "shadow-cult": EffectiveState(entity_id="shadow-cult", status="active"),
}


def gm_view() -> CampaignView:
    return CampaignView(
        campaign=CAMPAIGN,
        visibilities=("gm", "party"),
        entities={e.id: e for e in ENTITIES},
        relations=(),
        chunks={c.id: c for c in CHUNKS},
        states=dict(STATES),
        changes={c.id: c for c in CHANGES},
    )


def party_view() -> CampaignView:
    """What the application service hands the ranker for players: every GM item gone."""
    entities = {
        e.id: e.model_copy(update={"gm_aliases": (), "gm_notes": ""})
        for e in ENTITIES
        if e.visibility == "party"
    }
    return CampaignView(
        campaign=CAMPAIGN,
        visibilities=("party",),
        entities=entities,
        relations=(),
        chunks={c.id: c for c in CHUNKS if c.visibility == "party"},
        states={k: v for k, v in STATES.items() if k in entities},
        changes={c.id: c for c in CHANGES},
    )


def ranked_signals(view: CampaignView, question: str) -> dict[str, dict[str, float]]:
    """Per result id its signals and its ``rank`` (0 first): the ranker with default
    settings, the hash embedder and a fake vector store over ``view``."""
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    found = ranker.rank(spelt_out(question), view, LexicalIndex.build(view), k=10).results
    return {r.id: r.signals | {"rank": float(i)} for i, r in enumerate(found)}
