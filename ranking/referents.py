"""Things a question asks for by what they belong or are tied to, not by their name.

Three documented readings, each a whole-word lookup over the question and the view:

- **"X's N"**: "Can we borrow *Brennan's motor launch*?", "Should we ask *Lucky's boys*?", "the
  *Prof's museum friend*". N (at most :data:`PHRASE_WORDS` words after the possessive, up to a
  function word) is not a kin noun (kinship is a relation cue, :mod:`ranking.cues`): the
  answer is an entity one effective relation from X (:meth:`EffectiveGraph.links`) that fits
  N, or an entity with an alias "X's N" ("Lucky's launch"). A head noun fits an entity
  when it, or a word of its group (:data:`THING_GROUPS`: "launch", "boat", "skiff" …), is a
  word of its name, aliases, type or description; a word for someone's people
  (:data:`FOLLOWER_NOUNS`: "boys", "crew", "mob") fits a faction; a word for someone's
  acquaintance (:data:`COMPANION_NOUNS`: "friend", "contact") fits a person, and then each
  word before it ("museum") must fit the person or one of the entities related to him.
- **"the <place> man"**: "Is *the lighthouse man* still unaccounted for?" asks for the
  person tied to the place a name there names (a relation that is not mere co-occurrence, or
  a description naming the place), not for the place.
- **"the <head>"**: "Is *the light* out on the breakwater still up?" names "Widow's Point
  Light" by the last word of its name, when that word ends no other entity's name
  (:data:`NEAR`).
- **"<noun> on <place>"**: "Who torched *our digs on Cable Street*?" asks about the lodging
  on the street, not the street: the entities located in the place, or whose name or alias
  sets them there ("the rooming house on Cable Street"), that fit the noun
  (:data:`THING_GROUPS`), stand in for the place as where a relation asked starts.

When the question asks along no relation, what the third reading finds is the answer
(:attr:`Referents.at`), unless its noun names a type ("Which *tavern* in Millbrook is open?"
picks among the taverns by the type cue, and the burnt one stays demoted). An entity found by
the readings is weighed like a relation answer (``w.relation``
times its value, :data:`TIED` for a relation stated or an alias, :data:`NEAR` for
co-occurrence alone). Nothing here reads more than the view's entities and effective graph.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from graphrag_core.models import PARTY_ID, CampaignView, Entity
from ranking.cues import ANSWER_TYPE_WORDS, KIN_MODIFIERS, KIN_PHRASES, KIN_WORDS
from ranking.graph import CO_OCCURRENCE, EffectiveGraph
from ranking.names import NameIndex, NameSpan, name_words, possessives, question_words

TIED = 1.0
"""A thing tied to its owner by a relation or an alias: an answer as strong as a relation's."""

NEAR = 0.7
"""A thing that only shares sentences with its owner."""

PHRASE_WORDS = 3
"""How many words after a possessive make the thing asked ("Brennan's *motor launch*")."""

FUNCTION_WORDS = frozenset(
    ("a", "an", "the", "to", "for", "of", "on", "in", "at", "by", "with", "from", "into",
     "out", "off", "up", "down", "over", "past", "is", "are", "was", "were", "be", "been",
     "still", "now", "and", "or", "but", "if", "that", "this", "who", "what", "where", "when",
     "why", "how", "which", "whose", "we", "us", "our", "i", "me", "my", "you", "he", "him",
     "his", "she", "her", "it", "its", "they", "them", "their", "has", "have", "had", "do",
     "does", "did", "can", "could", "will", "would", "should", "may", "might", "must",
     "again", "back", "ever", "never", "not", "no", "there", "here", "yet", "too", "so",
     "then", "just", "any", "some", "s")
)  # fmt: skip
"""Words that end the noun phrase after a possessive."""

FOLLOWER_NOUNS = frozenset(
    ("boys", "men", "lads", "crew", "gang", "outfit", "mob", "people", "guys", "goons",
     "thugs", "heavies", "muscle", "hands", "followers", "lot", "folk", "troops", "soldiers",
     "warriors", "band", "bunch", "cronies", "henchmen", "minions", "faithful", "clan")
)  # fmt: skip
"""Words for someone's people ("Lucky's *boys*"): a faction tied to him."""

COMPANION_NOUNS = frozenset(
    ("friend", "friends", "pal", "buddy", "mate", "contact", "man", "woman", "guy", "fella",
     "fellow", "lady", "partner", "associate", "acquaintance", "colleague", "chum", "bloke",
     "gal", "chap", "feller")
)  # fmt: skip
"""Words for someone's acquaintance ("the Prof's museum *friend*"): a person tied to him."""

PERSON_TYPES = frozenset(("NPC", "PC"))
AGENT_TYPES = frozenset(("NPC", "PC", "Faction", "Creature", "Deity"))

