"""The party asks; its own members are not what it asks for.

In a recap written by a player ("we", "us", "our crew"), the party's members are named in
almost every sentence: "Dutch tore his forearm open … Birdie took him to Doc Petrie". Every
passage about a healer, a garage or a danger names them too, so they fill the top of "Who can
fix it?", "Who'll sew him up?", "What's dangerous here?", "Who are the big players?" — but the
asker *is* the party, and a question asked by the party is answered by someone else. A party
member is an answer only when the question names them, or asks about the party itself
("Who is in our crew?", "Which of us …", "Who has joined us?").

**Who is in the party** (:func:`party_members`), read from the view only:

- an entity of type ``PC`` (a player character, whatever the source says of it);
- a person named in a session record's attendance line ("*Present: Dutch, Birdie, the Prof,
  and me.*", "Players: …", "Party: …", "In attendance: …", :data:`ATTENDANCE`): a recap's
  roll-call lists who played, the party (a line that names fewer than two people, or asks
  a question, is no roll-call);
- but not one a change of the view took out of the party (:func:`left_party`).

An NPC who joins the party later (``member_of`` the party, a change set's ``in_party: true``)
is *not* one of the askers: the guide who joined the caravan, the reporter who is "one of us
now" still answer "Who knows the way?", "Who's got our backs?".

**What is done** (:func:`party_factor`): the score (and the status factor that explains it)
of a party member the question neither names nor asks about is multiplied by
``settings.inactive_factor``, as an unavailable entity's is: demoted, never hidden (its match
is untouched, so the relevance floor does not change). A member the graph gives as the answer
along the relation asked is not demoted either, as a named one is not: "Who put Tack down?"
is answered by the player character who killed him (``killed_by``), "Who's hanging on to the
tape?" by the one holding it (``owned_by``).
"""

from __future__ import annotations

import re
from itertools import pairwise

from graphrag_core.models import PARTY_ID, CampaignView
from ranking.cues import PARTY_NOUNS, QuestionCues
from ranking.names import NameIndex, question_words

ATTENDANCE = re.compile(
    r"(?:^|(?<=[.!?*_(\n]))[ \t]*(?:present|players|party|attending|in attendance|"
    r"characters|pcs|the party)[ \t]*:[ \t]*([^\n*_)]+)",
    re.IGNORECASE | re.MULTILINE,
)
"""A roll-call in a session record: "Present:", "Players:", "Party:", … and the names after it,
to the end of its line (or of the italics or parentheses it is written in)."""

ROLL_CALL_SPAN = 600
"""How far into a session record's passage a roll-call is looked for: it opens the record
(under its heading), so a long recap is not searched whole for every question."""

_ABOUT_US = (("of", "us"), ("among", "us"), ("with", "us"), ("joined", "us"), ("join", "us"))
"""Pairs by which a question asks about the party's own members ("Which *of us* …")."""


def party_members(view: CampaignView, names: NameIndex) -> frozenset[str]:
    """The view's player characters: ``PC`` entities and the names on a visible session
    record's attendance line (not the NPCs who joined the party), but for those a change of
    the view took out of the party (:func:`left_party`)."""
    members = {e.id for e in view.entities.values() if e.type == "PC"}
    for chunk in view.chunks.values():
        if chunk.session is None or chunk.visibility not in view.visibilities:
            continue
        for match in ATTENDANCE.finditer(chunk.text, 0, ROLL_CALL_SPAN):
            members |= _roll_call(match.group(1), view, names)
    gone = left_party(view)
    return frozenset(m for m in members if m in view.entities and m != PARTY_ID and m not in gone)


ROLL_CALL_TYPES = frozenset(("PC", "NPC", "Other"))
"""The types of the names a roll-call lists: people, or names of no type ("Birdie"), never a
place, a faction or a thing."""


def _roll_call(line: str, view: CampaignView, names: NameIndex) -> set[str]:
    """The people an attendance line lists, if it is a roll-call: at least two of them typed
    as people (besides any name of no type) and no question in it. "the players: Benny?
    Orisun? → wrong, both" (a GM's outline guessing who sold them) and "Present: Insp.
    PESSOA. Recording: ON." (an interview transcript's header) call no roll of the party."""
    line = _NEXT_FIELD.split(line, maxsplit=1)[0]
    if "?" in line:
        return set()
    people = {
        e
        for e in names.find(line)
        if e in view.entities and view.entities[e].type in ROLL_CALL_TYPES
    }
    typed = [e for e in people if view.entities[e].type != "Other"]
    return people if len(typed) >= 2 else set()


_NEXT_FIELD = re.compile(r"[.;]\s+[A-Z][\w ]{0,20}:")
"""The next field of a header line ("… PESSOA. *Recording:* ON."): the roll-call ends there."""


