"""The five-signal ranker: candidates from vectors, BM25, the graph and the question's cues,
one explainable score each.

For a question and a ``CampaignView``:

1. **candidates**: the lexical index's top ``settings.candidates`` per kind, the store's nearest
   entities and chunks to the question's embedding, the entities the question names, those near
   them in the effective graph, the entities that matching passages are about or name, and
   those the cues select (see :mod:`ranking.cues`); any candidate the view does not hold is
   dropped (the view is the source of truth for visibility, whatever the store returned).
   The party's own entity is the asker, not an answer, and is left out;
2. **signals** (:mod:`ranking.signals`): ``semantic``, ``lexical``, ``centrality``,
   ``recency``, ``proximity``, ``status``; and the cues, which say what the question is
   about: ``support`` / ``mention`` (the best match of a passage about / naming the entity),
   ``named`` (named in the question), ``relation`` (one asked-about relation from a named
   entity, or a value stated below it: the place a change's note says one is kept or went,
   :mod:`ranking.whereabouts`; a leader's successor; whoever did what befell a named one whose
   status is asked, ``asked_status.status_doers``), ``attitude`` (the attitude toward the
   party asked about), ``status_asked`` (holds or held the status a question naming nothing
   asks about, :mod:`ranking.asked_status`),
   ``took_part`` (in a session record's sentence or a change with an entity a narrative
   question names, :mod:`ranking.narrative`), ``type`` (the type asked);
3. **score** with the weights ``w`` of the preset (:mod:`ranking.presets`)::

       match = max(w.semantic*semantic + w.lexical*lexical  (a community: w.community*semantic),
                   w.support*support,
                   w.mention*mention, w.named*named, w.relation*relation, w.attitude*attitude,
                   w.status_asked*status_asked, w.took_part*took_part)
               * (a if the item is the question's setting, see ranking.anchors, else 1)
               * (a again if it is a place and the question asks for a list)

       score = (match + w.proximity*proximity + w.type*type*setting
                + w.centrality*centrality + w.recency*recency) * status

   where ``a`` is ``w.anchor`` (0.8), or ``w.anchor_list`` (0.6) for a question that asks
   for a list; ``setting`` is ``a`` for the question's setting when it is a place and 1
   otherwise (the landmarks *of* the Veiled City are places, but the city is not one of them:
   its type counts at the anchor's weight, as its match does; the faction of "Who leads the
   Cinder Knives?" keeps its type), and

   a question that asks for a list ("What are the *powers* of Vardholm?", "Which *gods*
   ...": an entity of the type read from a plural noun) weighs the type with ``w.type_list``
   instead of ``w.type``: its answer is every entity of that type the passages support, and
   the setting or a passage's other names should not crowd them out of the top (the anchor
   rule also weighs a passage about the setting like the setting, see ``_in_setting``). The
   place a list question is set in ("the great powers *of Duneveil*", "what dangers lurk *in
   the Red Waste*") has its match weighed at ``w.anchor_list`` twice: named, its match of
   ``w.named * w.anchor_list`` was still that of a well-supported answer, and with its
   centrality and recency it kept a place in the top 5 that one of the list's members should
   have, so its whole relevance is taken at ``w.anchor_list`` once more (a place, or a setting
   of another type than the list's: "What's still dangerous for us *in Vienna*?"). The thing
   a question about one answer is set on weighs more (``w.anchor``): "Who's got Old Nick's
   Black Book?" asks about the book, which belongs right after its holder, above the people
   merely near it;

   An entity named only in a sentence told before the one that asks ("*Wes* is bleeding all
   over the back seat. Who stitches him up?", :func:`ranking.anchors.told_before`) is what the
   question is about: its score is taken at ``w.anchor`` (unless a relation asked finds it);

4. **floor**: an item whose ``match`` is below ``settings.relevance_floor`` is not offered
   (bonuses alone never make an item relevant); a question about the party's allies (or
   enemies) when it has none gets no results and a note saying so;
5. **results**: entities and passages interleaved by score, at most ``settings.passages``
   passages, ties broken by id.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from graphrag_core.config import PresetName, RankingSettings
from graphrag_core.models import PARTY_ID, AskResult, CampaignView
from graphrag_core.ports import Embedder, VectorSearch
from ranking.anchors import (
    anchors,
    asks_now,
    excluded,
    named_holder_now,
    time_marks,
    told_before,
)
from ranking.asked_status import DOER, status_asked, status_doers
from ranking.communities import summary_hits
from ranking.cues import (
    ABOUT_NOUNS,
    ATTITUDE_WORDS,
    DANGER_ONLY_HOSTILE,
    PARTY_NOUNS,
    QuestionCues,
    lexical_query,
    question_cues,
)
from ranking.documents import SEARCH_KINDS, ItemKey, in_view
from ranking.evidence import (
    Evidence,
    mention_support,
    nobody_note,
    subject_support,
    with_attitude,
    with_opposed,
)
from ranking.focus import focused_entities
from ranking.graph import (
    EffectiveGraph,
    ended_along,
    former_along,
    left_places,
    named_in_handovers,
    successors,
)
from ranking.historical import is_historical
from ranking.inputs import RankInputs
from ranking.lexical import LexicalIndex
from ranking.lists import list_cues, offer_query, offering_places
from ranking.names import NameIndex, NameSpan, question_words
from ranking.narrative import participants
from ranking.party import demoted_members, left_party, newest_members, roll, roll_asked
from ranking.passing import passing_demoted
from ranking.presets import RankingWeights, choose_preset, preset_weights
from ranking.referents import Referents, referents
from ranking.results import ScoredItem, ranked_results
from ranking.signals import SignalContext, entity_of, measure
from ranking.stated import stated_answers
from ranking.whereabouts import NOTED, PLACE_TYPES, party_base, placed_by_changes, whereabouts
from ranking.wording import spelt_out

SUCCESSOR = 0.7
"""Who took the place of an entity the question names (:func:`ranking.graph.successors`),
as a stated answer: "Can the Skipper sign off on it?" is answered by whoever leads now, below
the Skipper himself."""

_PARTY = ItemKey("entity", PARTY_ID)


def _clip_unit(value: float) -> float:
    return 0.0 if math.isnan(value) else min(max(value, 0.0), 1.0)


def select(
    items: Sequence[ScoredItem], k: int, passages: int, communities: int = 0
) -> list[ScoredItem]:
    """The ``k`` best items, best first, ties by id, with at most ``passages`` passages and
    ``communities`` community summaries."""
    limits = {"chunk": passages, "community": communities}
    taken = dict.fromkeys(limits, 0)
    chosen: list[ScoredItem] = []
    for item in sorted(items, key=lambda i: (-i.score, i.key.id, i.key.kind)):
        if len(chosen) >= k:
            break
        kind = item.key.kind
        if kind in limits:
            if taken[kind] >= limits[kind]:
                continue
            taken[kind] += 1
        chosen.append(item)
    return chosen


class Ranker:
    """Ranks a view's entities and passages for a question; holds no per-campaign state."""

    def __init__(self, embedder: Embedder, store: VectorSearch, settings: RankingSettings) -> None:
        self._embedder = embedder
        self._store = store
        self._settings = settings

    def rank(
        self,
        question: str,
        view: CampaignView,
        lexical: LexicalIndex,
        *,
        k: int = 10,
        historical: bool | None = None,
        names: NameIndex | None = None,
        preset: PresetName | None = None,
        inputs: RankInputs | None = None,
    ) -> AskResult:
        """Best ``k`` results; ``historical=None`` decides from the question's wording,
        ``preset=None`` from the settings, then the question. ``inputs``: the view's indexes
        and signal inputs (built here from the view alone when not given)."""
        asked, question = question, spelt_out(question)
        past = is_historical(question) if historical is None else historical
        inputs = _inputs(view, inputs, names)
        chosen_preset = choose_preset(
            question, historical=past, forced=preset or self._settings.preset
        )
        cues = question_cues(question)
        if cues.attitude and _attitude_in_a_name(question, inputs.names.spans(question)):
            cues = replace(cues, attitude=None)  # "Where is our friend?": no allies asked
        note = nobody_note(cues, view)
        items = [] if note else self.score(
            question, view, lexical, historical=past, preset=chosen_preset, inputs=inputs,
        )  # fmt: skip
        floor = self._settings.relevance_floor
        offered = [i for i in items if i.match >= floor]
        if items and not offered:
            note = "nothing in this campaign fits the question well enough"
        cfg = self._settings
        chosen = select(offered, k, cfg.passages, cfg.communities)
        return AskResult(
            question=asked,
            campaign=view.campaign,
            as_player=view.as_player,
            historical=past,
            as_of_session=view.as_of_session,
            results=tuple(ranked_results(chosen, view, inputs, items)),
            preset=chosen_preset,
            note=note,
        )

    def score(
        self,
        question: str,
        view: CampaignView,
        lexical: LexicalIndex,
        *,
        historical: bool,
        names: NameIndex | None = None,
        preset: PresetName = "current_state",
        inputs: RankInputs | None = None,
    ) -> list[ScoredItem]:
        """Every visible candidate with some relevance, its signals and score, unordered."""
        question = spelt_out(question)  # "Who's on our side?" asks what "Who is …" asks
        inputs = _inputs(view, inputs, names)
        weights = preset_weights(preset, self._settings)
        cues = list_cues(question, question_cues(question))
        if not cues.relation_types and _sits_on_a_thing(question, view, inputs.names):
            cues = replace(cues, relation_types=HOLDING_TYPES)  # "sitting on the pay chest"
        owned = bool(cues.relation_types)  # "Bryony's mum", "the Baron's allies"
        spans = _without_party_nouns(question, _spans(question, inputs.names, owned))
        named = {e for span in spans for e in span.ids} - {PARTY_ID}
        if cues.attitude and _attitude_in_a_name(question, spans):  # "our friend" is CARDINAL
            cues = replace(cues, attitude=None)
        cfg = self._settings
        near = inputs.graph.proximity(named, hops=cfg.proximity_hops, decay=cfg.proximity_decay)
        asked = referents(
            question, view, inputs.names, inputs.graph, inputs.heads
        )  # "Lucky's launch"
        when = time_marks(question, spans)  # "died *since St Nicholas*": a when, not a what
        evidence = self._evidence(
            question, cues, view, lexical, spans, near, inputs, weights, asked, when, historical
        )
        types = _types(view, named)
        setting = anchors(question, spans, types) | offering_places(
            question, spans, types, view, cues.list_types
        )
        setting |= asked.modifiers  # "*Brennan's* launch": Brennan says which launch
        setting |= when
        evidence = {k: replace(ev, anchor=True) if _in_setting(k, ev, view, setting) else ev
                    for k, ev in evidence.items()}  # fmt: skip  # a copy only for the setting
        ctx = SignalContext(view, evidence, inputs, near, cfg, historical)
        many = bool(cues.list_types or cues.dangers)  # asks for a list: "the powers", dangers
        scored = [
            _blend(key, ev, ctx, weights, many) for key, ev in evidence.items() if ev.relevant
        ]
        answers = {k.id for k, ev in evidence.items() if ev.answer}  # "Who put Tack down?"
        demoted = demoted_members(question, cues, named | answers, inputs.party)  # party asks
        demoted |= passing_demoted(inputs.passing, named, many, cues.answer_types)  # in passing
        demoted |= excluded(question, spans)  # "Besides Itz and Maza, who ...?"
        told = told_before(question, spans) - answers  # "Wes is bleeding. Who stitches him up?"
        scored = [
            _demoted(i, weights.anchor) if i.key.id in told and i.status_factor == 1.0 else i
            for i in scored
        ]  # once: one demoted already (a member no more) is not twice
        return [_demoted(i, cfg.inactive_factor) if i.key.id in demoted else i for i in scored]

    def _evidence(
        self,
        question: str,
        cues: QuestionCues,
        view: CampaignView,
        lexical: LexicalIndex,
        spans: list[NameSpan],
        near: dict[str, float],
        inputs: RankInputs,
        w: RankingWeights,
        asked: Referents,
        when: set[str],
        historical: bool = False,
    ) -> dict[ItemKey, Evidence]:
        """Candidates from vectors, BM25, passages about or naming entities, names in the
        question (``spans``; ``when``: those of its clause of time, :func:`time_marks`), the
        graph around them, the relations and attitude it asks about."""
        named = {e for span in spans for e in span.ids} - {PARTY_ID}
        semantic = self._semantic(question, view, inputs)
        bm25 = {
            hit.key: hit.score
            for hit in lexical.search(
                offer_query(question, lexical_query(question)), self._settings.candidates
            )
        }
        keys = {k for k in semantic.keys() | bm25.keys() if in_view(view, k) and k != _PARTY}
        keys |= {k for k in semantic if k.kind == "community"}
        relevance = {
            k: w.semantic * semantic.get(k, 0.0) + w.lexical * bm25.get(k, 0.0) for k in keys
        }
        support, mention = subject_support(relevance, view), mention_support(relevance, view)
        for entity_id, value in focused_entities(
            question, cues, relevance, view, inputs.names
        ).items():
            support[entity_id] = max(support.get(entity_id, 0.0), value)
        seeds = ((named | {PARTY_ID}) if cues.party_relation else named) - when  # not "since X"
        owned = set(asked.things)  # "the Reverend's tent", "the old waiter"
        answers = (
            inputs.graph.neighbours(seeds | asked.stand_ins | owned, cues.relation_types)
            if cues.relation_types
            else set()
        )
        answers = _killers_of_kin(answers, seeds, cues, inputs.graph)
        if cues.ended:  # "Who canned Science Ethan?": along the relation a change ended
            answers |= ended_along(view, seeds, cues.relation_types)
        newest = newest_members(question, view)  # "Who's the newest hunter on the team?"
        answers |= newest
        rolled = not newest and roll_asked(question, cues)  # "Who all's riding with us?"
        if rolled:
            answers |= roll(view, inputs.party)
        base, old_bases = (
            party_base(question, view, inputs.graph)
            if not historical or view.as_of_session is not None
            else (set(), set())
        )  # "Where's the crew crashing these days?", "Where were we sleeping as of session 3?"
        answers |= base
        answers -= {PARTY_ID}
        former = (
            former_along(view, seeds | owned, cues.relation_types) - answers - named
            if cues.relation_types and not cues.ended
            else set()
        )  # "Who's carrying the key *now*?": not whoever handed it on
        held_before: set[str] = set()  # "Does the Speaker still have his feather crown?"
        if cues.relation_types and not cues.ended:  # "found in Nepos's cellar": not Nepos's
            handled = named_in_handovers(
                view, seeds | owned, cues.relation_types, inputs.names.find_owners
            )
            former |= handled - answers - named
            held_before = {  # named, and held another named thing before: marked, not demoted
                e for s in named for e in former_along(view, {s}, cues.relation_types) & named
            } - answers
        former |= old_bases
        if not historical:  # "still tied up in the Spotted House?" after he got out of it
            former |= left_places(view, named) - answers
        if not historical:  # "Who's the Sahib these days?": not the one so called, who left it
            so_called = {e for e in named_holder_now(question, spans) if successors(view, {e})}
            former |= so_called
            answers |= successors(view, so_called) - former  # but whoever took his place
        if newest or rolled:  # "Who's our fourth now that Kii-bō carries a jitte again?"
            former |= left_party(view) - answers
        stated = stated_answers(cues, named, relevance, view, inputs.names)
        things = asked.things if cues.relation_types else {**asked.at, **asked.things}
        where = whereabouts(question, cues, named, view, inputs.names, inputs.graph)
        moved = not historical and placed_by_changes(named, view, inputs.names, where)
        places = {e for e in named if view.entities[e].type in PLACE_TYPES}
        around = _around(view, where) if moved and places else set()  # "back at the fort?"
        after = dict.fromkeys(
            successors(view, named, moves=not historical), SUCCESSOR
        )  # "the Skipper"
        dated = named - when  # "since St Nicholas", "back when …"
        doers = dict.fromkeys(status_doers(question, dated, view), DOER)  # "still kicking?"
        for entity_id, value in (*things.items(), *where.items(), *after.items(), *doers.items()):
            stated[entity_id] = max(stated.get(entity_id, 0.0), value)  # "Lucky's launch"
        minded = with_attitude(view, cues.attitude)
        words = question_words(question)
        lasting = bool(minded) and not ("still" in words or asks_now(words))  # over the campaign
        held = status_asked(question, dated, view, spans)  # "Who's died since St Nicholas?"
        story = participants(question, named, view, inputs.names)
        opposed = with_opposed(view, cues.attitude)
        graph = {
            ItemKey("entity", e)
            for e in support.keys()
            | mention.keys()
            | named
            | near.keys()
            | answers
            | stated.keys()
            | minded
            | held
            | story.keys()
            if e != PARTY_ID
        }
        return {
            key: Evidence(
                semantic=semantic.get(key, 0.0),
                lexical=bm25.get(key, 0.0),
                support=support.get(key.id, 0.0) if key.kind == "entity" else 0.0,
                mention=mention.get(key.id, 0.0) if key.kind == "entity" else 0.0,
                named=key.kind == "entity" and key.id in named,
                near=key.kind == "entity" and key.id in near,
                answer=key.kind == "entity" and key.id in answers,
                stated=stated.get(key.id, 0.0) if key.kind == "entity" else 0.0,
                attitude=key.kind == "entity" and key.id in minded,
                attitude_lasting=lasting,
                status_asked=key.kind == "entity" and key.id in held,
                former=key.kind == "entity"
                and (
                    key.id in former or (moved and _elsewhere(key.id, view, where, named, around))
                ),
                held_before=key.kind == "entity" and key.id in held_before,
                took_part=story.get(key.id, 0.0) if key.kind == "entity" else 0.0,
                typed=key.kind == "entity" and _typed(view, key.id, cues),
                hostile_asked=cues.dangers,
                opposed=entity_of(key, view) in opposed,
                listing=key.kind == "entity" and view.entities[key.id].type in cues.list_types,
            )
            for key in keys | {k for k in graph if in_view(view, k)}
        }

    def _semantic(
        self, question: str, view: CampaignView, inputs: RankInputs
    ) -> dict[ItemKey, float]:
        vector = self._embedder.embed([question])[0]
        cap = self._settings.candidates
        found = summary_hits(self._store, view, inputs.summaries, vector, cap)
        for kind in SEARCH_KINDS:
            hits = self._store.vector_search(
                view.campaign, kind, vector, self._settings.candidates, view.visibilities
            )
            for hit in hits:
                key = ItemKey(kind, hit.id)
                found[key] = max(found.get(key, 0.0), _clip_unit(hit.score))
        return found