_GROUPS: tuple[tuple[str, ...], ...] = (
    ("launch", "boat", "ship", "vessel", "skiff", "yacht", "barge", "schooner", "sloop",
     "craft", "cutter", "tug", "dinghy", "steamer", "ketch", "galley", "airship", "shuttle",
     "starship", "freighter"),
    ("car", "motor", "auto", "automobile", "truck", "wagon", "cart", "carriage", "jalopy",
     "sedan", "ford", "coach", "buggy", "rover", "vehicle"),
    ("digs", "lodging", "lodgings", "rooms", "room", "boarding", "rooming", "inn", "hotel",
     "hostel", "flat", "pad", "flophouse", "bunkhouse", "quarters", "house", "home"),
    ("sword", "blade", "knife", "dagger", "gun", "pistol", "rifle", "revolver", "weapon"),
    ("book", "ledger", "journal", "diary", "notebook", "log", "papers", "file", "files"),
    ("shop", "store", "garage", "workshop", "forge", "smithy", "yard"),
    ("bar", "tavern", "saloon", "pub", "speakeasy", "speak", "alehouse", "taproom"),
)  # fmt: skip
THING_GROUPS: dict[str, frozenset[str]] = {
    word: frozenset(group) for group in _GROUPS for word in group
}
"""A head noun → the words of its group that fit it ("launch" fits "the rum *boat*")."""

PLACE_PERSON_NOUNS = frozenset(
    ("man", "woman", "guy", "fella", "fellow", "lady", "bloke", "chap", "feller", "gal",
     "keeper", "warden")
)  # fmt: skip
"""Words after a place's name that ask for the person tied to it ("the lighthouse *man*")."""

SETTING_WORDS = frozenset(("on", "in", "at", "along", "off"))
"""Prepositions of "<noun> on <place>"."""

SETTING_GAP = 2
"""How far before the preposition the noun may be ("our old *rooms* back on Cable Street")."""

_WORD = re.compile(r"[^\W_]+")


@dataclass
class Referents:
    """What :func:`referents` finds."""

    things: dict[str, float] = field(default_factory=dict)
    """Entity id → how strongly the question asks for it (0..1)."""
    at: dict[str, float] = field(default_factory=dict)
    """The stand-ins whose noun names no answer type ("our old *rooms* back on Cable Street"):
    what a question asking along no relation asks for."""
    stand_ins: set[str] = field(default_factory=set)
    """Entities that stand in for a named place: where an asked relation starts, or, when
    the question asks along none, what it asks for ("our old rooms back on Cable Street")."""
    modifiers: set[str] = field(default_factory=set)
    """Named entities the question names only to say which thing it asks for ("*Brennan's*
    launch", "the *lighthouse* man"), when that thing was found: weighed like the question's
    setting (:mod:`ranking.anchors`), not as its answer."""


def referents(
    question: str,
    view: CampaignView,
    names: NameIndex,
    graph: EffectiveGraph,
    heads: Mapping[str, frozenset[str]] | None = None,
) -> Referents:
    """The things the question asks for by owner, tied place or setting (``heads``: the
    view's :func:`name_heads`, built once per view; found here when not given)."""
    found = Referents()
    words = question_words(question)
    owners = possessives(question)
    spans = names.spans(question, possessive=True)
    for entity_id in _by_head(words, spans, name_heads(view) if heads is None else heads):
        found.things[entity_id] = NEAR
    for span in spans:
        ids = {e for e in span.ids if e in view.entities and e != PARTY_ID}
        if not ids:
            continue
        if owners[span.end - 1]:
            phrase = _phrase(words, span.end)
            if _owned(found, phrase, ids, view, graph):
                found.modifiers |= ids | _named_in(phrase, names, view)
            continue
        after = words[span.end] if span.end < len(words) else ""
        if after in PLACE_PERSON_NOUNS and _tied_people(found, ids, view, graph):
            found.modifiers |= ids
        before = words[span.start - 1] if span.start else ""
        if before in SETTING_WORDS:
            nouns = words[max(0, span.start - 1 - SETTING_GAP) : span.start - 1]
            at = {e for noun in nouns for e in _things_at(noun, ids, view, graph)}
            found.stand_ins |= at
            if not any(noun in ANSWER_TYPE_WORDS for noun in nouns):
                found.at.update(dict.fromkeys(at, TIED))
            if at:
                found.modifiers |= ids
    _pronoun_owned(found, words, owners, spans, view, graph)
    return found


OWNER_PRONOUNS = frozenset(("his", "her", "their"))
_OWNER_TYPES = frozenset(("PC", "NPC", "Faction", "Creature", "Deity"))


