"""What the ranker reads besides the view, built once per view and audience: the name index,
the effective relation graph, centrality normalised per campaign, the last session each
entity was in play, the audience's community summaries, the party's own members and the
things named only in passing (each of the last two a scan of the whole view: 3 and 17 ms at
10k entities, too dear to pay per question)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from graphrag_core.analytics_models import CommunitySummary
from graphrag_core.models import CampaignView
from ranking.graph import EffectiveGraph
from ranking.lexical import STOPWORDS
from ranking.names import NameIndex
from ranking.party import party_members
from ranking.passing import passing_entities
from ranking.recency import current_session, last_sessions, merge_sessions
from ranking.referents import name_heads


def normalised(importance: Mapping[str, float]) -> dict[str, float]:
    """Importance rescaled to 0..1 within the campaign (min → 0, max → 1; all equal → 0)."""
    if not importance:
        return {}
    low, high = min(importance.values()), max(importance.values())
    span = high - low
    return {eid: (value - low) / span if span else 0.0 for eid, value in importance.items()}


@dataclass(frozen=True)
class RankInputs:
    """Per-view indexes and signal inputs; ``build`` makes them from the view alone plus the
    build's importance and any other source of last sessions."""

    names: NameIndex
    graph: EffectiveGraph
    centrality: Mapping[str, float] = field(default_factory=dict)
    last_seen: Mapping[str, int] = field(default_factory=dict)
    now: int | None = None
    summaries: Mapping[str, CommunitySummary] = field(default_factory=dict)
    """The audience's community summaries by community id (none before a build)."""
    party: frozenset[str] = frozenset()
    """The party's own members (:func:`ranking.party.party_members`)."""
    passing: frozenset[str] = frozenset()
    """The things named only in passing (:func:`ranking.passing.passing_entities`)."""
    heads: Mapping[str, frozenset[str]] | None = None
    """The last words of names (:func:`ranking.referents.name_heads`); None: not built."""

    @classmethod
    def build(
        cls,
        view: CampaignView,
        *,
        importance: Mapping[str, float] | None = None,
        sessions: Mapping[str, int] | None = None,
        summaries: Mapping[str, CommunitySummary] | None = None,
    ) -> RankInputs:
        last = merge_sessions(last_sessions(view), sessions or {})
        names = NameIndex.build(view, ignore=STOPWORDS)
        return cls(
            names=names,
            graph=EffectiveGraph.build(view),
            centrality=normalised(importance or {}),
            last_seen=last,
            now=current_session(view, last),
            summaries=summaries or {},
            party=party_members(view, names),
            passing=passing_entities(view),
            heads=name_heads(view),
        )
