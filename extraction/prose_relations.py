"""Relations a sentence of prose states, and weaker same-sentence links.

Per sentence: a cue phrase ("governed by", "belongs to", "keeper of", "worships", "was slain
by", ...) links the entity mentioned right after it (the target) to its source: the mention
just before the cue when only "is"/"was"/"who" stands between them, else the sentence's
subject (its opening mention; for a sentence opening with a pronoun, the previous sentence's
subject or the section's entity: "She belongs to the Millers' Compact"). ``reverse`` swaps the
ends ("X rules Y" → ``Y ruled_by X``). Hedged wording ("tried to kill", "nearly killed") is no
cue. The sentence is the relation's description, the chunk its citation.

A later sentence of a roster entry that opens with a cue or a role leaves the entry's subject
unsaid and reads as one more clause of it ("- **Quim** — Joaquim Sá. Owns Bar Saudade on Rua
Nova." → ``joaquim-sa owns bar-saudade``); what a list entry says of its own subject ("X
leads", "X runs it") and where a directory line places someone are
:mod:`extraction.prose_entries`' rules.

Two entities named in one sentence with no cue between them get ``related_to`` with
``evidence="co_occurrence"``, unless some other relation already links them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from extraction.gazetteer import Mention
from extraction.markdown import unwrapped
from extraction.prose_entities import sentences
from extraction.prose_entries import (
    entry_relations,
    entry_subject,
    heading_members,
    placed_relations,
)
from extraction.prose_kin import PEOPLE_TYPES, Antecedents, pronoun_gender
from extraction.roster_lines import RosterLine, opens_clause, role_of, roster_line, term_of
from extraction.taxonomy import ATTITUDE_OF_TYPE
from graphrag_core.models import Chunk, Relation

_BE = r"(?:(?:is|are|was|were|has\s+been|had\s+been)\s+)?"
_UNHEDGED = r"(?<!tried to )(?<!nearly )(?<!almost )(?<!barely )"


@dataclass(frozen=True)
class Cue:
    pattern: re.Pattern[str]
    relation: str
    reverse: bool = False
    thing_source: bool = False
    """The source is what "its"/"their" stands for: never a person."""


def _cue(phrase: str, relation: str, reverse: bool = False, thing_source: bool = False) -> Cue:
    pattern = re.compile(r"\b(?:" + phrase + r")\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
    return Cue(pattern, relation, reverse, thing_source)


CUES: tuple[Cue, ...] = (
    _cue(_BE + r"(?:ruled|governed|led|commanded)\s+by", "ruled_by"),
    _cue(r"(?:rules|ruled|governs|governed)(?:\s+over)?", "ruled_by", reverse=True),
    _cue(r"(?:(?:is|was|are|were)\s+)?(?:a|an|the)?\s*(?:\w+\s+)?members?\s+of", "member_of"),
    _cue(r"(?:belongs?|belonged)\s+to|joined|(?:is|was)\s+one\s+of", "member_of"),
    _cue(r"(?:runs|ran|rides|rode|sails|sailed)\s+with", "member_of"),
    _cue(r"(?:is|was)\s+(?:a|an)\s+(?:\w+\s+)?(?:squire|knight|soldier|agent|servant|acolyte|"
         r"initiate|priest|priestess)\s+of", "member_of"),
    _cue(r"(?:leads|led|heads|headed|commands)", "leads"),
    _cue(_BE + r"the\s+(?:leader|head|chief|captain|master|mistress|founder)\s+of", "leads"),
    _cue(r"(?:owns|owned|keeps|kept|runs|ran|carries|carried|wields|wielded|bears)", "owns"),
    _cue(_BE + r"(?:the\s+)?(?:keeper|owner|proprietor|landlord|landlady)\s+of", "owns"),
    _cue(_BE + r"(?:owned|kept|run|operated)(?:\s+and\s+(?:owned|kept|run|operated))?\s+by",
         "owned_by"),
    _cue(r"(?:worships|worshipped|prays\s+to|prayed\s+to|(?:a\s+)?(?:priest|priestess)\s+of)",
         "worships"),
    _cue(_BE + r"(?:allied\s+with|(?:an\s+)?all(?:y|ies)\s+of|friends?\s+(?:of|with))",
         "allied_with"),
    _cue(_BE + r"(?:hostile\s+to(?:wards?)?|at\s+war\s+with|(?:an\s+)?enem(?:y|ies)\s+of)",
         "hostile_to"),
    _cue(r"(?:hates|hated|betrayed|attacked|feuds?\s+with)", "hostile_to"),
    _cue(_BE + _UNHEDGED + r"(?:killed|slain|murdered)\s+by", "killed_by"),
    _cue(_UNHEDGED + r"(?:killed|slew|murdered)", "killed_by", reverse=True),
    _cue(r"(?:works|worked)\s+(?:for|at)", "works_for"),
    _cue(r"(?:reports|reported|answers|answered)\s+(?:directly\s+)?to|(?:fronts|fronted)\s+for",
         "works_for"),
    _cue(r"(?:employs|employed|hired)", "employs"),
    _cue(r"(?:serves|served)|(?:is|was|are|were)\s+loyal\s+to|(?:\w+\s+)?loyal\s+to", "serves"),
    _cue(r"(?:guards|guarded)", "guards"),
    _cue(r"(?:seeks|sought|searches\s+for|hunts\s+for)", "seeks"),
    _cue(_BE + r"sacred\s+to", "sacred_to"),
    _cue(_BE + r"(?:married\s+to|the\s+(?:wife|husband)\s+of)", "married_to"),
    _cue(_BE + r"the\s+(?:father|mother)\s+of", "parent_of"),
    _cue(_BE + r"the\s+(?:son|daughter)\s+of", "parent_of", reverse=True),
    _cue(r"(?:lives|lived|dwells|dwelt|resides|resided)\s+(?:in|at|on)", "located_in"),
    _cue(_BE + r"(?:located|situated|nestled|hidden|found|built)\s+(?:in|on|at|within|near|by)",
         "located_in"),
    _cue(r"(?:lies|lay|sits|sat|stands|stood)\s+(?:in|on|at|within|beside|by)", "located_in"),
    _cue(r"(?:is|was)\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}(?:in|on|at|near|beside|by)", "located_in"),
    _cue(r"^(?:its|their)\s+(?:keeper|owner|proprietor|landlord|landlady),?", "owns", True,
         thing_source=True),
    _cue(r"^(?:its|their)\s+(?:[\w-]+\s+)?(?:boss|leader|head|chief|commander|captain|master|"
         r"mistress|founder|ringleader|executive|director)(?:,\s+an?\s+(?:\w+\s+)?(?:named|"
         r"called))?(?:,|\s+is|\s+was)?", "leads", True, thing_source=True),
)  # fmt: skip
HOSTILE_EVENTS = _cue(
    _UNHEDGED + r"(?:ambushed|robbed|poisoned|imprisoned|captured|exiled|banished|framed|"
    r"blackmailed|robs|poisons|imprisons|captures|exiles|banishes|blackmails)",
    "hostile_to",
)
"""An act against someone: the actor is hostile to them ("Orm poisoned Eydis")."""
_SENT = re.compile(r"\b(?<!tried to )(?:sent|drove|threw|pushed|cast)\s+(?:the\s+)?$")
_SENT_AWAY = re.compile(r"\s+(?:into|down|over|off|out\s+of|overboard|away)\b")
""""X sent Y into the river", "drove Y out of the town": an act against Y."""

KIN_RELATIONS: dict[str, tuple[str, bool]] = {
    **dict.fromkeys(("son", "daughter", "child", "firstborn", "kid"), ("parent_of", False)),
    **dict.fromkeys(
        ("father", "mother", "old man", "old lady", "dad", "mum", "mom", "ma", "pa", "papa",
         "mama", "stepfather", "stepmother"),
        ("parent_of", True),
    ),
    **dict.fromkeys(
        ("wife", "husband", "missus", "missis", "widow", "widower", "bride", "spouse"),
        ("married_to", True),
    ),
    **dict.fromkeys(
        ("nephew", "niece", "cousin", "brother", "sister", "uncle", "aunt", "grandson",
         "granddaughter", "grandmother", "grandfather", "twin", "kinsman", "kinswoman",
         "sibling", "half-brother", "half-sister", "stepbrother", "stepsister", "stepson",
         "stepdaughter", "brother-in-law", "sister-in-law", "son-in-law", "daughter-in-law",
         "father-in-law", "mother-in-law", "grandchild", "fiance", "fiancé", "fiancee",
         "fiancée"),
        ("related_to", True),
    ),
    **dict.fromkeys(
        ("steward", "servant", "agent", "lieutenant", "bodyguard", "champion", "spy", "orderly",
         "squire", "apprentice", "retainer", "henchman", "enforcer", "right-hand", "right hand",
         "right-hand man", "right hand man", "aide", "assistant",
         # a strongman or a creature of someone's in the table's words ("Isobe's muscle")
         "muscle", "heavy", "thug", "goon", "bruiser", "hitman", "stooge", "lackey", "flunky",
         "minion", "underling", "crony", "sidekick"),
        ("serves", True),
    ),
    **dict.fromkeys(("captain", "leader", "head", "master", "mistress", "chief", "boss"),
                    ("leads", True)),
    **dict.fromkeys(
        ("sergeant", "detective", "officer", "deputy", "constable", "soldier", "member",
         "recruit"),
        ("member_of", True),
    ),
    **dict.fromkeys(("curator", "editor", "clerk", "reporter", "columnist", "mechanic", "cook",
                     "bartender", "barman", "nurse", "surgeon", "doctor"), ("works_for", True)),
    **dict.fromkeys(("owner", "proprietor", "landlord", "landlady", "keeper"), ("owns", True)),
}  # fmt: skip
"""``X's <word>`` of Y: the relation, and whether Y is its source (Y serves X) or X is
(X parent_of Y). Kin the taxonomy has no type for (siblings, cousins, in-laws) is
``related_to``."""
_KIN_MODIFIERS = (
    r"(?:own|only|kid|little|big|baby|older|elder|younger|youngest|eldest|oldest|late|twin|"
    r"dead|beloved|dear|first|second|third|new|former|estranged|trusted|favou?rite|desk|"
    r"head|chief|senior|junior)"
)
_KIN_NOUN = r"(old\s+(?:man|lady)|right[\s-]hand(?:\s+man)?|[\w-]+)"
_KIN_WORD = re.compile(r"['’]s?\s+(?:" + _KIN_MODIFIERS + r"\s+)*" + _KIN_NOUN, re.IGNORECASE)


def _kin(word: str) -> tuple[str, bool] | None:
    """The kinship or service a possessive's noun states ("old  man" → a parent)."""
    return KIN_RELATIONS.get(" ".join(word.casefold().split()))