def left_party(view: CampaignView) -> frozenset[str]:
    """Whoever the view's changes last took out of the party: a change that ended their
    ``member_of`` the party (``{from: moth, to: party, type: member_of, change: end}``) or
    set ``in_party: false``, with no later one bringing them back. A player character who
    walked out is no asker and no member of the crew any more."""
    out: dict[str, bool] = {}
    for change in sorted(view.changes.values(), key=lambda c: (c.session_id, c.revision, c.seq)):
        if (
            change.kind == "relationship"
            and change.field == "relation"
            and change.relation_type == "member_of"
            and change.target_id == PARTY_ID
        ):
            out[change.entity_id] = change.new_value == "end"
        elif change.kind == "entity_property" and change.field.casefold() == "in_party":
            out[change.entity_id] = change.new_value.strip().casefold() not in _YES
    return frozenset(entity_id for entity_id, left in out.items() if left)


_YES = frozenset({"true", "yes", "1"})


def asks_about_party(question: str, cues: QuestionCues) -> bool:
    """The question asks about the party itself: along a relation from it ("Who has joined
    our company?") or about its members ("Which of us …", "Who is in our crew?", "Who is in
    the party?"). Its friends or foes ("Who's got our backs?", "Who wants us dead?") are
    others: a companion who joined is no asker and still answers."""
    words = question_words(question)
    if cues.party_relation or "party" in words:
        return True
    return any(
        pair in _ABOUT_US or (pair[0] == "our" and pair[1] in PARTY_NOUNS)
        for pair in pairwise(words)
    )


def demoted_members(
    question: str, cues: QuestionCues, named: set[str], members: frozenset[str]
) -> frozenset[str]:
    """The party ``members`` (:func:`party_members`, once per view) whose score a question
    demotes: every one it does not name (``named``, with the relation cue's answers),
    unless it asks about the party."""
    if asks_about_party(question, cues):
        return frozenset()
    return members - named


NEWEST_WORDS = frozenset(("newest", "latest", "recent", "recently", "last"))
"""Words by which a question asks for the party's most recent recruit ("Who's the *newest*
hunter on the team?", "Who joined us *last*?")."""

ORDINALS = frozenset(("third", "fourth", "fifth", "sixth", "seventh"))
"""A seat of the party named by its number ("the *fourth* one riding with us")."""


def _the_ordinal(words: list[str]) -> bool:
    """ "*the* (new) *fourth*": a seat named by its number after "the"."""
    return any(
        w == "the" and (after in ORDINALS or (after == "new" and nxt in ORDINALS))
        for w, after, nxt in zip(words, words[1:], [*words[2:], ""], strict=False)
    )


_JOINS = frozenset(("join", "joined", "joins", "signed"))
_SINCE = frozenset(("after", "since", "when", "once"))
"""A joining after something ("Who *joined* up with us *after* Wheels quit the crew?", "Who
*signed* on *since* Ox left?", "Who joined up with us *when* Tom bailed?") asks for the newest
member as "newest" does."""


def _joined_since(words: list[str]) -> bool:
    """A verb of joining before "after" or "since": "Who's gone to Davy Jones since we
    *signed* the articles?" joins nobody."""
    time = next((i for i, w in enumerate(words) if w in _SINCE), None)
    return time is not None and any(w in _JOINS for w in words[:time])


SEATS = frozenset(("new", "newest", "third", "fourth", "fifth", "sixth", "seventh"))
"""Words after "our" by which a question asks for the party's latest recruit as the seat
they fill ("Who's *our fourth* now that Kii-bō carries a jitte again?", "Who's *our new*
wheelman?"); an ordinal after "the" does where the question speaks of the party ("the new
fourth *in our party*", "the fourth one *riding with us*")."""

_MEMBERSHIP = frozenset(
    (*PARTY_NOUNS, "team", "member", "members", "recruit", "recruits", "addition", "join",
     "joined", "joins", "joiner")
)  # fmt: skip
"""Words that put the party's membership in the question beside a :data:`NEWEST_WORDS`."""