HOLDING_TYPES = frozenset({"owns", "owned_by"})
_SITTING = (("sitting", "on"), ("sits", "on"), ("sat", "on"))


def _sits_on_a_thing(question: str, view: CampaignView, names: NameIndex) -> bool:
    """Whether the question asks who is *sitting on* a thing it names ("Who's sitting on the
    pay chest now?", "Who's sitting on Doyle's black book?"): who holds it, as a change's
    ``held_by`` says; not who sits on a council or a horse (no Item is named)."""
    words = question_words(question)
    starts = [at + 2 for at in range(len(words) - 1) if (words[at], words[at + 1]) in _SITTING]
    if not starts:
        return False
    return any(
        span.start >= starts[0]
        and any(view.entities[e].type == "Item" for e in span.ids if e in view.entities)
        for span in _spans(question, names, True)
    )


def _elsewhere(
    entity_id: str, view: CampaignView, where: dict[str, float], named: set[str], around: set[str]
) -> bool:
    """A place that is not where the changelog puts the one asked about now
    (:func:`~ranking.whereabouts.placed_by_changes`): where it was, no answer; a place its
    note names before the last ("arrested in the yamen hall, put in the black cells") too; and
    a place the question names that neither is nor holds where it is now (``around``): "Where's
    Cuno these days, is he back *at the fort*?" when the changelog put him in his father's
    hall."""
    place = view.entities[entity_id].type in PLACE_TYPES
    if not place or where.get(entity_id, 0.0) >= NOTED:
        return False
    return entity_id not in named or entity_id not in around