def _pronoun_owned(
    found: Referents,
    words: list[str],
    owners: list[str | None],
    spans: list[NameSpan],
    view: CampaignView,
    graph: EffectiveGraph,
) -> None:
    """ "Let's get Gonzō to front us some silver at *his hall*": a possessive pronoun after
    one named person reads as that person's possessive ("Gonzō's hall"), the person staying
    what the question asks about (no modifier)."""
    for i, word in enumerate(words):
        if word not in OWNER_PRONOUNS:
            continue
        before = [span for span in spans if span.end <= i]
        ids = (
            {e for e in before[-1].ids if e in view.entities and e != PARTY_ID} if before else set()
        )
        phrase = _phrase(words, i + 1)
        if any(owners[i + 1 : i + 1 + len(phrase)]):  # "his father's sword" is not his
            continue
        if len(ids) == 1 and view.entities[next(iter(ids))].type in _OWNER_TYPES:
            _owned(found, phrase, ids, view, graph)


def name_heads(view: CampaignView) -> dict[str, frozenset[str]]:
    """The last word of every name or alias of two words or more (none a function word) →
    the entities it ends ("light" → Widow's Point Light, the Old Light)."""
    heads: dict[str, set[str]] = {}
    for entity in view.entities.values():
        for name in _names(entity):
            named = name_words(name)
            if len(named) > 1 and FUNCTION_WORDS.isdisjoint(named):
                heads.setdefault(named[-1], set()).add(entity.id)
    return {word: frozenset(ids) for word, ids in heads.items()}


def _by_head(
    words: list[str], spans: list[NameSpan], heads: Mapping[str, frozenset[str]]
) -> set[str]:
    """Entities a question names by the last word of their name alone ("is *the light* out
    on the breakwater still up?" for "Widow's Point Light"): after "the" or "our" (and maybe
    an adjective of :data:`HEAD_ADJECTIVES`: "the *old* waiter"), before a function
    word or the end, outside every name found, and the last word of one entity's names only."""
    inside = {i for span in spans for i in range(span.start, span.end)}
    asked = {
        w
        for i, w in enumerate(words)
        if i and _after_the(words, i) and i not in inside
        and (i + 1 == len(words) or words[i + 1] in FUNCTION_WORDS)
        and w not in FUNCTION_WORDS
    }  # fmt: skip
    ends = (heads.get(word, frozenset()) for word in asked)
    return {next(iter(ids)) for ids in ends if len(ids) == 1} - {PARTY_ID}


HEAD_ADJECTIVES = frozenset(("old", "young", "little", "big", "poor", "late", "dear", "dead"))
"""Adjectives between "the" and the last word of a name ("the *old* waiter" of "the head
waiter"): still that name."""


HEAD_DETERMINERS = frozenset(("the", "our"))
"""Words before the last word of a name that name it ("*the* light", "*our* flat")."""


def _after_the(words: list[str], i: int) -> bool:
    """``words[i]`` follows "the" or "our", with maybe one adjective of
    :data:`HEAD_ADJECTIVES` between."""
    if words[i - 1] in HEAD_DETERMINERS:
        return True
    return i > 1 and words[i - 1] in HEAD_ADJECTIVES and words[i - 2] in HEAD_DETERMINERS


def _named_in(phrase: list[str], names: NameIndex, view: CampaignView) -> set[str]:
    """The entities a name in the phrase names ("the Prof's *museum* friend")."""
    return {e for e in names.find(" ".join(phrase[:-1])) if e in view.entities}


PLACE_PREPOSITIONS = frozenset(
    ("behind", "beside", "near", "across", "under", "above", "below", "inside", "outside",
     "beyond", "around", "through", "along", "opposite", "next", "up", "round")
)  # fmt: skip
"""Words that end the thing asked as a function word does ("his hall *behind* the fish
market")."""


def _phrase(words: list[str], start: int) -> list[str]:
    phrase: list[str] = []
    for word in words[start : start + PHRASE_WORDS]:
        if word in FUNCTION_WORDS or word in PLACE_PREPOSITIONS:
            break
        phrase.append(word)
    return phrase


def _kin(phrase: list[str]) -> bool:
    """A kinship ("kid brother", "old man"): the relation cues read it."""
    content = [w for w in phrase if w not in KIN_MODIFIERS]
    return (bool(content) and content[0] in KIN_WORDS) or tuple(phrase[:2]) in KIN_PHRASES


