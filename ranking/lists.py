"""Questions that ask for a list their wording does not name: what a place can offer, and
who holds power.

**Power.** "Who holds *power* in the valley?" asks for the powers of the valley, as "What are
the *powers* …" does (a list of factions, :data:`POWER_WORDS`), whether or not the relation
words ("holds") find its ruler too.

**What a place can offer**, a question about services, is answered by the places in it.

"What can the town offer a caravan passing through?" names the town (or the campaign's
setting) and asks for no type: its answer is every place in it that serves a traveller (the
inn, the stables, the smithy, the chapel) and the town itself is none of them. Such a question
(a "what" question with a verb of offering, :data:`OFFER_WORDS`, or asking what a place
"can *do for*" someone):

- asks for a list of places (``Location`` in the answer types and the list types, so each
  place that the passages support gets ``w.type_list``, as "What are the landmarks …" does);
- has the place it names as its setting (:mod:`ranking.anchors`), weighed at ``w.anchor``,
  never an answer; when it names none ("the town", "the station"), the view's most-named
  place is that setting (:func:`main_place`);
- searches the lexical index with the words of every service a passage may offer it in
  (:data:`SERVICE_EXPANSION`: beds, healing, repairs, trade), since "offer" shares no word with
  "she rents the four upstairs rooms".

**Records.** "Where can we dig through old *clippings* …?" asks for whoever keeps records (a
newspaper, an archive, a library, a registry), and no passage says "clippings": the lexical
query gets the words such a passage uses (:data:`RECORD_EXPANSION`).

Only the question's wording, the named entities' types and the view's passages are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import pairwise

from graphrag_core.models import CampaignView
from ranking.cues import (
    HEALING_EXPANSION,
    LODGING_EXPANSION,
    REPAIR_EXPANSION,
    QuestionCues,
)
from ranking.names import NameSpan, question_words

OFFER_WORDS = frozenset({"offer", "offers", "provide", "provides"})
"""Verbs by which a "what" question asks what a place offers ("What can the port *offer* …",
"What does the station *provide* …"). "have", "give" and "supply" are left out: "What do we
*have* on the Baron?", "What did the smuggler *give* us?" ask no such thing."""

SERVICE_EXPANSION = (
    *LODGING_EXPANSION,
    *HEALING_EXPANSION,
    *REPAIR_EXPANSION,
    "sells",
    "trade",
    "hire",
    "stabling",
)
"""Words a passage about a service uses: lodging, healing, repairs, trade."""

_PLACE = "Location"
_FACTION = "Faction"
_CREATURE = "Creature"
_DEITY = frozenset({"Deity"})

POWER_WORDS = frozenset({"power", "powers", "powerful", "influential", "powerhouses"})
"""Words by which a question asks for the powers of a place: its factions."""

POWER_PHRASES = (
    ("big", "players"),
    ("major", "players"),
    ("key", "players"),
    ("main", "players"),
    ("movers", "and", "shakers"),
    ("big", "shots"),
    ("top", "dogs"),
    ("pull", "the", "strings"),
    ("pulls", "the", "strings"),
)
"""Idioms by which a question asks for the powers ("Who are the *big players* in this
town?"), as :data:`POWER_WORDS` do."""


_MODALS = frozenset(("can", "could", "will", "would", "does", "do", "might"))
_ASKERS = frozenset(("we", "i", "you", "us"))


def asks_offer(question: str) -> bool:
    """A "what" question with a verb of offering ("What can the town offer …?"), or one that
    asks what a place can *do for* someone ("What can the city do for a crew passing
    through?"; "What can *we* do for the Baron?" asks what the asker can do, no offer)."""
    words = question_words(question)
    if not words or words[0] != "what":
        return False
    if not OFFER_WORDS.isdisjoint(words):
        return True
    doing = any(pair == ("do", "for") for pair in pairwise(words))
    return doing and len(words) > 2 and words[1] in _MODALS and words[2] not in _ASKERS


LURKING_WORDS = frozenset(
    ("lurk", "lurks", "lurking", "dwell", "dwells", "prowl", "prowls", "stalk", "stalks",
     "swim", "swims", "crawl", "crawls", "slither", "slithers", "roam", "roams", "haunt",
     "haunts")
)  # fmt: skip
"""Verbs by which a "what" question asks what lives out in the wild ("What *lurks* in the
marsh?")."""

THERE_PHRASES = (("down", "there"), ("out", "there"), ("under", "there"), ("in", "there"))
"""What a "what" question says to point at the wild it asks about ("What's *down there* in the
water?", "What is *out there* in the dark?")."""


def asks_creatures(question: str) -> bool:
    """A "what" question about what lives, lurks or is *down/out there*: it asks for the
    creatures (and the powers the locals fear), "What do the locals reckon is down there in
    the water?", "What prowls the moor at night?"."""
    words = question_words(question)
    if not words or words[0] != "what":
        return False
    return not LURKING_WORDS.isdisjoint(words) or any(
        pair in THERE_PHRASES for pair in pairwise(words)
    )


