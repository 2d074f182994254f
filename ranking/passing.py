"""Things named in passing: no answer to a question that asks for a list.

A primer that opens "Gullport is a grey harbour city on the New England coast, forty miles up
the shore from Boston" names two places that are no part of the campaign's world: no passage
is about them, and nothing is stated of them but that they stand in a sentence beside other
names. Yet a list question ("What are the main spots along the waterfront?", "What's dangerous
in town?", "Who are the big players?") weighs every place or power the passages touch, and a
name from the city's first paragraph sits close to everything in the graph. So an entity
**named only in passing** (:func:`passing_entities`), a place or a thing of no type
(:data:`BACKDROP_TYPES`), has its score in a list answer, and in the answer to a question
that asks for another type ("*Who* can fix it?": a person), multiplied
by ``settings.inactive_factor`` (never hidden: its match, and so the floor, is kept; named in
the question, it is not demoted):

- no visible passage is about it (it is never a passage's subject: mentioned only);
- every relation it has is a co-occurrence (``related_to``, two names in one sentence), or it
  contains another place (the region a city is ``located_in``): nothing is *stated* of it —
  no one leads it, owns it, lives there, fights it.

A place with an entry of its own, or a stated relation (the inn ``located_in`` the town, the
gang that ``controls`` the docks), is never so demoted. Only the view is read.
"""

from __future__ import annotations

from collections import defaultdict

from graphrag_core.models import PARTY_ID, CampaignView, Relation

BACKDROP_TYPES = frozenset({"Location", "Other"})
"""The types a thing named in passing has: a place (or a thing of no type) in the background of
a sentence. A person or faction named once is still an actor ("the Stockmen's Association sets
the price of beef" says what it does, and it is one of the town's powers)."""

CO_OCCURRENCE = "related_to"
"""The relation the prose makes of two names in one sentence: states nothing."""


def _states_something(relation: Relation, entity_id: str) -> bool:
    """The relation says something of ``entity_id`` beyond its being named near another:
    neither a co-occurrence nor its containing another place."""
    if relation.type == CO_OCCURRENCE:
        return False
    if relation.type == "located_in" and relation.target == entity_id:
        return False
    return not (relation.type == "contains" and relation.source == entity_id)


def passing_entities(view: CampaignView) -> frozenset[str]:
    """The entities of the view named only in passing (see the module's docstring)."""
    stated: defaultdict[str, bool] = defaultdict(bool)
    for relation in view.relations:
        for end in (relation.source, relation.target):
            stated[end] = stated[end] or _states_something(relation, end)
    return frozenset(
        entity_id
        for entity_id in view.entities
        if entity_id != PARTY_ID
        and view.entities[entity_id].type in BACKDROP_TYPES
        and not stated[entity_id]
        and all(rank != 0 for rank, _ in view.chunks_naming(entity_id))
    )


def passing_demoted(
    passing: frozenset[str], named: set[str], many: bool, answer_types: frozenset[str]
) -> frozenset[str]:
    """The things named in ``passing`` (:func:`passing_entities`, once per view) a question
    demotes: in a list answer (``many``), or when it asks for no backdrop type at all ("*Who*
    can fix it?" asks for a person: the car or the city a sentence names in passing is no
    answer), every one it does not name."""
    if not many and (not answer_types or not BACKDROP_TYPES.isdisjoint(answer_types)):
        return frozenset()
    return passing - named