_KIN_AFTER = re.compile(r",?\s+")
_KIN_BEFORE = re.compile(r"^(?:,\s*|\s+(?:is|was|became)\s+)(?:also\s+)?$")

_NEAR = re.compile(
    r"^\s*(?:,?\s*(?:who|which|that)\s+)?(?:(?:is|was|are|were|has|had|also|now)\s+)*$"
)
_NOT_PROSE = re.compile(r"^\s*(?:[-*+>|#]|\d+[.)]|[\w' ]{1,40}:)|[^.!?'\")\]]$")
_PRONOUN = re.compile(r"^(?:She|He|It|They|Its|Her|His|Their)\b")


def sentence_relations(
    chunk: Chunk, mentions: Sequence[Mention], people: Antecedents | None = None
) -> list[Relation]:
    """The stated and co-occurrence relations of every sentence of ``chunk``. ``people``:
    the people the document named before this chunk, updated here (the chunks of one
    document are passed in order); with it, "her son X" states a kinship too
    (:func:`_pronoun_kin`)."""
    found: list[Relation] = []
    previous = chunk.subject
    whole = unwrapped(chunk.text)  # a hard-wrapped paragraph is read as one
    if people is not None:
        people.start_chunk(chunk.visibility)
    term: str | None = None  # the entity the previous line named alone (a definition's term)
    listed: str | None = None  # the subject of the roster line just before
    entry: str | None = None  # the entity the list item this sentence is on opens with
    kinds = people.kinds if people is not None else {}
    marker: int | None = None  # where a numbered item's marker ("1.") just before starts
    for start, end in sentences(whole):
        inside = [m for m in mentions if start <= m.start and m.end <= end]
        text = whole[start:end]
        opens_line = start == 0 or whole[:start].rstrip(" \t").endswith("\n")
        if opens_line or marker is not None:
            item = marker if marker is not None else start  # the item, with its marker
            entry = entry_subject(whole[item:end], item, inside)
            found += [
                _relation(chunk, text, kind, source, target)
                for source, kind, target in heading_members(
                    whole[item:end], item, inside, chunk.subject, kinds
                )
            ]
        marker = start if opens_line and _MARKER.fullmatch(text) else None
        line = roster_line(text, start, inside, term)
        if line is None and listed is not None and previous == listed and not opens_line:
            line = _continued(text, start, inside, listed)
        subject = line.subject if line else _subject(text, inside, start, previous)
        found += _sentence(chunk, text, start, inside, subject, line, kinds)
        found += [
            _relation(chunk, text, kind, source, target)
            for source, kind, target in entry_relations(text, start, inside, entry, kinds)
            + placed_relations(text, start, inside, kinds)
        ]
        if line is not None:
            found += _listed_kin(chunk, text, line, listed, people)
        if people is not None and text.startswith("#"):
            people.heading()
        elif people is not None:
            found += _pronoun_kin(chunk, text, start, inside, people)
            people.add_sentence(text, start, inside)
        previous = subject or previous
        term = term_of(text, start, inside)
        if line is not None:
            listed = line.subject
        elif opens_line:
            listed = None  # a heading or another line: "his" is no longer the list's
    return found