def _around(view: CampaignView, where: dict[str, float]) -> set[str]:
    """The places where the changelog puts the one asked about now, and every place that
    holds them (``located_in``, followed up)."""
    found = {e for e, value in where.items() if value >= NOTED}
    inside: dict[str, set[str]] = {}
    for relation in view.relations:
        if relation.type == "located_in":
            inside.setdefault(relation.source, set()).add(relation.target)
    todo = list(found)
    while todo:
        for outer in inside.get(todo.pop(), ()):
            if outer not in found:
                found.add(outer)
                todo.append(outer)
    return found


def _blend(
    key: ItemKey, ev: Evidence, ctx: SignalContext, w: RankingWeights, many: bool = False
) -> ScoredItem:
    signals = measure(key, ctx)
    a = w.anchor_list if many else w.anchor  # a list's setting weighs less than one answer's
    similar = (
        w.community * signals["semantic"]
        if key.kind == "community"
        else w.semantic * signals["semantic"] + w.lexical * signals["lexical"]
    )
    match = max(
        similar,
        w.support * ev.support,
        w.mention * ev.mention,
        w.named * ev.named,
        w.relation * max(float(ev.answer), ev.stated),
        w.attitude * ev.attitude,
        w.status_asked * ev.status_asked,
        w.took_part * ev.took_part,
    ) * (a if ev.anchor else 1.0)
    place = key.kind == "entity" and ctx.view.entities[key.id].type == "Location"
    setting = a if ev.anchor and place else 1.0  # the place asked about is not an answer
    if many and ev.anchor and place:  # a list's setting is no answer: its match at it twice
        match *= a
    relevance = (
        match
        + w.proximity * signals["proximity"]
        + (w.type_list if ev.listing else w.type) * ev.typed * setting
        + w.centrality * signals["centrality"]
        + w.recency * signals["recency"]
    )
    if many and ev.anchor and (place or not ev.listing):  # a list's setting: no member
        relevance *= a
    return ScoredItem(
        key,
        signals["semantic"],
        signals["lexical"],
        signals["status"],
        relevance * signals["status"],
        ev.support,
        named=float(ev.named),
        anchor=float(ev.anchor),
        proximity=signals["proximity"],
        mention=ev.mention,
        relation=max(float(ev.answer), ev.stated),
        attitude=float(ev.attitude),
        status_asked=float(ev.status_asked),
        took_part=ev.took_part,
        type_match=float(ev.typed),
        centrality=signals["centrality"],
        recency=signals["recency"],
        match=match,
        former=(ev.former or ev.held_before) and not ctx.historical,
    )


