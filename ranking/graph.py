"""The *effective* relation graph of a view: relations as they are now, after the changelog.

A relation whose attitude the changelog turned hostile is a ``hostile_to`` now, and one turned
allied an ``allied_with`` ("the Baron's allies" no longer lists the one who betrayed him); an
inactive entity (dead, destroyed, ...) and the party are reached but not passed through, so a
destroyed place no longer ties its surroundings together and the party, which knows everyone,
is no shortcut. Built once per view.

Two kinds of edge are not relations of the taxonomy: a ``related_to`` that only says two names
share a sentence (``evidence="co_occurrence"``) is of the kind :data:`CO_OCCURRENCE`, so a
question asking along ``related_to`` (a kinship, :data:`ranking.cues.KIN_WORDS`) reaches only
the kin the prose states; and a visible change's detail naming who destroyed or damaged the
changed entity (``destroyed_by: [reedmen]``, :data:`DESTRUCTION_DETAILS`) is a ``destroyed_by``
edge, and one naming who took it captive (``captured_by: [the-pole]``, :data:`CAPTURE_DETAILS`)
a ``captured_by`` edge, read at query time and only when asked along ("Who torched the Ferry
House?", "Who grabbed MAGPIE?"). The detail's names resolve among the view's entities only, so
a player's graph never gains a GM-only entity.

``proximity(seeds)``: graded closeness to the entities a question names: ``decay ** (d - 1)``
for the shortest distance ``d`` (in relations, up to ``hops``) from any seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from graphrag_core.models import (
    PARTY_ID,
    Attitude,
    CampaignView,
    Change,
    EffectiveState,
    Relation,
)
from graphrag_core.taxonomy import PROPERTY_RELATIONS, relation_key

_TURNED: dict[tuple[str, Attitude], str] = {
    ("allied_with", "hostile"): "hostile_to",
    ("hostile_to", "allied"): "allied_with",
    ("allied_with", "neutral"): "knows",
    ("hostile_to", "neutral"): "knows",
}


def _attitude_now(relation: Relation, states: Mapping[str, EffectiveState]) -> Attitude | None:
    """The changelog's attitude between the relation's ends, if it set one."""
    if PARTY_ID in (relation.source, relation.target):
        other = relation.target if relation.source == PARTY_ID else relation.source
        state = states.get(other)
        return state.attitude if state and state.attitude_change else None
    for one, two in ((relation.source, relation.target), (relation.target, relation.source)):
        state = states.get(one)
        if state is not None and two in state.relation_attitudes:
            return state.relation_attitudes[two]
    return None


def effective_type(relation: Relation, states: Mapping[str, EffectiveState]) -> str:
    attitude = _attitude_now(relation, states)
    return _TURNED.get((relation.type, attitude), relation.type) if attitude else relation.type


CO_OCCURRENCE = "co_occurrence"
"""The edge kind of a co-occurrence link: near in the graph, but no relation asked along."""

DESTRUCTION_DETAILS = frozenset(
    ("destroyed_by", "burned_by", "burnt_by", "torched_by", "razed_by", "sunk_by", "wrecked_by",
     "demolished_by", "damaged_by", "bombed_by", "blown_up_by")
)  # fmt: skip
"""Change details that name who destroyed (or damaged) the changed entity (a ``destroyed_by``
edge: "Who lit up the tractor shed?" asks for either)."""

CAPTURE_DETAILS = frozenset(
    ("captured_by", "kidnapped_by", "abducted_by", "arrested_by", "seized_by", "taken_by",
     "snatched_by", "imprisoned_by", "jailed_by")
)  # fmt: skip
"""Change details that name who took the changed entity captive (a ``captured_by`` edge)."""

DETAIL_KINDS = {
    **dict.fromkeys(DESTRUCTION_DETAILS, "destroyed_by"),
    **dict.fromkeys(CAPTURE_DETAILS, "captured_by"),
}
"""The edge kind of each change detail read as one."""

EVENT_KINDS = frozenset(DETAIL_KINDS.values())
"""Edge kinds of change details: followed only when a question asks along them."""


def _kind(relation: Relation, states: Mapping[str, EffectiveState]) -> str:
    if relation.evidence == "co_occurrence":
        return CO_OCCURRENCE
    return effective_type(relation, states)


def folded(name: str) -> str:
    """A change's value as :func:`entity_names` keys it: casefolded, '-' a space, whitespace
    collapsed ("Kwok-Wing-yan", "kwok wing yan" and the id "kwok-wing-yan" are one key)."""
    return " ".join(str(name).casefold().replace("-", " ").split())


def entity_names(view: CampaignView) -> dict[str, str]:
    """Every id, name and alias of the view's entities (:func:`folded`) → the entity's id: what
    a change's details and properties name (``killed_by: [Little Red]``, ``held_by: sol``)."""
    names: dict[str, str] = {}
    for entity in view.entities.values():
        for name in (entity.id, entity.name, *entity.aliases):
            names.setdefault(folded(name), entity.id)
    return names