_MARKER = re.compile(r"\d{1,3}[.)]")
"""A numbered item's marker, which the sentence splitter cuts off as a sentence of its own
("1." of "1. THE MARIGOLD — Bay 9 …")."""


_ALSO = re.compile(r"^(?:(?:also|now|still|once)\s+)?", re.IGNORECASE)


def _continued(text: str, offset: int, inside: list[Mention], listed: str) -> RosterLine | None:
    """A later sentence of a roster entry that opens with a cue or a role and leaves the
    entry's subject unsaid reads as one more clause of its role part: "- **Gran Static** —
    Hemalatha Iyer. Hema-amma. Leads the Sixteen Bells, …", "- **Mr. Blue** — Abiodun
    Falana, Biodun. The Suit. Handler for Orisun Biotech (…). Reports to Madam Ogunleye"."""
    opening = _ALSO.match(text)
    skip = opening.end() if opening else 0
    for mention in inside:
        before = text[skip : mention.start - offset]
        role = role_of(before)
        if (role is not None and role.start == 0) or any(
            (found := cue.pattern.search(before)) and found.start() == 0
            for cue in CUES
            if not cue.thing_source
        ):
            return RosterLine(listed, 0)
    return None


def _subject(text: str, inside: list[Mention], start: int, previous: str | None) -> str | None:
    if _PRONOUN.match(text):
        return previous
    if inside and inside[0].start - start <= 12:
        return inside[0].entity_id
    return None


