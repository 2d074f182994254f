"""Answers a passage states: the relation cue when the relation was never extracted.

"Who heads the Jade Caravan Company?" asks along ``leads`` from the Company. When the offline
extractor found that relation, the relation cue (:mod:`ranking.cues`) lifts the answer. When it
did not ("Ilyan Vesh sits at the head of its counting table"), the answer is only a name in a
passage about the Company, lifted no more than any other name there, and a hostile or dead
answer is even demoted. Here, a sentence of a candidate passage *states* an answer when:

- the passage is about an entity the question names (its subject), or the sentence names one,
  or the sentence before it names one last ("... is the Tarred Gull. Ulf Nettle owns it.":
  prose goes on about what it has just named, and a pronoun stands for the nearest name);
  a sentence ends at ".", "!", "?" or a line break, not at a semicolon, which joins clauses
  about one thing ("The widow Ragna Holt mends nets; the loft above she lets out");
- the sentence uses a word that expresses one of the asked relation types in prose (a
  documented lexicon, :data:`PROSE_WORDS`: "head", "captain", "answer", "tithe" for ``leads``,
  "court", "throne" for ``ruled_by``, …), outside the names it holds ("fell to *Captain* Daru
  Saleh's sword" states no one's captaincy);
- and it names another entity of the asked answer type (when the question asks for one).

Each such entity's value is ``STATED`` times the passage's relevance over the best candidate
passage's; the ranker weighs it like a relation answer (``w.relation``) and, like one, never
demotes it for its status (it is still marked unavailable when it is). Nothing here reads more
than the candidate passages the ranker already found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from graphrag_core.models import PARTY_ID, CampaignView
from ranking.cues import QuestionCues
from ranking.documents import ItemKey, sentences
from ranking.names import NameIndex, NameSpan, question_words

STATED = 0.9
"""A stated answer's most: below an extracted relation's 1.0, which it never outranks."""

NEARBY = 0.6
"""A sentence that names no named entity, in a passage that names one but is not about it."""

PRONOUNS = frozenset(
    {"it", "its", "he", "him", "his", "she", "her", "hers", "they", "them", "their", "there"}
)
"""Words by which a sentence goes on about what the sentence before named last."""


_LEAD_WORDS = (
    "lead", "leads", "led", "leader", "head", "heads", "headed", "command", "commands",
    "commanded", "commander", "captain", "chief", "master", "answer", "answers", "boss",
    "charge", "runs", "speaks", "guildmistress", "guildmaster", "eldest", "tithe", "tribute",
    "president", "prez",
)  # fmt: skip
_RULE_WORDS = (
    "rule", "rules", "ruled", "ruler", "reign", "reigns", "reigned", "throne", "court",
    "crown", "crowned", "govern", "governs", "governor", "seat", "sovereign",
)  # fmt: skip
_SERVE_WORDS = (
    "serves", "served", "works", "worked", "employ", "employs", "employed", "hired",
    "errands", "spy", "spies", "steal", "steals", "stole", "stolen", "fired", "canned",
    "sacked",
)  # fmt: skip

PROSE_WORDS: dict[str, frozenset[str]] = {
    "leads": frozenset(_LEAD_WORDS),
    "ruled_by": frozenset(_RULE_WORDS),
    "owns": frozenset({"own", "owns", "owned", "owner", "keeps", "kept", "runs", "rents",
                       "lets", "proprietor"}),
    "owned_by": frozenset({"own", "owns", "owned", "owner", "keeps", "kept", "runs", "rents",
                           "lets", "proprietor"}),
    "member_of": frozenset({"member", "members", "joined", "belongs", "sworn"}),
    "works_for": frozenset(_SERVE_WORDS),
    "serves": frozenset(_SERVE_WORDS),
    "employs": frozenset(_SERVE_WORDS),
    "killed_by": frozenset({"kill", "killed", "slew", "slain", "murdered", "poisoned",
                            "stabbed", "cut", "fell", "sword", "spear", "drowned", "shot",
                            "strangled", "hanged", "executed", "beheaded"}),
    "married_to": frozenset({"married", "wife", "husband", "wed", "wedded", "spouse"}),
    "parent_of": frozenset({"daughter", "son", "child", "mother", "father", "heir", "mum",
                            "dad", "boy", "girl", "lad", "lass"}),
    "guards": frozenset({"guard", "guards", "guarded", "patrol", "patrols", "watch",
                         "protect", "protects", "checks"}),
    "worships": frozenset({"worship", "worships", "pray", "prays", "prayer", "priest",
                           "priests", "priestess"}),
    "sacred_to": frozenset({"worship", "worships", "pray", "prays", "prayer", "priest",
                            "priests", "priestess"}),
    "created_by": frozenset({"made", "built", "forged", "created", "carved", "wrought"}),
    "related_to": frozenset({"brother", "sister", "sibling", "siblings", "cousin", "uncle",
                             "aunt", "nephew", "niece", "twin", "grandson", "granddaughter",
                             "grandfather", "grandmother", "kin", "kinsman", "kinswoman"}),
}  # fmt: skip
"""Relation type → words by which prose states it (lowercase whole words)."""


def _outside(words: list[str], spans: list[NameSpan]) -> list[str]:
    """The words outside the names: "Captain Daru Saleh" states no one's captaincy."""
    inside = {i for span in spans for i in range(span.start, span.end)}
    return [w for i, w in enumerate(words) if i not in inside]