def detail_edges(view: CampaignView) -> list[tuple[str, str, str]]:
    """``(changed, named, kind)`` per visible change detail of :data:`DETAIL_KINDS` whose
    values name entities of the view (by id, name or alias, in any case)."""
    names = entity_names(view)
    found: list[tuple[str, str, str]] = []
    for change in view.changes.values():
        if change.entity_id not in view.entities:
            continue
        for key, value in change.details.items():
            kind = DETAIL_KINDS.get(key.casefold())
            if kind is None:
                continue
            values = value if isinstance(value, list | tuple) else [value]
            for item in values:
                target = names.get(folded(item))
                if target is not None and target != change.entity_id:
                    found.append((change.entity_id, target, kind))
    return found


class EffectiveGraph:
    """Undirected adjacency of the effective relations, with their effective types."""

    def __init__(
        self,
        adjacency: dict[str, list[tuple[str, str]]],
        stops: frozenset[str],
        events: dict[str, list[tuple[str, str]]] | None = None,
    ):
        self._adjacency = adjacency
        self._stops = stops
        self._events = events or {}  # asked along only, never part of proximity

    @classmethod
    def build(cls, view: CampaignView) -> EffectiveGraph:
        adjacency: dict[str, list[tuple[str, str]]] = {}
        for relation in view.relations:
            kind = _kind(relation, view.states)
            adjacency.setdefault(relation.source, []).append((relation.target, kind))
            adjacency.setdefault(relation.target, []).append((relation.source, kind))
        events: dict[str, list[tuple[str, str]]] = {}
        for changed, named, kind in detail_edges(view):
            events.setdefault(changed, []).append((named, kind))
            events.setdefault(named, []).append((changed, kind))
        stops = {eid for eid, state in view.states.items() if state.inactive}
        return cls(adjacency, frozenset(stops | {PARTY_ID}), events)

    def neighbours(self, seeds: Iterable[str], types: Iterable[str] | None = None) -> set[str]:
        """Entities one effective relation (of ``types``, when given) from a seed; a change's
        ``destroyed_by`` or ``captured_by`` detail counts only when asked along."""
        wanted = None if types is None else frozenset(types)
        found = {
            other
            for seed in seeds
            for other, kind in (*self._adjacency.get(seed, ()), *self._events.get(seed, ()))
            if (wanted is None and kind not in EVENT_KINDS) or (wanted and kind in wanted)
        }
        return found - set(seeds)

    def links(self, entity_id: str) -> list[tuple[str, str]]:
        """``(other, kind)`` per effective relation of ``entity_id`` (co-occurrence links
        included, as :data:`CO_OCCURRENCE`; a change's ``destroyed_by`` detail is not)."""
        return list(self._adjacency.get(entity_id, ()))

    def proximity(self, seeds: Iterable[str], *, hops: int, decay: float) -> dict[str, float]:
        """``decay ** (d - 1)`` per entity at distance ``1 <= d <= hops`` from the seeds."""
        seen = set(seeds)
        frontier = [s for s in seen if s != PARTY_ID]
        found: dict[str, float] = {}
        for depth in range(1, hops + 1):
            reached = {o for node in frontier for o, _ in self._adjacency.get(node, ())} - seen
            for node in reached:
                found[node] = decay ** (depth - 1)
            seen |= reached
            frontier = [n for n in reached if n not in self._stops]
        return found