def _sentence(
    chunk: Chunk,
    text: str,
    offset: int,
    inside: list[Mention],
    subject: str | None,
    line: RosterLine | None = None,
    kinds: Mapping[str, str] | None = None,
) -> list[Relation]:
    stated: list[Relation] = []
    for index, target in enumerate(inside):
        before = text[: target.start - offset]
        left = inside[index - 1] if index else None
        if _PAID_BY.match(text, target.end - offset) and _ON.search(before):
            source = _source(text, offset, len(before), left, subject)  # "on X's payroll"
            if source is not None and source != target.entity_id:
                stated.append(_relation(chunk, text, "works_for", source, target.entity_id))
            continue
        if text.startswith(("'s", "’s"), target.end - offset):
            continue  # "keeps the Compact's ledgers": the object is the ledgers
        for cue in CUES:
            match = cue.pattern.search(before)
            if match is None:
                continue
            source = _source(text, offset, match.start(), left, subject)
            if cue.thing_source and (kinds or {}).get(source or "") in PEOPLE_TYPES:
                source = None  # "Their captain is X" after a sentence about a person
            if source is not None and source != target.entity_id:
                ends = (target.entity_id, source) if cue.reverse else (source, target.entity_id)
                kind = _owned(cue.relation, match.group(0), ends[0], kinds or {})
                if kind is not None:
                    stated.append(_relation(chunk, text, kind, *ends))
            break
        else:
            stated += _role(chunk, text, offset, target, left, line)
    stated += _possessive(chunk, text, offset, inside, subject, line)
    stated += _events(chunk, text, offset, inside, subject)
    stated += _couples(chunk, text, offset, inside)
    return stated + _co_occurring(chunk, text, inside, stated)