def list_cues(question: str, cues: QuestionCues) -> QuestionCues:
    """The cues with the list the question asks for added: factions for power, places for
    what is offered, creatures (and gods, as answers) for what lurks out there."""
    words = question_words(question)
    power = not POWER_WORDS.isdisjoint(words) or any(
        tuple(words[i : i + len(phrase)]) == phrase
        for phrase in POWER_PHRASES
        for i in range(len(words) - len(phrase) + 1)
    )
    listed = frozenset({_FACTION}) if power else frozenset()
    if asks_offer(question):
        listed |= {_PLACE}
    beings = frozenset({_CREATURE}) if asks_creatures(question) else frozenset()
    if not listed and not beings:
        return cues
    return replace(
        cues,
        answer_types=cues.answer_types | listed | beings | (_DEITY if beings else frozenset()),
        list_types=cues.list_types | listed | beings,
    )


RECORD_WORDS = frozenset(
    ("clippings", "clipping", "cuttings", "archive", "archives", "records", "files",
     "newspapers", "papers", "microfilm", "ledgers", "registers", "chronicles", "annals")
)  # fmt: skip
"""Words by which a question asks where old records are kept ("Where can we dig through old
*clippings* …?", "Who keeps the town's *records*?")."""

RECORD_PHRASES = (("back", "issues"), ("old", "papers"), ("public", "records"))
"""Phrases that ask for records as :data:`RECORD_WORDS` do."""

RECORD_EXPANSION = (
    "paper", "newspaper", "archive", "archives", "library", "records", "printed", "edited",
    "editor", "press", "clerk", "scribe", "chronicle", "registry",
)  # fmt: skip
"""Words a passage about a keeper of records uses (a newspaper, an archive, a library, a
registry): "the only *paper* in the city", "owned and *edited* by …"."""


STOPPING_PHRASES = (
    ("shut", "down"), ("close", "down"), ("shut", "them", "down"), ("crack", "down"),
    ("put", "a", "stop"), ("put", "an", "end"), ("stamp", "out"), ("bust", "up"),
    ("broken", "up"), ("break", "up"), ("run", "out", "of", "town"),
)  # fmt: skip
"""Phrases by which a "who" question asks who can stop a trade or a gang ("Who do we talk to if
we want the booze boats *shut down*?"): the law, or whoever acts against it."""

STOPPING_EXPANSION = (
    "law", "police", "agent", "agents", "bureau", "enforcement", "raid", "raids", "arrest",
    "close", "stop", "watch", "sheriff", "magistrate", "marshal",
)  # fmt: skip
"""Words a passage about who stops a trade uses: the law and its agents, raids, arrests."""


def asks_stopping(question: str) -> bool:
    """A "who" question asking who can stop something (:data:`STOPPING_PHRASES`)."""
    words = question_words(question)
    return (
        bool(words)
        and words[0] == "who"
        and any(
            tuple(words[i : i + len(phrase)]) == phrase
            for phrase in STOPPING_PHRASES
            for i in range(len(words) - len(phrase) + 1)
        )
    )


def asks_records(question: str) -> bool:
    """The question asks where records, papers or archives are kept."""
    words = question_words(question)
    return not RECORD_WORDS.isdisjoint(words) or any(
        pair in RECORD_PHRASES for pair in pairwise(words)
    )


def offer_query(question: str, query: str) -> str:
    """The lexical query with the service words added, when the question asks what is
    offered, the words of a keeper of records when it asks for records, and those of the law
    when it asks who can stop something."""
    added: list[str] = []
    if asks_offer(question):
        added += SERVICE_EXPANSION
    if asks_records(question):
        added += RECORD_EXPANSION
    if asks_stopping(question):
        added += STOPPING_EXPANSION
    words = set(question_words(query))
    extra = [w for w in dict.fromkeys(added) if w not in words]
    return " ".join((query, *extra)) if extra else query


def offering_places(
    question: str,
    spans: Sequence[NameSpan],
    types: Mapping[str, str],
    view: CampaignView,
    list_types: frozenset[str] = frozenset(),
) -> set[str]:
    """The place a question asking what is offered is set in: the places it names, else (it
    says "the town", "the station") the view's most-named place, when one place is named by
    more passages than any other (:func:`main_place`). A question asking for a list of places
    (``list_types`` holds ``Location``: "What are the main spots along the waterfront?") that
    names no place is set in that main place too: the city is no spot in itself."""
    offer = asks_offer(question)
    if not offer and _PLACE not in list_types:
        return set()
    named = {e for span in spans for e in span.ids if types.get(e) == _PLACE}
    if named:
        return named if offer else set()  # a named place of a list is an anchor already
    main = main_place(view)
    return {main} if main else set()


def main_place(view: CampaignView) -> str | None:
    """The campaign's setting: the place the campaign is named after (a campaign "gullport"
    with a place ``gullport``), else the place more passages of the view name (as subject or
    mention) than any other, the setting in most worlds; None when two share the most."""
    own = view.entities.get(view.campaign)
    if own is not None and own.type == _PLACE:
        return own.id
    counts = sorted(
        ((len(view.chunks_naming(e.id)), e.id) for e in view.entities.values() if e.type == _PLACE),
        reverse=True,
    )
    if not counts or counts[0][0] == 0 or (len(counts) > 1 and counts[1][0] == counts[0][0]):
        return None
    return counts[0][1]
