"""The entities a question names as its setting rather than its answer.

"Where can we sleep in *Port Varrow*?" names Port Varrow, but the answer is an inn inside it;
"Who does *Garran the Eel* work for?" names Garran, but the answer is his employer. Such a named
entity is the question's **anchor**: it still counts as named (never hidden, never demoted by
its status, the centre of proximity, so its neighbours of the asked type rise), but its match is
the preset's ``anchor`` weight instead of ``named``, so an answer that fits can rank above it.

A named entity is an anchor when the question asks for something (a question word, and an
answer type such as "where", "who", "which inn" or a relation such as "leads", "works for":
"Can we drink at the Red Oak Tavern?" asks about the tavern) and the entity is not
the question's subject ("Who *is* Nessa Quill?", "Where is Tobin?", "Tell me about the Drowned
King": the named entity is the answer), and one of:

- the question asks along a relation ("Who leads the Black Tide?": from the Black Tide);
- the name follows a preposition of place or belonging ("in", "at", "on", "of", "near", "by",
  ...);
- the entity is not of a type the question asks for ("*Where* can we hear the Horn?").

A yes/no question ("Is the wisp still walking the quarry?", "After the raid, is Gonzō still
alive?") asks about the one named right after its verb; a place it names besides, or a name
after a preposition of place, is that one's setting (:func:`_yes_no_settings`).

A name after a word of time ("since", "after", "before", "until", "during": "Who's died
*since St Nicholas*?") says when the question is set (:func:`time_marks`): it is an anchor
too, and a status question ("Who's died …?") reads as one that names nothing else
(:func:`ranking.asked_status.status_asked`).

Only the question's wording and the entities' types are read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from ranking.cues import asked_clause, has_phrase, question_cues
from ranking.names import NameSpan, possessives, question_words

SETTING_WORDS = frozenset(
    {"in", "at", "on", "near", "around", "across", "through", "under", "beneath", "below",
     "inside", "outside", "of", "from", "along", "beyond", "within", "into", "over", "about",
     "by", "beside", "behind", "past", "above", "atop", "upon", "between", "among",
     "opposite", "toward", "towards"}
)  # fmt: skip
"""Words that, just before a name, make it the place or thing the question is set in."""

_ASKING = frozenset({"who", "whom", "what", "where", "which", "whose"})
_COPULA = frozenset({"is", "are", "was", "were"})
_ARTICLES = frozenset({"the", "a", "an"})
_ABOUT = (("tell", "me", "about"), ("describe",))


def anchors(question: str, spans: Sequence[NameSpan], types: Mapping[str, str]) -> set[str]:
    """Ids of the named entities that are the question's setting, not its answer. The cues
    are read outside the names ("the Red Oak *Tavern*" asks for no Location), but a kin noun
    asked after a name in the possessive ("Who's Lucky's big *sister*?") is read with it, since
    only the possessive makes it a kinship."""
    words = question_words(question)
    named = {i for span in spans for i in range(span.start, span.end)}
    cues = question_cues(" ".join(w for i, w in enumerate(words) if i not in named))
    owners = possessives(question)
    told = _told_words(question, words)
    asked = {e for span in spans if span.start >= told for e in span.ids}
    relations = cues.relation_types
    if not relations and any(owner is not None for owner in owners):
        relations = question_cues(question).relation_types  # "Lucky's big *sister*"
    if _ASKING.isdisjoint(words):
        return _yes_no_settings(question, words, spans, types)
    if not (cues.answer_types or relations):
        return set()
    found: set[str] = set()
    for span in spans:
        if span.end <= told:
            found.update(e for e in span.ids if e not in asked)  # "*Dutch* got shot. Who …?"
            continue
        before = [w for w in words[: span.start] if w not in _ARTICLES]
        if is_subject(before) and not owners[span.end - 1]:
            continue  # "Who's Bryony's mum?" asks about the mum, not about Bryony
        setting = bool(before) and before[-1] in SETTING_WORDS
        for entity_id in span.ids:
            if relations or setting or types.get(entity_id) not in cues.answer_types:
                found.add(entity_id)
    return found


_YES_NO = re.compile(
    r"(?:^|[,;:]\s*)(?:is|are|was|were|does|do|did|has|have|can|could|should|shall|will"
    r"|would|may|might)\b",
    re.IGNORECASE,
)
"""A verb that opens a yes/no question or its last clause ("*Is* the wisp still …?", "After
the raid, *is* Gonzō still alive?"); not one after "how" or "why" ("How *did* the Crane get
out?" asks for a story)."""


def _yes_no_settings(
    question: str, words: Sequence[str], spans: Sequence[NameSpan], types: Mapping[str, str]
) -> set[str]:
    """A yes/no question asks about the one it names first after its verb ("Is *the wisp*
    still walking the quarry?", "After the raid, is *Gonzō* still alive?", "Should we radio
    *Sheriff K* for backup at the quarry?"); a place it names besides, or a name after a
    preposition of place, is where that one is, its setting."""
    verbs = [len(question_words(question[: m.end()])) for m in _YES_NO.finditer(question)]
    subject = next((span for span in spans if verbs and span.start >= verbs[0]), None)
    if subject is None or len(spans) < 2:
        return set()
    found: set[str] = set()
    for span in spans:
        if span is subject:
            continue
        before = [w for w in words[: span.start] if w not in _ARTICLES]
        setting = bool(before) and before[-1] in SETTING_WORDS
        found.update(e for e in span.ids if setting or types.get(e) == "Location")
    return found - set(subject.ids)


_SENTENCE_END = re.compile(r"[.!;]\s+")

NOW_WORDS = frozenset(("now", "nowadays", "currently", "today"))
NOW_PHRASES = (("these", "days"), ("at", "the", "moment"), ("right", "now"))
"""Words by which a question asks about the present ("Who's the Sahib *these days*?")."""


def asks_now(words: Sequence[str]) -> bool:
    """Whether ``words`` ask about the present (:data:`NOW_WORDS`, :data:`NOW_PHRASES`)."""
    return not NOW_WORDS.isdisjoint(words) or has_phrase(words, NOW_PHRASES)


def named_holder_now(question: str, spans: Sequence[NameSpan]) -> set[str]:
    """The ids of the one a "who is" question names as its subject and asks about *now*
    ("Who's the Sahib these days?"): what the question asks is who bears that name now,
    which, when the one so called has handed on what he held, is no longer he
    (:func:`ranking.graph.successors`). Empty for any other question ("Who is the Sahib?"
    asks about the one so called)."""
    words = question_words(question)
    if words[:2] != ["who", "is"] or not spans:
        return set()
    first = spans[0]
    if [w for w in words[: first.start] if w not in _ARTICLES] != ["who", "is"]:
        return set()
    return set(first.ids) if asks_now(words[first.end :]) else set()


def told_before(question: str, spans: Sequence[NameSpan]) -> set[str]:
    """Ids named only in the sentences told before the one that asks ("*Wes* is bleeding all
    over the back seat. Who stitches him up?") or in a clause of what changed after it
    ("Who's our fixer now that *Mama Switch* is gone?", :func:`ranking.cues.asked_clause`):
    what the question is about, not its answer."""
    told = _told_words(question, question_words(question))
    kept = asked_clause(question)  # without "… now that Mama Switch is gone"
    offset = max(question.find(kept), 0)
    first = len(question_words(question[:offset]))
    start, end = max(told, first), first + len(question_words(kept))
    asked = {e for span in spans if start <= span.start and span.end <= end for e in span.ids}
    return {e for span in spans for e in span.ids} - asked


def _told_words(question: str, words: Sequence[str]) -> int:
    """How many of ``words`` are in sentences told before the one that asks ("Dutch caught a
    slug in the shoulder. Who'll sew him up?"): the names there are what the question is
    about, not its answer. 0 when the last sentence asks nothing ("Who runs St. Agatha's?"
    splits after "St")."""
    parts = _SENTENCE_END.split(question.strip())
    if len(parts) < 2 or _ASKING.isdisjoint(question_words(parts[-1])):
        return 0
    return len(words) - len(question_words(parts[-1]))


def is_subject(before: Sequence[str]) -> bool:
    """True when the words before a name (articles dropped) make it the question's subject:
    "who is", "what are", "is", "tell me about", "describe"."""
    if len(before) == 2 and before[0] in _ASKING and before[1] in _COPULA:
        return True
    if len(before) == 1 and before[0] in _COPULA:
        return True
    return any(tuple(before) == phrase for phrase in _ABOUT)


TIME_WORDS = frozenset({"since", "after", "before", "until", "till", "during"})
"""Words that, just before a name, make it a time the question is set at: "Who's died *since
St Nicholas*?" asks about deaths, not about the saint whose feast dates them."""


def time_marks(question: str, spans: Sequence[NameSpan]) -> set[str]:
    """Ids of the names in a clause of time: after a word of time ("since", "after", "before",
    …) with at most :data:`_TIME_REACH` words between, articles not counted ("since *St
    Nicholas*", "since we started *the mask hunt*", "since we rolled into *the Cloverleaf*",
    "right after the fire in *Pochtlan*"), none of them a question
    word or a verb of the question ("After we lost Zed, *is* Genda Phool still open?": Genda
    Phool is asked about). When the question is set, not what it asks about."""

    def opens(words: list[str], at: int) -> bool:
        return words[at] in TIME_WORDS or (at > 0 and (words[at - 1], words[at]) in _WHEN_PAIRS)

    return _clause_names(question, spans, opens, _TIME_REACH)


def _clause_names(
    question: str,
    spans: Sequence[NameSpan],
    opens: Callable[[list[str], int], bool],
    reach: int,
) -> set[str]:
    """Ids of the names in a clause that ``opens`` at a word at most ``reach`` words before
    them, with no question word or verb of the question (:data:`_CLAUSE_BREAKS`) between."""
    words = question_words(question)
    marks: set[str] = set()
    for span in spans:
        left = reach  # words between, articles not counted ("since we rolled into *the* …")
        for at in range(span.start - 1, -1, -1):
            if opens(words, at):
                marks |= span.ids
                break
            if words[at] in _CLAUSE_BREAKS:
                break
            left -= words[at] not in _ARTICLES
            if left <= 0:
                break
    return marks


_TIME_REACH = 4
_WHEN_PAIRS = frozenset({("back", "when"), ("just", "when"), ("right", "when")})
""""Back when", "right when": a clause of time, not the question's "when"."""
_CLAUSE_BREAKS = frozenset(
    {
        *_ASKING,
        *_COPULA,
        "how",
        "why",
        "when",
        "whos",
        "whats",
        "does",
        "do",
        "did",
        "can",
        "could",
        "will",
        "would",
        "has",
        "have",
    }
)


EXCLUDING_WORDS = frozenset({"besides", "except", "excluding"})
EXCLUDING_PHRASES = (("apart", "from"), ("aside", "from"), ("other", "than"), ("not", "counting"))
"""Words that put the names after them out of the answer ("*Besides* Itz and Maza, who's in
our group?", "Who *other than* the Baron ...?")."""


def excluded(question: str, spans: Sequence[NameSpan]) -> set[str]:
    """Ids of the names the question puts out of its answer: in a list after "besides",
    "except", "apart from", "other than", … (at most :data:`_EXCLUDED_REACH` words on, up to
    the question's own word or verb)."""

    def opens(words: list[str], at: int) -> bool:
        return words[at] in EXCLUDING_WORDS or (
            at > 0 and (words[at - 1], words[at]) in EXCLUDING_PHRASES
        )

    return _clause_names(question, spans, opens, _EXCLUDED_REACH)


_EXCLUDED_REACH = 8