_BELONGS = re.compile(r"^(?:belongs?|belonged)\b", re.IGNORECASE)


def _owned(relation: str, cue: str, source: str, kinds: Mapping[str, str]) -> str | None:
    """A place or a thing that "belongs to" someone is theirs, not a member: "Pier Nine
    belongs to the Tarrant Line" → ``owned_by``. "belong to" after a place states what some
    plural noun belongs to ("Silverdeep Mine belongs to the margrave, but the men and women
    who work it belong to the Delvers' Fellowship"): nothing about the place (None)."""
    belongs = _BELONGS.match(cue)
    if relation != "member_of" or belongs is None or kinds.get(source) not in _THINGS:
        return relation
    return "owned_by" if belongs.group(0).casefold() != "belong" else None


_THINGS = frozenset({"Location", "Item"})


def _role(
    chunk: Chunk,
    text: str,
    offset: int,
    target: Mention,
    left: Mention | None,
    line: RosterLine | None,
) -> list[Relation]:
    """A role before a name ("curator of the Alderman Museum", "bodyguard to Lucky") is the
    role of the roster line's subject when it opens a clause of the line's role part, or of
    the name it stands in apposition to ("Ambrose, curator of …", "Ambrose is curator of …");
    else of nobody ("they met the curator of …" names no holder)."""
    before = text[: target.start - offset]
    role = role_of(before)
    if role is None:
        return []
    holder: str | None = None
    if line is not None and opens_clause(text, line, role.start):
        holder = line.subject
    elif left is not None and _APPOSED.fullmatch(text, left.end - offset, role.start):
        holder = left.entity_id
    if holder is None or holder == target.entity_id:
        return []
    return [_relation(chunk, text, role.relation, holder, target.entity_id)]


def _possessive(
    chunk: Chunk,
    text: str,
    offset: int,
    inside: list[Mention],
    subject: str | None,
    line: RosterLine | None = None,
) -> list[Relation]:
    """Kin and service a possessive states: "Sigrun, the jarl's daughter", "Orm is Eydis's
    steward", "the Abbess's nephew Tam", "He was Grell's own orderly"; on a roster line, a
    clause of its role part ("Mickey Brennan — Lucky's kid brother; …", "…; the captain's
    son") states it of the line's subject."""
    found: list[Relation] = []
    for index, owner in enumerate(inside):
        word = _KIN_WORD.match(text, owner.end - offset)
        kin = _kin(word.group(1)) if word else None
        if word is None or kin is None:
            continue
        if word.group(0)[1:2].casefold() != "s" and not owner.surface.endswith("s"):
            continue  # a bare apostrophe is a plural's possessive ("the Boys' "), else a quote
        after = inside[index + 1] if index + 1 < len(inside) else None
        before = inside[index - 1] if index else None
        other: str | None = None
        if after and _KIN_AFTER.fullmatch(text, word.end(), after.start - offset):
            other = after.entity_id
        elif before and _KIN_BEFORE.match(text[before.end - offset : owner.start - offset]):
            other = before.entity_id
        elif _PRONOUN.match(text) and re.match(
            r"^\w+\s+(?:is|was)\s+$", text[: owner.start - offset]
        ):
            other = subject
        elif line is not None and opens_clause(text, line, owner.start - offset):
            other = line.subject
        if other is None or other == owner.entity_id:
            continue
        relation, other_first = kin
        ends = (other, owner.entity_id) if other_first else (owner.entity_id, other)
        found.append(_relation(chunk, text, relation, *ends))
    return found


