"""What the candidate generators found for one item, before the ranker blends it: passages
lift the entities they are about (``support``) and those they name (``mention``); the attitude
cue selects the entities whose attitude toward the party is the one asked about."""

from __future__ import annotations

from dataclasses import dataclass

from graphrag_core.models import PARTY_ID, CampaignView
from ranking.cues import QuestionCues
from ranking.documents import ItemKey


@dataclass(frozen=True)
class Evidence:
    """What the candidate generators found for one item, before blending."""

    semantic: float
    lexical: float
    support: float
    named: bool
    near: bool
    mention: float = 0.0
    answer: bool = False
    stated: float = 0.0
    attitude: bool = False
    typed: bool = False
    anchor: bool = False
    listing: bool = False
    """Of a type the question asks a list of (:attr:`ranking.cues.QuestionCues.list_types`)."""
    hostile_asked: bool = False
    """The question asks for dangers (:attr:`ranking.cues.QuestionCues.dangers`)."""
    opposed: bool = False
    """The question asks for the party's enemies and the entity is its ally, or the other
    way round: it is no answer, and is demoted like an unavailable one."""
    status_asked: bool = False
    """The question names nothing and asks about a status this entity holds or has held
    (:mod:`ranking.asked_status`)."""
    attitude_lasting: bool = False
    """The question asks who has held the asked attitude over the campaign, not who can act
    on it now ("Who's turned against us?", "Who are our enemies?"; not "Who's *still*
    gunning for us?"): a captured or missing holder (:data:`OUT_OF_REACH`) is no less one,
    and is not demoted for it (still marked unavailable)."""
    former: bool = False
    """A change once tied it to a named entity along the relation asked, and nothing ties it
    now: it held the thing *before* (:func:`ranking.graph.former_along`), no answer to a
    question about now."""
    held_before: bool = False
    """Named, and held another named thing before along the relation asked, not now ("Does
    *the Speaker* still have his feather crown?" after it was taken from him): marked as a
    former holder, not demoted (it is asked about)."""
    took_part: float = 0.0
    """How much it took part, with a named entity, in what a narrative question asks about
    (:mod:`ranking.narrative`)."""

    @property
    def relevant(self) -> bool:
        """Some evidence of relevance; a matching type alone is not."""
        return bool(
            self.semantic
            or self.lexical
            or self.support
            or self.mention
            or self.named
            or self.near
            or self.answer
            or self.stated
            or self.attitude
            or self.status_asked
            or self.took_part
        )


def subject_support(relevance: dict[ItemKey, float], view: CampaignView) -> dict[str, float]:
    """Per entity, the best relevance of a candidate passage whose subject it is."""
    support: dict[str, float] = {}
    for key, value in relevance.items():
        subject = view.chunks[key.id].subject if key.kind == "chunk" else None
        if value > 0.0 and subject in view.entities and subject != PARTY_ID:
            support[subject] = max(support.get(subject, 0.0), value)
    return support


def mention_support(relevance: dict[ItemKey, float], view: CampaignView) -> dict[str, float]:
    """Per entity, the best relevance of a candidate passage that names it (not its subject)."""
    found: dict[str, float] = {}
    for key, value in relevance.items():
        if key.kind != "chunk" or value <= 0.0:
            continue
        chunk = view.chunks[key.id]
        for entity_id in chunk.mentions:
            if entity_id not in (chunk.subject, PARTY_ID) and entity_id in view.entities:
                found[entity_id] = max(found.get(entity_id, 0.0), value)
    return found


def with_attitude(view: CampaignView, attitude: str | None) -> set[str]:
    """Entities whose effective attitude toward the party is ``attitude`` (an entity without
    a state in the view has none)."""
    if attitude is None:
        return set()
    return {
        entity_id
        for entity_id, state in view.states.items()
        if state.attitude == attitude and entity_id != PARTY_ID and entity_id in view.entities
    }


OUT_OF_REACH = frozenset({"captured", "missing"})
"""Statuses that take an enemy or a friend out of reach without ending what they are."""

OPPOSITE: dict[str, str] = {"hostile": "allied", "allied": "hostile"}


def with_opposed(view: CampaignView, attitude: str | None) -> set[str]:
    """Entities whose effective attitude toward the party is the opposite of ``attitude``
    (the party's allies when its enemies are asked for)."""
    return with_attitude(view, OPPOSITE[attitude]) if attitude in OPPOSITE else set()


def nobody_note(cues: QuestionCues, view: CampaignView) -> str:
    """A note when the question asks for the party's allies or enemies and there are none."""
    if cues.attitude is None or with_attitude(view, cues.attitude):
        return ""
    what = "allied with" if cues.attitude == "allied" else "hostile to"
    return f"nothing in this campaign is {what} the party now"