def _demoted(item: ScoredItem, factor: float) -> ScoredItem:
    """A party member the question does not ask about (:mod:`ranking.party`), or a thing named
    in passing in a list answer (:mod:`ranking.passing`): its score and the status factor that
    explains it times ``factor``; its match (and so the floor) kept."""
    if item.key.kind != "entity":
        return item
    return replace(item, status_factor=item.status_factor * factor, score=item.score * factor)


def _in_setting(key: ItemKey, ev: Evidence, view: CampaignView, setting: set[str]) -> bool:
    """True for a named anchor (see :mod:`ranking.anchors`) and for a passage about one: "Who
    runs the Net Loft?" is not answered by the Net Loft's own entry in the name list any more
    than by the Net Loft, so the passage about the setting is weighed like the setting."""
    if key.kind == "entity":
        return key.id in setting
    return key.kind == "chunk" and view.chunks[key.id].subject in setting


def _spans(question: str, names: NameIndex, owned: bool) -> list[NameSpan]:
    """The names the question holds; a name in the possessive ("Bryony's mum") when a
    relation is asked (``owned``), or when the question asks what it is about ("What's *the
    Fellowship's* deal?", :data:`ranking.cues.ABOUT_NOUNS`): "Where did Torven's silver go?"
    asks about the silver, not Torven."""
    spans = names.spans(question, possessive=owned)
    if owned:
        return spans
    words = question_words(question)
    about = [
        span
        for span in names.spans(question, possessive=True)
        if span not in spans and words[span.end : span.end + 1] and words[span.end] in ABOUT_NOUNS
    ]
    return sorted([*spans, *about])