_PRONOUN_KIN = re.compile(
    r"\b(her|his)\s+(?:" + _KIN_MODIFIERS + r"\s+)*" + _KIN_NOUN + r"\s*,?\s*$", re.IGNORECASE
)
_LISTED_KIN = re.compile(
    r"(her|his)\s+(?:" + _KIN_MODIFIERS + r"\s+)*" + _KIN_NOUN + r"\b", re.IGNORECASE
)
_PAID_BY = re.compile(r"['’]s?\s+(?:payroll|pay|books)\b")
_ON = re.compile(r"\b(?:on|in)\s+(?:the\s+)?$")
_APPOSED = re.compile(r"\s*,\s*|\s+(?:is|was|became)\s+")


def _listed_kin(
    chunk: Chunk,
    text: str,
    line: RosterLine,
    listed: str | None,
    people: Antecedents | None,
) -> list[Relation]:
    """ "Evie Pell — his daughter": a clause of a roster line's role part that opens with
    "his"/"her" and a kin or service noun states it between the line's subject and the
    previous roster line's (unless the prose says that one is of the other gender)."""
    found: list[Relation] = []
    if listed is None or listed == line.subject:
        return found
    for match in _LISTED_KIN.finditer(text, line.role_start):
        kin = _kin(match.group(2))
        gender = pronoun_gender(match.group(1))
        if kin is None or gender is None or not opens_clause(text, line, match.start()):
            continue
        known = people.genders.get(listed, set()) if people is not None else set()
        if known and gender not in known:
            continue
        relation, other_first = kin
        ends = (line.subject, listed) if other_first else (listed, line.subject)
        found.append(_relation(chunk, text, relation, *ends))
    return found


_HER_OR_HIS = re.compile(r"\b(?:her|his)\b", re.IGNORECASE)
_KIN_REACH = 60  # characters before a name that "her only son, " may take


def _pronoun_kin(
    chunk: Chunk, text: str, offset: int, inside: list[Mention], people: Antecedents
) -> list[Relation]:
    """Kin and service stated through a possessive pronoun: "Hild Varr keeps the mill. Her
    son Tam carts the flour" → ``hild parent_of tam``, when the pronoun's person is
    unambiguous (:meth:`extraction.prose_kin.Antecedents.owner`)."""
    found: list[Relation] = []
    if not _HER_OR_HIS.search(text):
        return found
    for target in inside:
        window = max(0, target.start - offset - _KIN_REACH)
        match = _PRONOUN_KIN.search(text, window, target.start - offset)
        kin = _kin(match.group(2)) if match else None
        gender = pronoun_gender(match.group(1)) if match else None
        if match is None or kin is None or gender is None:
            continue
        owner = people.owner(gender, inside, offset + match.start(), target.entity_id)
        if owner is None:
            continue
        people.brought_in(target.entity_id, owner)
        relation, other_first = kin
        ends = (target.entity_id, owner) if other_first else (owner, target.entity_id)
        found.append(_relation(chunk, text, relation, *ends))
    return found


_AND = re.compile(r"\s+and\s+")
_WED = re.compile(
    r"\s+(?:were|are|got|had\s+been|have\s+been)\s+(?:(?:quietly|secretly|finally|soon)\s+)?"
    r"(?:married|wed)\b(?!\s+to\b)"
)


def _couples(chunk: Chunk, text: str, offset: int, inside: list[Mention]) -> list[Relation]:
    """ "X and Y were married" → ``X married_to Y`` (two names joined by "and" right before
    it; "X and Y were married to ..." states something else)."""
    found: list[Relation] = []
    for one, two in itertools.pairwise(inside):
        joined = _AND.fullmatch(text, one.end - offset, two.start - offset)
        if joined and _WED.match(text, two.end - offset) and one.entity_id != two.entity_id:
            found.append(_relation(chunk, text, "married_to", one.entity_id, two.entity_id))
    return found