def newest_members(question: str, view: CampaignView) -> frozenset[str]:
    """The entities that joined the party in the latest session the view knows of, when the
    question asks for the newest member ("the newest hunter on the team", "the newest hand
    sailing *with us*"): a membership of the party (``member_of party``) that
    a change started (``in_party: true``, ``{type: member_of, to: party, change: start}``),
    read from the effective relations, so a member who left since is not one; a membership
    no change started (the prose's, or one a later change ends in an as-of view: "Before Jack
    Tar signed on, who was our fourth?") counts as one since the start."""
    order = question_words(question)
    words = set(order)
    member = words & _MEMBERSHIP or _in_company(order)  # "sailing with us"
    seat = any(w == "our" and after in SEATS for w, after in pairwise(order)) or (
        bool(member) and _the_ordinal(order)
    )  # "our fourth", "the new fourth in our party", "the fourth one riding with us"
    since = _joined_since(order)  # "Who joined up with us after Wheels quit the crew?"
    if not seat and not since and (not words & NEWEST_WORDS or not member):
        return frozenset()
    joined: dict[str, int] = {}
    for relation in view.relations:
        if relation.target != PARTY_ID or relation.type != "member_of":
            continue
        entity = view.entities.get(relation.source)
        if not relation.change_id:  # no change started it: a member since the start
            if entity is not None:  # ("our fourth" before Jack joined)
                joined.setdefault(relation.source, 0)
            continue
        change = view.changes.get(relation.change_id)
        if change is not None and entity is not None:
            joined[relation.source] = change.session_id
    if not joined:
        return frozenset()
    latest = max(joined.values())
    return frozenset(e for e, session in joined.items() if session == latest)


_ROLL_PAIRS = frozenset((("with", "us"), ("alongside", "us"), ("beside", "us")))
"""Pairs by which "who" asks for the party's own roll ("Who all's riding *with us*?", "Who's
in the van *with us* now?") after a word of travelling together (:data:`COMPANY_WORDS`) or
"in" (a vehicle, a camp): "Who's at war with us?", "Who fought with us?" ask no roll."""

ROLL_WORDS = frozenset(("headcount", "roster", "roll", "lineup"))
"""Words that ask for the party's roll outright ("Who's on the team right now, *headcount*?")."""

COMPANY_WORDS = frozenset(
    ("ride", "rides", "riding", "rode", "travel", "travels", "travelling", "traveling",
     "travelled", "traveled", "march", "marches", "marching", "sail", "sails", "sailing",
     "roll", "rolls", "rolling", "come", "comes", "coming", "came", "go", "goes", "going",
     "went", "camp", "camping", "stay", "staying", "bunk", "bunking", "road", "in", "ridden",
     "sailed", "marched", "camped", "walked", "walking", "journeyed", "stayed")
)  # fmt: skip


def _in_company(words: list[str]) -> bool:
    """ "with us" after a word of travelling together ("Who all's *riding with us*?", "the
    newest hand *sailing with us*"); "Who fought the latest war with us?" asks no company."""
    return any(
        pair in _ROLL_PAIRS and not COMPANY_WORDS.isdisjoint(words[:i])
        for i, pair in enumerate(pairwise(words))
    )


_LEAD_IN = 8
"""The most words a clause before the question word may hold ("Besides Itz, Xochi and Maza,
who's in our group right now?")."""


def roll_asked(question: str, cues: QuestionCues) -> bool:
    """The question asks who is in the party: "who" (or "which") and then company kept with
    the asker (:data:`_ROLL_PAIRS`), or being in the party or in "our" crew ("Who is in our
    crew?", "Who's in the party now?", "Who's on the team?", "Who's in our little band?"), or
    a word of the roll itself (:data:`ROLL_WORDS`). An attitude or another relation asked is
    something else ("Who's at war with us?", "Who sides with us?", "Who fought with us?")."""
    words = question_words(question)
    asking = [at for at, word in enumerate(words) if word in ("who", "which")]
    if asking and asking[0] <= _LEAD_IN:  # "Besides Itz, Xochi and Maza, who's in our group?"
        words = words[asking[0] :]
    if words[:1] not in (["who"], ["which"]) or cues.attitude is not None or cues.dangers:
        return False
    if cues.relation_types - {"member_of"}:
        return False
    if _in_company(words):  # "Who all's riding with us?"
        return True
    if not ROLL_WORDS.isdisjoint(words):  # "Who's on the team, headcount?"
        return True
    return any(
        first in ("in", "on")
        and (second == "our" or second == "the")
        and (third in PARTY_NOUNS or (second == "our" and fourth in PARTY_NOUNS))
        for first, second, third, fourth in zip(
            words, words[1:], words[2:], [*words[3:], ""], strict=False
        )
    )  # "in our crew", "on the team", "in our little band"


def roll(view: CampaignView, members: frozenset[str]) -> frozenset[str]:
    """The party as it is in ``view``: its members (:func:`party_members`, none of whom has
    left) and whoever a relation, as it is now, makes a member (an NPC who joined and has
    not left)."""
    joined = {
        r.source
        for r in view.relations
        if r.target == PARTY_ID and r.type == "member_of" and r.source in view.entities
    }
    return frozenset(members | joined)
