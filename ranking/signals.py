"""The five signals of the blend (six with BM25 beside vectors), each a named callable
``signal(key, context) -> float`` in 0..1 (``status`` is a factor in (0, 1]):

- ``semantic``: the store's cosine similarity of the item to the question;
- ``lexical``: BM25, normalised per kind to the best hit;
- ``centrality``: the build's importance of the entity (of a passage: its subject; of a
  community: its most central member), normalised per campaign;
- ``recency``: ``0.5 ** (sessions since it was last in play / half_life)``; a passage from a
  session record counts from its own session;
- ``proximity``: graded graph closeness to the entities the question names, over the effective
  relations (:mod:`ranking.graph`);
- ``status``: the changelog overlay's factor, ``inactive_factor`` for a dead, destroyed or
  hostile item (or a passage about one) unless the question is historical or asks for it
  (a hostile power is one of "the powers of …", a list of its type: not demoted for it);
  and for an ally of the party (or a passage about one) when the question asks for its
  enemies, or an enemy when it asks for its allies (no answer, whatever the wording finds),
  and for whoever a change once tied to the named entity along the relation asked and
  nothing ties now (a former holder, a former leader), unless the question is historical;
  never for a captured or missing holder of the attitude a question asks about over the
  campaign ("Who's turned against us?", not "Who's still gunning for us?").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from graphrag_core.config import RankingSettings
from graphrag_core.models import CampaignView
from ranking.documents import ItemKey
from ranking.evidence import OUT_OF_REACH, Evidence
from ranking.inputs import RankInputs
from ranking.recency import chunk_session, decayed
from ranking.status import effective_state, status_factor


@dataclass(frozen=True)
class SignalContext:
    """Everything a signal may read for one question."""

    view: CampaignView
    evidence: Mapping[ItemKey, Evidence]
    inputs: RankInputs
    proximity: Mapping[str, float]
    settings: RankingSettings
    historical: bool


Signal = Callable[[ItemKey, SignalContext], float]


def entity_of(key: ItemKey, view: CampaignView) -> str | None:
    """The entity an item is about: itself, a passage's subject; None for a community."""
    if key.kind == "community":
        return None
    return key.id if key.kind == "entity" else view.chunks[key.id].subject


def semantic(key: ItemKey, ctx: SignalContext) -> float:
    return ctx.evidence[key].semantic


def lexical(key: ItemKey, ctx: SignalContext) -> float:
    return ctx.evidence[key].lexical


def _members(key: ItemKey, ctx: SignalContext) -> tuple[str, ...]:
    return ctx.inputs.summaries[key.id].members if key.kind == "community" else ()


def centrality(key: ItemKey, ctx: SignalContext) -> float:
    if key.kind == "community":
        return max((ctx.inputs.centrality.get(m, 0.0) for m in _members(key, ctx)), default=0.0)
    entity_id = entity_of(key, ctx.view)
    return ctx.inputs.centrality.get(entity_id, 0.0) if entity_id else 0.0


def _last_session(key: ItemKey, ctx: SignalContext) -> int | None:
    seen = ctx.inputs.last_seen
    if key.kind == "community":
        return max((seen[m] for m in _members(key, ctx) if m in seen), default=None)
    if key.kind == "chunk" and (session := chunk_session(ctx.view.chunks[key.id])) is not None:
        return session
    entity_id = entity_of(key, ctx.view)
    return seen.get(entity_id) if entity_id else None


def recency(key: ItemKey, ctx: SignalContext) -> float:
    return decayed(_last_session(key, ctx), ctx.inputs.now, ctx.settings.recency_half_life)


def proximity(key: ItemKey, ctx: SignalContext) -> float:
    return ctx.proximity.get(key.id, 0.0) if key.kind == "entity" else 0.0


def status(key: ItemKey, ctx: SignalContext) -> float:
    ev = ctx.evidence[key]
    if ev.former and not ctx.historical:  # held what is asked about before, not now
        return ctx.settings.inactive_factor
    if ev.named or ev.answer or ev.stated or ev.status_asked:  # asked about: only marked
        return 1.0
    if ev.opposed:  # "our enemies" asked, and this is an ally (or the other way round)
        return ctx.settings.inactive_factor
    entity_id = entity_of(key, ctx.view)
    if entity_id is None or entity_id not in ctx.view.entities:
        return 1.0
    state = effective_state(ctx.view, entity_id)
    if ev.attitude and ev.attitude_lasting and state is not None and state.status in OUT_OF_REACH:
        return 1.0  # "Who's turned against us?": the jailed turncoat too
    return status_factor(
        state,
        ctx.settings,
        historical=ctx.historical,
        # "our enemies", "what dangers lurk": hostility is the answer; "what are the powers
        # of …": a hostile power is one of them
        attitude_counts=not (ev.attitude or ev.hostile_asked or ev.listing),
    )


SIGNALS: dict[str, Signal] = {
    "semantic": semantic,
    "lexical": lexical,
    "centrality": centrality,
    "recency": recency,
    "proximity": proximity,
    "status": status,
}
"""The named signals, in the order ``--json`` lists them."""


def measure(key: ItemKey, ctx: SignalContext) -> dict[str, float]:
    """Every named signal of one item."""
    return {name: signal(key, ctx) for name, signal in SIGNALS.items()}
