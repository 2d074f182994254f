"""A status the question asks about, of someone or something it does not name.

"Is the smuggler lad still locked up?" names no entity: the only thing it says of its answer
is a status, *captured* ("locked up"), and the changelog knows who has been captured. Here the
question's words (a documented lexicon, :data:`STATUS_WORDS`) give the statuses asked about,
and the entities of the view that have held one of them (their base status, or a change of
the view, which for ``--as-of N`` stops at session N, that set one or left one) are the
candidates: "still locked up?" is answered by the prisoner as he is now, released or not.

Only a question that names no entity, or only the place it is set in and asks who is held
there ("Who's still sitting in a cell at the Twelve?") or what or which things there hold a
status ("What's been burned or wrecked *around the City*?"), reads it (and a "who … still"
question only those who hold the status now, :func:`with_status_now`): a question that names one
is about that one ("Is old Fenner still kicking?"). The ranker weighs it with
``w.status_asked`` and, as with the other cues that say what is asked, never demotes such an
entity for its status (it is still marked unavailable when it is). Nothing here reads more
than the view's own states and changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphrag_core.models import PARTY_ID, CampaignView
from ranking.anchors import asks_now
from ranking.cues import has_phrase
from ranking.graph import entity_names, folded
from ranking.names import NameSpan, question_words
from ranking.whereabouts import latest_status

_CAPTURED = frozenset({"captured"})
_DEAD = frozenset({"dead"})
_DESTROYED = frozenset({"destroyed", "damaged"})
_GONE = frozenset({"missing", "lost"})

STATUS_WORDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ("locked", "prisoner", "prisoners", "captive", "captives", "captured", "imprisoned",
         "jailed", "jail", "gaol", "gaoled", "chains", "shackled", "arrested", "hostage",
         "hostages", "caged", "custody", "detained", "incarcerated", "lockup", "cell", "cells",
         "clink", "slammer", "brig", "stockade", "irons", "fetters", "manacled"),
        _CAPTURED,
    ),
    **dict.fromkeys(
        ("dead", "alive", "kicking", "breathing", "died", "slain", "perished", "croaked",
         "murdered", "drowned"),
        _DEAD,
    ),
    **dict.fromkeys(
        ("destroyed", "burned", "burnt", "ruined", "razed", "wrecked", "collapsed",
         "demolished", "rubble", "smashed", "gutted", "flattened", "levelled", "leveled",
         "sunk", "sank", "scuttled", "foundered"),
        _DESTROYED,
    ),
    **dict.fromkeys(
        ("missing", "vanished", "disappeared", "stolen", "fled", "absconded", "scarpered",
         "skedaddled"),
        _GONE,
    ),
}  # fmt: skip
"""Question words → the statuses they ask about (lowercase whole words). Words that as often
say something else are left out: "lost" ("without getting lost"), "standing" ("our standing
with the guild"), "living" ("who is living at the mill")."""


STATUS_PHRASES: dict[tuple[str, ...], frozenset[str]] = {
    ("behind", "bars"): _CAPTURED,
    ("done", "a", "runner"): _GONE,
    ("did", "a", "runner"): _GONE,
    ("on", "the", "run"): _GONE,
    ("skipped", "town"): _GONE,
    ("never", "turned", "up"): _GONE,
    ("gone", "to", "ground"): _GONE,
    ("six", "feet", "under"): _DEAD,
    ("pushing", "up", "daisies"): _DEAD,
    ("kicked", "the", "bucket"): _DEAD,
    ("bought", "the", "farm"): _DEAD,
    ("bit", "the", "dust"): _DEAD,
    ("bitten", "the", "dust"): _DEAD,
}
"""Phrases of a status whose words alone say something else ("the bars on the quay", "a
runner for the gang"): "Who's *behind bars* right now?", "Who's *done a runner*?", "Who's
*six feet under*?"; and a ship *on the bottom* (:func:`_on_the_bottom`) is sunk."""


def asked_statuses(question: str) -> frozenset[str]:
    """The statuses a question's words and phrases ask about (empty when none)."""
    words = question_words(question)
    found = frozenset().union(*(STATUS_WORDS.get(w, ()) for w in words))
    if _on_the_bottom(words):
        found |= _DESTROYED
    return found.union(*(s for phrase, s in STATUS_PHRASES.items() if has_phrase(words, [phrase])))


_NOW_WORDS = frozenset({"now", "yet", "still", "today", "already"})


def _on_the_bottom(words: list[str]) -> bool:
    """Sunk: "Which ships are *on the bottom* now?", not "the bottom rung of the guild"."""
    for at in range(len(words) - 2):
        if words[at : at + 3] == ["on", "the", "bottom"]:
            after = words[at + 3 : at + 4]
            return not after or after[0] in _NOW_WORDS
    return False


def with_status_held(view: CampaignView, statuses: frozenset[str]) -> set[str]:
    """Entities of the view that hold or have held one of ``statuses``: their base status, or
    a status change of the view that set it or left it."""
    if not statuses:
        return set()
    found = {e.id for e in view.entities.values() if e.status in statuses}
    found |= {
        change.entity_id
        for change in view.changes.values()
        if change.field == "status"
        and (change.new_value in statuses or change.old_value in statuses)
    }
    found |= {e for e, state in view.states.items() if state.status in statuses}
    return {e for e in found if e in view.entities and e != PARTY_ID}


def status_asked(
    question: str, named: set[str], view: CampaignView, spans: Sequence[NameSpan] = ()
) -> set[str]:
    """The entities a question that names none (or names only the place it is set in: "Who's
    still sitting in a cell *at the Twelve*?") asks about by a status alone. ``spans``: where
    the question names them."""
    if any(view.entities[e].type != "Location" for e in named if e in view.entities):
        return set()
    statuses = asked_statuses(question)
    words = question_words(question)
    if named and not _around(words, named, spans):  # a place is where one is kept: "burned",
        statuses &= _CAPTURED  # "missing" there say what befell it
    now = "still" in words or asks_now(words)  # "Who's *still* in a cell?", "right now"
    if words[:1] in (["who"], ["whos"]) and now:
        return with_status_now(view, statuses) - named
    return with_status_held(view, statuses) - named


AROUND = frozenset(("around", "across", "throughout", "round", "about", "in"))
"""Words before a place that make it where the things asked about are ("What's been burned or
wrecked *around the City*?"), not the thing asked about."""


def _around(words: list[str], named: set[str], spans: Sequence[NameSpan]) -> bool:
    """A question asking what or which things, whose every named place comes after a word of
    :data:`AROUND` ("Who will buy stolen goods from us *in* the Bazaar?" asks for no status)."""
    placed = [span for span in spans if set(span.ids) & named]
    return (
        words[:1] in (["what"], ["whats"], ["which"])
        and bool(placed)
        and all(_before(words, span.start) in AROUND for span in placed)
    )


def _before(words: list[str], at: int) -> str:
    """The word before ``words[at]``, past an article ("around *the* City")."""
    at -= 1
    if at >= 0 and words[at] in ("the", "a", "an"):
        at -= 1
    return words[at] if at >= 1 else ""


def with_status_now(view: CampaignView, statuses: frozenset[str]) -> set[str]:
    """Entities of the view that hold one of ``statuses`` now (in the view: as of its
    session): "Who's still locked up?" is not answered by the one released since."""
    if not statuses:
        return set()
    found = {
        e.id for e in view.entities.values() if e.status in statuses and e.id not in view.states
    }
    found |= {e for e, state in view.states.items() if state.status in statuses}
    return {e for e in found if e in view.entities and e != PARTY_ID}


DOER = 0.6
"""The stated value of whoever did what the question asks about ("Is Beak still kicking?": Little
Red, who shot him): below the one asked about, as a whereabouts note's place is."""


def status_doers(question: str, named: set[str], view: CampaignView) -> set[str]:
    """Whoever the latest status change of an entity the question names says did it (its
    ``*_by`` details: ``killed_by``, ``destroyed_by``, ``captured_by``, …), when the question
    asks after its status ("Is Beak still kicking?", "Is the van still in one piece?",
    "Is Lobo out of lockup?"): the killer, the wrecker, the captor belong to the answer. A
    question asking *where* asks for a place: only whoever holds the thing (``held_by``)
    answers it, not the captor ("Where have they got Old Humph locked up?"). Only the view's
    changes are read (as of the asked session, visible to the audience)."""
    words = question_words(question)
    if not named or not (asked_statuses(question) or "still" in words):
        return set()
    held_only = words[:1] == ["where"] or words[:2] == ["where", "s"]
    names: dict[str, str] | None = None
    found: set[str] = set()
    for entity_id in named:
        latest = latest_status(view, entity_id)
        if latest is None:
            continue
        for key, value in latest.details.items():
            if not key.casefold().endswith("_by") or (held_only and key.casefold() != "held_by"):
                continue  # "Where have they got Humph locked up?": the gaol, not the captor
            names = entity_names(view) if names is None else names
            for item in value if isinstance(value, list | tuple) else [value]:
                target = names.get(folded(item))
                if target is not None and target not in (entity_id, PARTY_ID):
                    found.add(target)
    return found - named