def _owned(
    found: Referents, phrase: list[str], owners: set[str], view: CampaignView, graph: EffectiveGraph
) -> bool:
    """Adds the things of ``owners`` that fit ``phrase``; True when one is tied to them."""
    if not phrase or _kin(phrase):
        return False
    head, modifiers = phrase[-1], phrase[:-1]
    links: dict[str, str] = {}
    for owner in owners:
        for other, kind in graph.links(owner):
            if links.get(other) in (None, CO_OCCURRENCE):
                links[other] = kind
    owner_names = {name_words(n) for o in owners for n in _names(view.entities[o])} - {()}
    possessive = {(*n[:-1], n[-1] + "s") for n in owner_names}
    tied = False
    for entity in view.entities.values():
        if entity.id in owners or entity.id == PARTY_ID:
            continue
        aliases = [name_words(n) for n in _names(entity)]
        if any(a[-1:] == (head,) and a[:-1] in possessive for a in aliases):
            value = TIED  # "Lucky's launch"
        elif entity.id not in links and not any(
            _contains(a, n) for a in aliases for n in owner_names
        ):
            continue  # neither related to the owner nor named after him
        elif not _fits(entity, head, modifiers, view):
            continue
        elif links.get(entity.id, "") != CO_OCCURRENCE or modifiers:
            value = TIED  # a relation, a name after the owner ("the Brennan mob"), or more
        else:  # than the head fits ("the museum friend")
            value = NEAR
        found.things[entity.id] = max(found.things.get(entity.id, 0.0), value)
        tied = tied or value == TIED
    return tied


def _fits(entity: Entity, head: str, modifiers: list[str], view: CampaignView) -> bool:
    """``head`` fits the entity's type or words, and each of ``modifiers`` its words or
    profile ("museum" of "the curator at the Alderman Museum")."""
    if head in FOLLOWER_NOUNS:
        fits = entity.type == "Faction"
    elif head in COMPANION_NOUNS:
        fits = entity.type == "NPC"  # a party member is the asker, never someone's friend
    else:
        group = THING_GROUPS.get(_stem(head), frozenset({_stem(head)}))
        return not group.isdisjoint(_words(entity))
    around = _words(entity) | _text_words(view.profile_text(entity.id))
    return fits and all(_stem(m) in around or m in around for m in modifiers)


def _tied_people(
    found: Referents, places: set[str], view: CampaignView, graph: EffectiveGraph
) -> bool:
    """Adds the people a relation or their description ties to one of ``places``; True when
    there is one."""
    tied = False
    place_names = {name_words(n) for p in places for n in _names(view.entities[p])} - {()}
    for place in places:
        for other, kind in graph.links(place):
            entity = view.entities.get(other)
            if entity is None or entity.type not in PERSON_TYPES:
                continue
            value = NEAR if kind == CO_OCCURRENCE else TIED
            if value < TIED and _describes(entity, place_names):
                value = TIED
            found.things[other] = max(found.things.get(other, 0.0), value)
            tied = tied or value == TIED
    return tied


def _things_at(noun: str, places: set[str], view: CampaignView, graph: EffectiveGraph) -> set[str]:
    """The entities at one of ``places`` that fit ``noun`` ("digs" → the boarding house)."""
    group = THING_GROUPS.get(_stem(noun))
    if group is None:
        return set()
    place_names = {name_words(n) for p in places for n in _names(view.entities[p])} - {()}
    located = {
        other
        for place in places
        for other, kind in graph.links(place)
        if kind in ("located_in", "contains")
    }
    at = {
        e.id
        for e in view.entities.values()
        if e.id not in places
        and any(_contains(name_words(n), p) for n in _names(e) for p in place_names)
    }
    return {
        e
        for e in located | at
        if e in view.entities
        and view.entities[e].type not in AGENT_TYPES  # the tavern, not its keeper
        and not group.isdisjoint(_words(view.entities[e]))
    }


def _describes(entity: Entity, place_names: set[tuple[str, ...]]) -> bool:
    text = tuple(_WORD.findall(entity.description.lower().replace("'", "")))
    return any(_contains(text, name) for name in place_names)


def _contains(words: tuple[str, ...], part: tuple[str, ...]) -> bool:
    n = len(part)
    return any(words[i : i + n] == part for i in range(len(words) - n + 1))


def _names(entity: Entity) -> tuple[str, ...]:
    return (entity.name, *entity.aliases)


def _stem(word: str) -> str:
    """A plural's singular when the group knows it ("boats" → "boat")."""
    if word not in THING_GROUPS and word.endswith("s") and word[:-1] in THING_GROUPS:
        return word[:-1]
    return word


def _words(entity: Entity) -> set[str]:
    """The words of an entity's name, aliases, type and description (singular and plural)."""
    return _text_words(" ".join((entity.name, *entity.aliases, entity.type, entity.description)))


def _text_words(text: str) -> set[str]:
    words = set(_WORD.findall(text.lower().replace("'", "").replace("’", "")))
    return words | {w[:-1] for w in words if w.endswith("s")}
