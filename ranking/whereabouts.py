"""Where a named person or thing is now, from the change that last moved it.

"Where are they keeping the Argus woman?", "Where'd the black book end up?", "Where's Doc
now?" ask for a place (or, for a thing, whoever holds it). The graph rarely says so: a session
recap's change set does — ``status: captured`` with the note "held in Brimstone jail for the
grand jury", ``held_by: tomas-villanueva``. For a question that asks *where* and names an
entity that is no place, the answers are:

- when its latest status change (in the view: as of the asked session, visible to the
  audience) took it away (:data:`AWAY`: captured, missing, lost), the places that change's
  note names: the last one at :data:`NOTED`, the ones before it at ``NOTED * EARLIER`` (a
  note tells in order). A rescue's note names where the person was, not where they are: it
  answers nothing;
- when its latest status change brought it back (a rescue, a release), whoever and whatever
  the note names after a word of *now* ("went with Gran Static", "now works out of Lucky
  Bubbles", :data:`NOW_AT`), at :data:`NOTED`;
- for a captive, its captor (the change's ``captured_by``), below the places;
- for a thing, whoever holds it now (its ``owned_by`` / ``owns`` relations in the effective
  graph, which a change's ``held_by`` sets), at :data:`NOTED`;
- the places it is in now (its effective ``located_in``, which a change set starts and ends
  as it moves: "Zayd went to live under the Bridge of Boats"), at :data:`NOTED`.

The ranker weighs these like stated answers (``w.relation``). Nothing here reads a change the
view does not hold, so a GM-only change tells players nothing.
"""

from __future__ import annotations

import re

from graphrag_core.models import PARTY_ID, CampaignView, Change
from ranking.cues import LODGING_SLANG, LODGING_WORDS, PARTY_NOUNS, QuestionCues
from ranking.graph import MOVE_TYPES, EffectiveGraph, former_along
from ranking.names import NameIndex, question_words

NOTED = 0.6
"""A place a change's note names, or a thing's holder: as a stated answer, below an extracted
relation's 1.0 and, mostly, below the entity asked about ("Where is Prior Benedikt?": his
entry, with its status and the change behind it, is the first answer; at 0.9 the place his
note names came first on four of the ten labelled sets and cost them MRR)."""

EARLIER = 0.75
"""A place the note names before its last one ("arrested at the Imperial; held in the jail")."""

WHERE_WORDS = frozenset(("where", "wheres", "whered", "whereabouts"))
"""The first words of a question asking where something is (as :func:`question_words` reads
them: "Where's" is "wheres")."""

AWAY = frozenset(("captured", "missing", "lost"))
"""Statuses whose change note says where the entity is kept or was last seen."""

HOLDING = frozenset(("owned_by", "owns"))
CAPTORS = frozenset(("captured_by",))
PLACE_TYPES = frozenset(("Location",))


def whereabouts(
    question: str,
    cues: QuestionCues,
    named: set[str],
    view: CampaignView,
    names: NameIndex,
    graph: EffectiveGraph,
) -> dict[str, float]:
    """Entity id → how strongly it answers where a named person or thing is now (0..1)."""
    words = question_words(question)
    if not words or words[0] not in WHERE_WORDS or "Location" not in cues.answer_types:
        return {}
    found: dict[str, float] = {}
    for entity_id in named:
        entity = view.entities.get(entity_id)
        if entity is None or entity.type in PLACE_TYPES:
            continue
        change = latest_status(view, entity_id)
        places = noted_places(view, names, entity_id)
        for other in places:  # a note tells in order: the last place is where it is
            found[other] = NOTED if other == places[-1] else NOTED * EARLIER
        if change is not None and change.new_value not in AWAY:  # "went with Gran Static"
            for other in _now_with(str(change.details.get("note", "")), names) - {entity_id}:
                if other in view.entities and other != PARTY_ID:
                    found.setdefault(other, NOTED)
        if change is not None and change.new_value == "captured":  # held by its captor
            for captor in graph.neighbours({entity_id}, CAPTORS):
                found.setdefault(captor, NOTED * EARLIER)
        if entity.type == "Item":
            for holder in graph.neighbours({entity_id}, HOLDING):
                if holder in view.entities:
                    found[holder] = NOTED
        for place in graph.neighbours({entity_id}, MOVE_TYPES):  # "moved in under the bridge"
            if place in view.entities and view.entities[place].type in PLACE_TYPES:
                found.setdefault(place, NOTED)
    return found


def placed_by_changes(
    named: set[str], view: CampaignView, names: NameIndex, where: dict[str, float]
) -> bool:
    """Whether the changelog itself says where a named person or thing is now: a place of
    ``where`` (:func:`whereabouts`) that its latest status change's note names (captured,
    "held in Tallow Street station"), or a ``located_in`` a change started and has not
    ended. Then every other place is where it *was* ("Where's Digger Fenn right now?" is not
    answered by his undertaker's shop): no answer to a question about now."""
    if not where:
        return False  # no question of where, or nothing placed: read no change
    for entity_id in named:
        if not set(noted_places(view, names, entity_id)).isdisjoint(where):
            return True
        for change_id in view.relation_changes(entity_id):
            started = view.changes.get(change_id)
            if (
                started is not None
                and started.entity_id == entity_id
                and started.relation_type in MOVE_TYPES
                and started.target_id in where
            ):
                return True
    return False