def ended_along(view: CampaignView, seeds: Iterable[str], types: Iterable[str]) -> set[str]:
    """The entities at the other end of a relation of ``types`` that a visible change of
    ``view`` ended for a seed ("Who canned Ethan?": ``{from: ethan, to: aldane, type:
    works_for, change: end}`` gives Aldane). The effective graph no longer holds an ended
    relation, so a question asking who ended it finds the answer here; a change is visible
    only to its audience and an as-of view holds none after its session."""
    seeds, wanted = set(seeds), frozenset(types)
    found: set[str] = set()
    for change in view.changes.values():
        if (
            change.kind != "relationship"
            or change.field != "relation"
            or change.new_value != "end"
            or change.relation_type not in wanted
            or change.target_id is None
        ):
            continue
        if change.entity_id in seeds:
            found.add(change.target_id)
        if change.target_id in seeds:
            found.add(change.entity_id)
    return {e for e in found - seeds if e in view.entities}


def former_along(view: CampaignView, seeds: Iterable[str], types: Iterable[str]) -> set[str]:
    """The entities a visible change of ``view`` ever tied to a seed along a relation of
    ``types``, started or ended (``{from: lobo, to: os-carcaras, type: leads}``), or set as a
    seed's property of that relation (``held_by: kwok-wing-yan``), or held that property
    before such a change (its old value: the base graph's holder too): the caller takes away the
    ones still tied now (:meth:`EffectiveGraph.neighbours`), and the rest held it *before*
    ("Who's carrying the key now?" is not answered by the one who handed it on). A value
    resolves by id, name or alias among the view's entities only."""
    seeds, wanted = set(seeds), frozenset(types)
    found: set[str] = set()
    for change in view.changes.values():
        if change.kind == "relationship" and change.relation_type in wanted and change.target_id:
            ends = {change.entity_id, change.target_id}
            if ends & seeds:
                found |= ends
    for _change, holders, before in _holdings(view, seeds, wanted):
        found |= holders | before
    return {e for e in found - seeds if e in view.entities and e != PARTY_ID}


def _holdings(
    view: CampaignView, seeds: set[str], wanted: frozenset[str]
) -> Iterator[tuple[Change, set[str], set[str]]]:
    """Each visible change setting a seed's property of a relation in ``wanted`` (either way
    round: ``held_by`` for "owns"), with the entities its value names (by id, name or alias)
    and those its old value names (an earlier change's value, or the base graph's holders,
    :func:`changelog.old_values.with_old_values`)."""
    names: dict[str, str] | None = None
    for change in view.changes.values():
        if change.kind != "entity_property" or change.entity_id not in seeds:
            continue
        key = relation_key(change.field)
        kind = PROPERTY_RELATIONS.get(key, key)
        if kind in wanted or _reverse(kind) in wanted:
            names = entity_names(view) if names is None else names
            before = _values(change.old_value) if change.old_value else []
            yield (
                change,
                {names[v] for v in _values(change.new_value) if v in names},
                {names[v] for v in before if v in names},
            )