def _events(
    chunk: Chunk, text: str, offset: int, inside: list[Mention], subject: str | None
) -> list[Relation]:
    """Acts against someone: "Orm poisoned Eydis", "Hadra Mun sent Old Mahz into the
    cistern" → the actor ``hostile_to`` them (hedged wording states nothing)."""
    found: list[Relation] = []
    for index, target in enumerate(inside):
        before = text[: target.start - offset]
        left = inside[index - 1] if index else None
        match = HOSTILE_EVENTS.pattern.search(before)
        sent = _SENT.search(before)
        if sent and _SENT_AWAY.match(text, target.end - offset):
            match = sent
        elif match is None:
            continue
        source = _actor(text, offset, match.start(), left, subject)
        if source is not None and source != target.entity_id:
            found.append(_relation(chunk, text, "hostile_to", source, target.entity_id))
    return found


_ADVERBS = r"(?:(?:had|has|have|then|finally|later|also|secretly|once|soon|quickly)\s+)*"
_ACTOR_GAP = re.compile(r"^\s+" + _ADVERBS + "$")
_PRONOUN_ACTOR = re.compile(r"^(?:She|He|They)\s+" + _ADVERBS + "$")


def _actor(
    text: str, offset: int, verb_start: int, left: Mention | None, subject: str | None
) -> str | None:
    """Who does an act: the name right before the verb ("Orm poisoned"), or the previous
    subject for a pronoun right before it ("She sent ..."); else nobody ("Following Garran's
    ledger, the party ambushed ..." is not Garran's act)."""
    if left is not None and _ACTOR_GAP.match(text[left.end - offset : verb_start]):
        return left.entity_id
    return subject if _PRONOUN_ACTOR.match(text[:verb_start]) else None


_OPENING_APPOSITION = re.compile(
    r"^(?:Its|Their|His|Her)\s+(?:[\w-]+\s+){0,2}?[\w-]+,\s+(?:an?\s+(?:\w+\s+)?(?:named|called)\s+)?$"
)
"""What stands before the name that is a sentence's subject in "Its boss, a man named X, owns
…" or "Its owner, X, mixes …"."""


def _source(
    text: str, offset: int, cue_start: int, left: Mention | None, subject: str | None
) -> str | None:
    near = left is not None and left.end - offset <= cue_start
    if left is not None and near and _NEAR.match(text[left.end - offset : cue_start]):
        return left.entity_id
    if (
        left is not None
        and near
        and _OPENING_APPOSITION.match(text[: left.start - offset])
        and re.fullmatch(r"\s*,\s*", text[left.end - offset : cue_start])
    ):
        return left.entity_id
    return subject


def _co_occurring(
    chunk: Chunk, text: str, inside: list[Mention], stated: list[Relation]
) -> list[Relation]:
    if _NOT_PROSE.search(text):  # a list or labelled line, a heading: no sentence
        return []
    linked = {frozenset((r.source, r.target)) for r in stated}
    ids = sorted({m.entity_id for m in inside})
    return [
        _relation(chunk, text, "related_to", a, b, evidence="co_occurrence")
        for a, b in itertools.combinations(ids, 2)
        if frozenset((a, b)) not in linked
    ]


def _relation(
    chunk: Chunk, text: str, kind: str, source: str, target: str, evidence: str = "stated"
) -> Relation:
    return Relation(
        source=source,
        target=target,
        type=kind,
        attitude=ATTITUDE_OF_TYPE.get(kind),
        visibility=chunk.visibility,
        description=text,
        source_path=chunk.source_path,
        chunk_id=chunk.id,
        evidence="co_occurrence" if evidence == "co_occurrence" else "stated",
    )


def without_weaker(relations: Iterable[Relation]) -> list[Relation]:
    """Drop each co-occurrence link whose two ends some other relation already links."""
    relations = list(relations)
    linked = {frozenset((r.source, r.target)) for r in relations if r.evidence == "stated"}
    return [
        r
        for r in relations
        if r.evidence == "stated" or frozenset((r.source, r.target)) not in linked
    ]