def _attitude_in_a_name(question: str, spans: list[NameSpan]) -> bool:
    """Whether the question's attitude word is inside a name it uses ("Where did *our friend*
    end up?" asks for the one so called, not for the party's allies)."""
    words = question_words(question)
    return any(words[i] in ATTITUDE_WORDS for span in spans for i in range(span.start, span.end))


def _without_party_nouns(question: str, spans: list[NameSpan]) -> list[NameSpan]:
    """The names found in the question but for a party noun after "our" ("our *company*"
    is the party, not an entity called "the Company")."""
    words = question_words(question)
    return [
        span
        for span in spans
        if not (
            span.end - span.start == 1
            and words[span.start] in PARTY_NOUNS
            and span.start > 0
            and words[span.start - 1] == "our"
        )
    ]


def _typed(view: CampaignView, entity_id: str, cues: QuestionCues) -> bool:
    """Of a type the question asks for; for a question about dangers, a faction only when
    it is hostile to the party ("What dangers lurk in the Cinderwood?" is not answered by
    the rangers who guard it)."""
    kind = view.entities[entity_id].type
    if kind not in cues.answer_types:
        return False
    if cues.dangers and kind in DANGER_ONLY_HOSTILE:
        state = view.states.get(entity_id)
        return state is not None and state.attitude == "hostile"
    return True


def _types(view: CampaignView, ids: set[str]) -> dict[str, str]:
    return {e: view.entities[e].type for e in ids if e in view.entities}


def _inputs(view: CampaignView, inputs: RankInputs | None, names: NameIndex | None) -> RankInputs:
    """The given inputs, or ones built from the view alone (with ``names`` when given)."""
    built = inputs or RankInputs.build(view)
    return replace(built, names=names) if names is not None and inputs is None else built


KINSHIPS = frozenset(("parent_of", "related_to", "married_to"))


def _killers_of_kin(
    answers: set[str], seeds: set[str], cues: QuestionCues, graph: EffectiveGraph
) -> set[str]:
    """ "What got Lise's dad?", "Who killed Mira's brother?": a kinship and a killing asked
    together ask for the killer of the kin, one ``killed_by`` on from the kin of the named
    entity; the answers when there is one, else ``answers`` as they were."""
    kinship = cues.relation_types & KINSHIPS
    if "killed_by" not in cues.relation_types or not kinship:
        return answers
    killers = graph.neighbours(graph.neighbours(seeds, kinship), {"killed_by"})
    return (killers - seeds) or answers