def named_in_handovers(
    view: CampaignView,
    seeds: Iterable[str],
    types: Iterable[str],
    find: Callable[[str], set[str]],
) -> set[str]:
    """The people (:data:`HANDLER_TYPES`) the note of a visible change naming a seed's new
    holder names besides that holder ("Found in *Nepos*'s cellar, pledged by *the Prefect*
    against his dice debts; *Celer* gave it into Rufinus's keeping"): whoever the thing was
    found with, pledged by or handed on by holds it no more ("Who's sitting on the pay chest
    now?" is not answered by the moneylender). ``find`` reads names in a text."""
    seeds = set(seeds)
    found: set[str] = set()
    for change, holders, _before in _holdings(view, seeds, frozenset(types)):
        found |= find(str(change.details.get("note", ""))) - holders
    return {
        e
        for e in found - seeds
        if e in view.entities and e != PARTY_ID and view.entities[e].type in HANDLER_TYPES
    }


HANDLER_TYPES = frozenset({"NPC", "PC", "Faction"})
"""Who may have held a thing and handed it on."""


def _reverse(kind: str) -> str:
    return {"owned_by": "owns", "owns": "owned_by", "ruled_by": "leads", "leads": "ruled_by"}.get(
        kind, kind
    )


def _values(value: str) -> list[str]:
    """A property's value, possibly a list written as text ("['a', 'b']" or "a, b"), as
    :func:`folded` names."""
    parts = value.strip("[]").replace("'", " ").replace('"', " ").split(",")
    return [folded(p) for p in parts if p.strip()]


SUCCESSION_TYPES = frozenset(("leads", "ruled_by"))
"""Relations one holder hands to the next: a leadership, a rule."""


MOVE_TYPES = frozenset(("located_in",))
"""Relations by which the party moves house: its ``located_in`` the old base ended and the new
one's started ("We'll lie low back at the Cube tonight": the Cube burned and the crew lives at
the Cinema now)."""


def left_places(view: CampaignView, named: set[str]) -> set[str]:
    """The named places a visible change ended a named one's ``located_in`` to, when nothing
    ties the two now: "Is Obsidian Snake still tied up in the Spotted House?" after he was
    broken out of it is not answered by the house."""
    ended = {
        (change.entity_id, change.target_id)
        for change in view.changes.values()
        if change.kind == "relationship"
        and change.field == "relation"
        and change.relation_type in MOVE_TYPES
        and change.new_value == "end"
        and change.entity_id in named
        and change.target_id in named
    }
    if not ended:
        return set()  # the view's relations are read only for a pair a change ended
    now = {(r.source, r.target) for r in view.relations if r.type in MOVE_TYPES}
    return {place for pair in ended - now if (place := pair[1]) is not None}


def successors(view: CampaignView, seeds: Iterable[str], *, moves: bool = True) -> set[str]:
    """Who took a seed's place: a visible change ended a relation of
    :data:`SUCCESSION_TYPES` between a seed and something, and a change of that session or
    later started the same relation between that something and another ("Can the Skipper
    sign off on it?": the Commander's ``leads`` of the service ended in session 5 and
    Hennessey's started, so Hennessey is who can now); with ``moves``, the party's new base
    for its old one (:data:`MOVE_TYPES`; not for a question about the past, where "after the
    night they hit the Cube" only says when)."""
    seeds = set(seeds)
    if not seeds:
        return set()
    handovers = [
        c
        for c in view.changes.values()
        if c.kind == "relationship"
        and c.field == "relation"
        and (
            c.relation_type in SUCCESSION_TYPES
            or (moves and c.relation_type in MOVE_TYPES and c.entity_id == PARTY_ID)
        )
        and c.target_id is not None
    ]
    found: set[str] = set()
    for ended in (c for c in handovers if c.new_value == "end"):
        for started in handovers:
            if (
                started.new_value != "start"
                or started.relation_type != ended.relation_type
                or started.session_id < ended.session_id
            ):
                continue
            if ended.entity_id in seeds and started.target_id == ended.target_id:
                found.add(started.entity_id)  # the seed led it: whoever leads it now
            if ended.target_id in seeds and started.entity_id == ended.entity_id:
                found.add(str(started.target_id))  # it was ruled by the seed: its ruler now
    return {e for e in found - seeds if e in view.entities}