def noted_places(view: CampaignView, names: NameIndex, entity_id: str) -> list[str]:
    """The places the note of the entity's latest status change names, in order, when that
    change took it away (:data:`AWAY`): where it is kept or was last seen."""
    change = latest_status(view, entity_id)
    if change is None or change.new_value not in AWAY:
        return []
    note = str(change.details.get("note", ""))
    return [
        other
        for span in names.spans(note, possessive=True)
        for other in sorted(span.ids)
        if other in view.entities and view.entities[other].type in PLACE_TYPES
    ]


NOW_AT = re.compile(
    r"\b(?:now (?:works?|lives?|living|working|staying|hiding|based)(?: out of| at| in| with)?"
    r"|now (?:at|with|in)|went (?:with|to|back to|home to|off with)|moved (?:in with|to|into)"
    r"|staying (?:with|at)|lives (?:with|at|in)|living (?:with|at|in)|hiding (?:with|at|in)"
    r"|holed up (?:at|in|with)|taken in by|sheltering (?:with|at|in))\b",
    re.IGNORECASE,
)
"""Where a note of a return (a rescue, a release) says the person is *now*: "Rescued from the
reefer; *went with* Gran Static", "released; *now works out of* Lucky Bubbles". The note's
places before it are where they were."""


def _now_with(note: str, names: NameIndex) -> set[str]:
    """The entities a note names after :data:`NOW_AT`, to the end of that clause."""
    found: set[str] = set()
    for match in NOW_AT.finditer(note):
        clause = re.split(r"[.;]", note[match.end() :], maxsplit=1)[0]
        found |= {e for span in names.spans(clause, possessive=True) for e in span.ids}
    return found


def latest_status(view: CampaignView, entity_id: str) -> Change | None:
    """The entity's latest status change in the view."""
    changes = [
        c for c in view.changes.values() if c.entity_id == entity_id and c.kind == "entity_status"
    ]
    return max(changes, key=lambda c: (c.session_id, c.revision, c.seq), default=None)


DWELLING_WORDS = frozenset(
    (*LODGING_WORDS, *LODGING_SLANG, "staying", "living", "live", "lives", "based", "base",
     "home", "hideout", "hq", "headquarters", "quartered", "lodged", "camped", "sleeps")
)  # fmt: skip
"""Words by which a question asking *where* asks where someone lives or sleeps."""

_OPTIONS = frozenset(("can", "could", "should", "shall", "might", "may", "to", "would"))
"""Words by which a question asks for a place to stay rather than where the party lives."""

_BEFORE = frozenset(("old", "former", "previous", "first", "last", "original"))
"""Words by which a question asks where the party lived before, not now."""

_PARTY_SUBJECTS = frozenset(("we", "us", "our", "everybody", "everyone", *PARTY_NOUNS))


MOVING_WORDS = frozenset(("move", "moved", "moving", "relocate", "relocated", "relocating"))


def _moved_house(words: list[str]) -> bool:
    """ "Where'd we *move to* after Mother Rain sold us out?": a verb of moving house with no
    object after it ("Where did we move the chest?" asks where the chest went)."""
    return any(
        w in MOVING_WORDS and words[i + 1 : i + 2] in ([], ["to"], ["into"], ["out"])
        for i, w in enumerate(words)
    )


def party_base(
    question: str, view: CampaignView, graph: EffectiveGraph
) -> tuple[set[str], set[str]]:
    """``(now, before)``: where the party lives now and where it lived before, when the
    question asks where the party stays ("Where's *the crew bedding down* these days?",
    "Where are *we staying* now?"): the places of its effective ``located_in`` relations
    (:data:`ranking.graph.MOVE_TYPES`, which a change set starts and ends as the party moves
    house), and the ones a change once tied it to that nothing ties now."""
    words = question_words(question)
    if not words or words[0] not in WHERE_WORDS:
        return set(), set()
    if (DWELLING_WORDS.isdisjoint(words) and not _moved_house(words)) or _PARTY_SUBJECTS.isdisjoint(
        words
    ):
        return set(), set()
    asked = [w for i, w in enumerate(words) if not (w == "to" and words[i - 1] in MOVING_WORDS)]
    if not _OPTIONS.isdisjoint(asked):  # "Where *can* the party rest tonight?" asks for an inn
        return set(), set()
    if not _BEFORE.isdisjoint(words):  # "Where's our *old* hideout?" asks for no base of now
        return set(), set()
    now = {e for e in graph.neighbours({PARTY_ID}, MOVE_TYPES) if e in view.entities}
    return now, former_along(view, {PARTY_ID}, MOVE_TYPES) - now
