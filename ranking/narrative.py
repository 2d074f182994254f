"""Who took part in what happened: the answers of a narrative question.

"How did the Widow Pike lose the mill?" names the widow, but the answer is the story: who
took the mill from her, who helped, what was used. Passages about her lift her; the others
are at best names in a long passage among every other name in it. The session records say
who was *there*: a sentence of a recap that names the widow and someone else puts the two in
one scene. So for a **narrative question** (one that asks how, why, what or where about the
past, :data:`NARRATIVE_STARTS` and :func:`ranking.historical.is_historical`, and names an
entity), every entity named in a sentence of a session record together with a named one
takes part, and so does every entity a change of the view ties to one (a relation a change
set started, "killed_by", "destroyed_by": the killer of the widow's son took part in his
death). An entity's value is its count of such sentences and changes over the best count
(0..1), and 1 for the doer a change of a named entity names in its details ("destroyed_by:
[gravediggers]"): the recaps may put a bystander beside the motel in three sentences and never
name who burned it, but the change says who did. So are, at 1, the changed entity and the doers
of a change whose note names a named one ("shot him point blank *at Bar Saudade*": the dead
man and his killer took part in what went down there), and whoever the note of a named one's
own change names ("*Kiichi* opened her cell with the key; *the Inspector's* release order
followed": how the Crane got out). The ranker weighs it with ``w.took_part``.

Only the view is read: its session-record chunks (an as-of view holds no later session's
record, a player's view no GM-only one) and its changes and relations.
"""

from __future__ import annotations

from collections import Counter

from graphrag_core.models import PARTY_ID, CampaignView
from ranking.documents import sentences
from ranking.historical import is_historical
from ranking.names import NameIndex, question_words

NARRATIVE_STARTS = frozenset({"how", "why", "what", "where"})
"""Question words that ask for a story when the question is in the past tense ("How did …",
"What happened to …", "Where did the silver go?"); "who" asks for one entity (a relation)."""


def is_narrative(question: str) -> bool:
    """A question that asks how, why, what or where about the past."""
    words = question_words(question)
    return bool(words) and words[0] in NARRATIVE_STARTS and is_historical(question)


def participants(
    question: str, named: set[str], view: CampaignView, names: NameIndex
) -> dict[str, float]:
    """Entity id → how much it took part, with an entity the question names, in what the
    session records and the changes tell (0..1); empty for a question that is no story."""
    named = named - {PARTY_ID}
    if not named or not is_narrative(question):
        return {}
    counts: Counter[str] = Counter()
    for entity_id in named:
        for _, chunk in view.chunks_naming(entity_id):
            if chunk.session is None:
                continue
            for sentence in sentences(chunk.text):
                found = names.find(sentence)
                if entity_id in found:
                    counts.update(found)
    for relation in view.relations:
        if relation.change_id and relation.change_id in view.changes:
            ends = {relation.source, relation.target}
            if ends & named:
                counts.update(ends)
    own = [change for change in view.changes.values() if change.entity_id in named]
    agents = {e for change in own for e in _detail_ids(change.details, view)}
    for change in own:  # "Kiichi opened her cell with the key": who freed the Crane
        agents |= names.find(str(change.details.get("note", "")))
    agents |= _told_in_notes(named, view, names)
    counts.update(agents)
    for gone in (*named, PARTY_ID):
        counts.pop(gone, None)
        agents.discard(gone)
    counts = Counter({e: n for e, n in counts.items() if e in view.entities})
    best = max(counts.values(), default=0)
    took = {e: n / best for e, n in counts.items()} if best else {}
    return took | dict.fromkeys(agents, 1.0)


def _told_in_notes(named: set[str], view: CampaignView, names: NameIndex) -> set[str]:
    """The changed entity and the doers of every change whose note names an entity the
    question names: "What went down at Quim's the night of the handover?" is told by the
    change that killed Bico *at Bar Saudade* (him, and his killer in ``killed_by``)."""
    spellings = {
        _spelling(name)
        for entity_id in named
        if (entity := view.entities.get(entity_id)) is not None
        for name in (entity.name, *entity.aliases)
    }  # a note that holds none of them is not read word by word
    found: set[str] = set()
    for change in view.changes.values():
        note = str(change.details.get("note", ""))
        if not note or change.entity_id == PARTY_ID:
            continue
        folded = _spelling(note)
        if any(s in folded for s in spellings) and names.find(note) & named:
            found.add(change.entity_id)
            found.update(_detail_ids(change.details, view))
    return found


def _spelling(text: str) -> str:
    """Casefolded, straight apostrophes, no leading "the": for a substring test."""
    folded = text.casefold().replace("\u2019", "'")
    return folded.removeprefix("the ")


def _detail_ids(details: dict[str, object], view: CampaignView) -> list[str]:
    """The entity ids a change's details name ("killed_by: [cinder-knives]")."""
    found: list[str] = []
    for value in details.values():
        items = value if isinstance(value, list | tuple) else [value]
        found += [v for v in items if isinstance(v, str) and v in view.entities]
    return found