def stated_answers(
    cues: QuestionCues,
    named: set[str],
    relevance: Mapping[ItemKey, float],
    view: CampaignView,
    names: NameIndex,
) -> dict[str, float]:
    """Entity id → how strongly a candidate passage states it as the asked relation's answer
    (0..1), for a question that names an entity and asks along a relation."""
    words = frozenset().union(*(PROSE_WORDS.get(t, ()) for t in cues.relation_types))
    if cues.relation_types == {"related_to"} and cues.kin_nouns:  # a sister, not a brother
        words = cues.kin_nouns | {noun + "s" for noun in cues.kin_nouns}
    named = named - {PARTY_ID}
    passages = {k.id: v for k, v in relevance.items() if k.kind == "chunk" and v > 0.0}
    if not words or not named or not passages:
        return {}
    best = max(passages.values())
    kin = not KIN_RELATIONS.isdisjoint(cues.relation_types)  # a kinship's "X's son" names X
    found: dict[str, float] = {}
    for chunk_id, value in passages.items():
        chunk = view.chunks[chunk_id]
        about = chunk.subject in named
        if not about and not named.intersection(chunk.mentions):
            continue
        last: frozenset[str] = frozenset()
        for sentence in sentences(chunk.text):
            spans = names.spans(sentence, possessive=kin)  # "the captain's son"
            ids = {e for span in spans for e in span.ids}
            before, last = last, spans[-1].ids if spans else frozenset()
            outside = _outside(question_words(sentence), spans)
            if words.isdisjoint(outside):
                continue
            if PRONOUNS.isdisjoint(outside):
                before = frozenset()  # no pronoun: nothing carries over from before
            near = 1.0 if about or not named.isdisjoint(ids | before) else NEARBY
            answers = _typed(ids - named - {PARTY_ID}, cues, view)
            for entity_id in answers:
                found[entity_id] = max(found.get(entity_id, 0.0), STATED * near * value / best)
    return found


KIN_RELATIONS = frozenset({"parent_of", "married_to", "related_to"})
"""Relations only a someone has: a kinship stated answers with a person, never the faction
the same sentence names ("walks the beat for the Seventh; the captain's son")."""

KIN_TYPES = frozenset({"NPC", "PC", "Deity", "Creature"})


def _typed(ids: Iterable[str], cues: QuestionCues, view: CampaignView) -> set[str]:
    """The entities of ``ids`` the view holds, of the asked answer type when there is one
    (a kin type when only kinships are asked)."""
    kin = bool(cues.relation_types) and cues.relation_types <= KIN_RELATIONS
    return {
        e
        for e in ids
        if e in view.entities
        and (not cues.answer_types or view.entities[e].type in cues.answer_types)
        and (not kin or view.entities[e].type in KIN_TYPES)
    }
