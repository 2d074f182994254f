"""Other names of a prose entity: stated ones, title forms and first names.

- stated: "Everyone calls her Old Wenna", "known as the Grey Hand", "called Redcap",
  "nicknamed Ash", "the gang know him as the Heron", "X, whom her people call the Crow
  Mother", "their nickname, the Iron Collars", "Its members, the Glaivers," — the alias of
  the sentence's subject (its first name, or the section's entity when the sentence opens
  with a pronoun);
- stated after the alias: "Old Lamp, the kids call it." (the previous sentence's subject);
- a short given name in apposition: "Rosa Whitlock, Deputy Ro, who ..." ("Ro" of Rosa);
- title forms: "Reeve Alda Brandt" gives "Reeve Alda Brandt" and, when no other entity bears
  that title, "the Reeve";
- first names: "Alda" for the NPC "Alda Brandt", when no other entity's name starts or ends
  with that word.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from extraction.nicknames import pet_form
from extraction.prose_names import NameSpan
from extraction.prose_types import INTRODUCED

_STATED = re.compile(
    r"\b(?:call(?:s|ed)?\s+(?P<person>her|him)|calls?\s+(?:it|them)|called|known\s+as|"
    r"nicknamed|also\s+named|goes\s+by|go\s+by|"
    r"knows?\s+(?:him|her|it|them)\s+(?:only\s+|simply\s+|just\s+)?as|"
    r"whom\s[^,.;]*?\bcalls?|nickname[,:]?|(?:its|their)\s+members,)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_SUMMONED = re.compile(
    r"\s+(?:in|out|up|back|over|down|away|together|forth)\b"
    r"(?!\s+(?:the|a|an|their|his|her|its|old)\b)"
)
"""After "called X": X was summoned, not named ("called the Wardens in from the yard"; not
"called Redcap in the old tongue")."""
_OBJECT_NAMED = re.compile(r"(?<![,:;]\s)(?<!\bis\s)(?<!\bwas\s)\b(?:the|a|an)\s+[a-z][\w-]*\s+$")
"""A noun before "called"/"known as" that is no apposition of the subject: "Gonzō heads the
house known as the Kawasemi-ikka" names the house, not Gonzō; "Orm, the smith known as
Redhand" and "She is the woman called Ash" name the subject."""
_CALLS_IT = re.compile(r"calls?\s+(?:it|them)\b", re.IGNORECASE)
_CALLER = re.compile(r"^\s*(?:(?:still|also|often|sometimes|now|all|only)\s+)*$")
_PRONOUN_START = re.compile(r"^\s*(?:She|He|It|They|Her|His|Its|Their|Everyone|Locals|People)\b")
OFFICES = frozenset(
    ("reeve", "lord", "lady", "captain", "king", "queen", "prince", "princess", "sheriff",
     "mayor", "magister", "archmage", "abbot", "abbess", "bishop", "general", "sergeant",
     "commander", "chief", "duke", "duchess", "baron", "baroness", "count", "countess",
     "admiral", "commodore", "colonel", "governor", "senator", "chancellor", "ambassador",
     "margrave", "earl", "emperor", "empress", "regent", "prior", "prioress", "inspector",
     "marshal", "doctor", "professor", "lieutenant", "constable", "vizier", "sultan",
     "sultana", "emir", "jarl", "thane", "harbourmaster", "forewoman", "foreman", "director",
     "chair", "chairman", "chairwoman")
)  # fmt: skip
"""Titles of an office, which "the <title>" names alone ("the Reeve"; not "the Brother")."""


@dataclass(frozen=True)
class StatedAlias:
    alias: str
    name: str
    """The alias without its title ("Wenna" for "Old Wenna")."""
    subject: str | None
    """The subject name of the sentence, or ``None`` for the section's entity (pronoun)."""
    person: bool = False
    """Stated of "him" or "her" ("Sailors call him One-Eye Crake"), or after the alias ("Old
    Lamp, the kids call it"): with no subject, the person or thing the previous sentence
    opened with."""


def stated_aliases(sentence: str, spans: Iterable[NameSpan]) -> list[StatedAlias]:
    """The aliases a sentence states, each with the name it belongs to."""
    ordered = sorted(spans, key=lambda s: s.start)
    found: list[StatedAlias] = []
    for span in ordered:
        start = _with_title(sentence, span)
        cue = _STATED.search(sentence[:start])
        if cue is None or INTRODUCED.search(sentence[:start]):
            continue  # "a man called Silas Crane" introduces a name, it is no one's alias
        if cue.group(0).lower().startswith("call") and _SUMMONED.match(sentence, span.end):
            continue  # "called the Dyke Wardens in from the yard" summons them
        if _OBJECT_NAMED.search(sentence, 0, cue.start()):
            continue  # "heads the house known as the Kawasemi-ikka" names the house
        alias = sentence[start : span.end]
        person = cue.group("person") is not None
        before = next((s for s in reversed(ordered) if s.end <= start), None)
        subject = before.name if before else None
        active = person or _CALLS_IT.match(cue.group(0)) is not None
        if active and before and _CALLER.match(sentence[before.end : cue.start()]):
            subject = None  # "Sailors call him X", "Pryce calls it X": not the caller's name
        if subject is None and not person and not _PRONOUN_START.match(sentence):
            continue
        found.append(StatedAlias(alias, span.name, subject, person))
    return found + _postposed(sentence, ordered) + _short_appositions(sentence, ordered)


_LEGEND = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?P<key>(?:the[ \t]+)?[A-Z][\w'’.-]*(?:[ \t]+[A-Z][\w'’-]*)?)"
    r"[ \t]+=[ \t]+(?:the[ \t]+)?(?=[A-Z])",
    re.IGNORECASE,
)


def legend_alias(sentence: str, spans: Iterable[NameSpan]) -> tuple[str, str] | None:
    """The (alias, name) of a key's line, a short form set equal to the name it stands for
    ("LR = Little Red.", "UC = Uncle Chau.", "the Blues = CivEn, Glasshive Civic
    Enforcement."): the name is the first one after the sign. A status set so ("CARAS =
    ALLIED") names nothing the prose keeps, and so gives no alias."""
    match = _LEGEND.match(sentence)
    if match is None or not match.group("key")[:1].isalpha():
        return None
    after = next((s for s in spans if s.start >= match.end()), None)
    if after is None or _with_title(sentence, after) != match.end():
        return None
    key = match.group("key").strip()
    if len(key) < 2 or key.casefold() == after.name.casefold():
        return None  # "B = Bico": a lone letter is no name to ask by
    return key, after.name


_CALLED_AFTER = re.compile(
    r",\s+(?:[a-z]+\s+){0,3}?call(?:s|ed)?\s+(?:it|him|her|them)(?:\s+that)?\s*[.!;]?\s*$"
)
"""After a name that opens the sentence: "Old Lamp, the kids call it." names what the
previous sentence was about."""


def _postposed(sentence: str, ordered: list[NameSpan]) -> list[StatedAlias]:
    """The alias a sentence opens with and then says is what someone calls the thing the
    previous sentence opened with ("The wisp drifts on the rim. Old Lamp, the kids call it.")."""
    if not ordered:
        return []
    span = ordered[0]
    start = _with_title(sentence, span)
    if sentence[:start].strip(" \t*_\"'“‘") or not _CALLED_AFTER.match(sentence, span.end):
        return []
    return [StatedAlias(sentence[start : span.end], span.name, None, person=True)]


def _short_appositions(sentence: str, ordered: list[NameSpan]) -> list[StatedAlias]:
    """A short form of a person's given name set off by commas right after the full name:
    "Rosa Whitlock, Deputy Ro, who grew up ..." ("Ro" clips Rosa), "Agatha Pruitt, Aggie,
    is ..." ("Aggie" stands for Agatha). Another name there is another thing ("Rosa
    Whitlock, Deputy Ames, and ...")."""
    found: list[StatedAlias] = []
    for full, short in itertools.pairwise(ordered):
        start = _with_title(sentence, short)
        given = full.name.split()[0]
        words = short.name.split()
        if len(full.name.split()) < 2 or len(words) != 1 or start < full.end:
            continue
        if sentence[full.end : start] != ", " or not sentence.startswith(",", short.end):
            continue
        word = words[0]
        clipped = 2 <= len(word) < len(given) and given.casefold().startswith(word.casefold())
        if clipped or pet_form(word, given):
            found.append(StatedAlias(sentence[start : short.end], short.name, full.name))
    return found


def _with_title(sentence: str, span: NameSpan) -> int:
    if not span.title:
        return span.start
    at = sentence.rfind(span.title, 0, span.start)
    return at if at >= 0 else span.start


def title_aliases(name: str, titles: Iterable[str], title_users: Mapping[str, int]) -> list[str]:
    """The title forms of ``name``: "Reeve Alda Brandt", and "the Reeve" when unambiguous."""
    aliases: list[str] = []
    for title in titles:
        aliases.append(f"{title} {name}")
        word = title.split()[-1]
        if word.casefold() in OFFICES and title_users.get(title.casefold()) == 1:
            aliases.append(f"the {title}")
    return aliases


def name_ends(names: Iterable[str]) -> dict[str, int]:
    """How many distinct names of two words or more open or end with each (casefolded) word."""
    ends: dict[str, int] = {}
    for name in set(names):
        parts = name.casefold().split()
        for word in {parts[0], parts[-1]} if len(parts) > 1 else ():
            ends[word] = ends.get(word, 0) + 1
    return ends


def first_name(
    name: str, names: Iterable[str], ends: Mapping[str, int] | None = None
) -> str | None:
    """The first word of a person's name when no other name shares it as first or last word
    (``ends``: :func:`name_ends` of ``names``, which hold ``name``, computed once by a caller
    that asks for many)."""
    words = name.split()
    if len(words) < 2 or len(words[0]) < 3:
        return None
    if ends is None:
        names = set(names)
        ends = name_ends(names | {name})
    return None if ends.get(words[0].casefold(), 0) > 1 else words[0]


_UPPER = "A-ZÀ-ÖØ-Þ"
_LOWER = "a-zß-öø-ÿ"
_DOSSIER = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]+)?(?:[-*+][ \t]+)?(?:\d+[.)][ \t]+)?(?:\*\*|__)?"
    r"(?:[^\s,:—–*]+(?:[ \t]+[^\s,:—–*]+)?(?::(?:\*\*|__)?[ \t]*|[ \t]+[—–][ \t]+))?"
    rf"(?P<surname>[{_UPPER}][{_UPPER}'’-]+),[ \t]+"
    rf"(?P<given>[{_UPPER}][{_LOWER}'’-]+(?:[ \t]+[{_UPPER}][{_LOWER}'’-]+){{0,2}})"
    r"(?:\*\*|__)?(?P<after>(?:[ \t]*[—–(;:,]|[ \t]+-[ \t]|[ \t]*$).*)$"
)
"""A file card's or index's inverted name opening a line: "VORONIN, Arkady Semyonovich —
crypt. CARDINAL", "### 6. KERTÉSZ, László — Major", "Contact — POKORNY, Anton", "Wife: KRANZ,
Agnes, co-owner": the surname in capitals, the given name (and a middle name or patronymic)
after a comma."""
_NOT_GIVEN = frozenset(
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
     "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december", "the", "and", "but", "or", "see", "note", "notes", "part")
)  # fmt: skip
_ALIAS_CUE = (
    r"(?:crypt(?:onym)?\.?|code[- ]?name[d:]?|a\.k\.a\.?|aka|alias|cover[- ]name|known\s+as)"
)
_CUED = re.compile(
    rf"\b{_ALIAS_CUE}[ \t]*:?[ \t]*(?:\([^)]*\)[ \t]*)?[\"“]?"
    rf"(?P<alias>[{_UPPER}][\w'’-]*(?:[ \t]+[{_UPPER}][\w'’-]*){{0,2}})",
    re.IGNORECASE,
)
"""An alias after its cue: "crypt. CARDINAL", "crypt. (ours) MOTH", "codename Heron", "a.k.a.
the Fox" is read by :data:`_QUOTED_ALIAS` or a bracket."""
_QUOTED_ALIAS = re.compile(r"[\"“](?P<alias>(?:the\s+)?[A-ZÀ-ÖØ-Þ][^\"”\n]{0,30}?)[\"”]")


@dataclass(frozen=True)
class FileCard:
    """A person named the way a file card or index names them (:data:`_DOSSIER`)."""

    name: str
    """"Given Surname": "Arkady Voronin" of "VORONIN, Arkady Semyonovich"."""
    forms: tuple[str, ...]
    """Their other full forms: "Arkady Semyonovich Voronin", "Arkady Semyonovich"."""
    aliases: tuple[str, ...]
    """What the card says they are also called: "CARDINAL" after "crypt.", a quoted
    nickname ("the Colonel")."""


def file_card(line: str) -> FileCard | None:
    """The person a line of a dossier names in the inverted "SURNAME, Given [Middle]" form,
    with the aliases it gives after a cue ("crypt.", "codename", "a.k.a.", "alias", "cover
    name", "known as") or in quotes. None for a surname with no vowel (an initialism: "KGB,
    Moscow"), a given "name" that is a weekday or month ("LONDON, Tuesday")."""
    match = _DOSSIER.match(line)
    if match is None:
        return None
    surname = match.group("surname").strip("'’-")
    given = match.group("given").split()
    if len(surname) < 2 or not re.search(r"[AEIOUYÀ-ÖØ-Þ]", surname):
        return None
    if any(word.casefold() in _NOT_GIVEN for word in given) or len(given[0]) < 2:
        return None
    written = "-".join(part.capitalize() for part in surname.split("-"))
    written = re.sub(r"(?<=['’])(\w)", lambda m: m.group(1).upper(), written)  # "O'Brien"
    name = f"{given[0]} {written}"
    forms = (f"{' '.join(given)} {written}", " ".join(given)) if len(given) > 1 else ()
    after = match.group("after")
    aliases = [m.group("alias") for m in _CUED.finditer(after)]
    aliases += [m.group("alias") for m in _QUOTED_ALIAS.finditer(after)]
    return FileCard(name, forms, tuple(dict.fromkeys(a.strip() for a in aliases)))


_BRACKET = re.compile(r"(?:\*\*|__|~~)*[ \t]*\((?P<inner>[^()\n]*)(?:\)|$)")
_CODENAME = re.compile(rf"[{_UPPER}]{{4,}}")
"""A codename in capitals ("CARDINAL", "HERON"): four letters at least, never an initialism
such as "CIA"."""
_ADDRESSED = re.compile(
    rf"(?:Herr|Frau|Fräulein|Mr|Mrs|Ms|Miss|Monsieur|Madame|Signor|Signora|Señor|Señora)\.?"
    rf"[ \t]+[{_UPPER}][{_LOWER}'’-]+"
)
_THE_NAME = re.compile(rf"the[ \t]+[{_UPPER}][\w'’-]*(?:[ \t]+[{_UPPER}][\w'’-]*){{0,2}}")
_QUOTE_OPENS = re.compile(rf"[\"“‘'](?P<alias>[{_UPPER}][^\"”’'\n]{{0,30}}?)[\"”’']")


_CUT_SHORT = re.compile(rf"[{_UPPER}][\w'’-]*[ \t]+(?:of|for|and|&|de|of[ \t]+the)[ \t]+$")


@dataclass(frozen=True)
class BracketAlias:
    """An alias written in brackets beside a name: ``owner`` is the name it belongs to."""

    alias: str
    owner: str
    codename: bool = False
    """A codename in capitals ("CARDINAL"), which the prose never writes in lower case."""
    handle: bool = False
    """A handle beside the full name it stands for ("Zed (ZeroSum, Emeka Nwosu)"): the owner
    must be a person."""
    beside: bool = False
    """A handle that is one of the bracket's items ("ZeroSum" there), not the name before it:
    it may be another thing the person is named with ("Nightglass", her outfit)."""


def bracket_aliases(sentence: str, spans: Iterable[NameSpan]) -> list[BracketAlias]:
    """The aliases a sentence gives in brackets right after a person's full name: a codename
    in capitals ("Miles Ashcombe (HERON; ...)"), a quoted nickname opening an item ('Anton
    Pokorny ("Toni", "Herr Doktor")', '(... "Laci" to Sokolova)'), an epithet ("Gustl Wendl
    (the Sewer Rat)"), a form of address ("Otto Kranz (Herr Ober)"), a pet form of the given
    name ("Kazimierz Wróbel (the Pole, Kazik)"), an alias after its cue ("(codename
    CARDINAL)"); and the name in brackets after a codename ("HERON (Ashcombe)": the codename
    is Ashcombe's). An item that is anything else ("(b. 1926)", "(Langley)") says nothing."""
    found: list[BracketAlias] = []
    for span in spans:
        bracket = _BRACKET.match(sentence, span.end)
        if bracket is None:
            continue
        inner = bracket.group("inner").strip()
        words = span.name.split()
        handles = _handles(span.name, inner)
        if handles:
            found += handles
            continue
        if len(words) == 1 and _CODENAME.fullmatch(span.name):
            if re.fullmatch(rf"[{_UPPER}][{_LOWER}'’-]+", inner):
                found.append(BracketAlias(span.name, inner, codename=True))
            continue
        if len(words) < 2 or span.name.isupper() or _CUT_SHORT.search(sentence, 0, span.start):
            continue  # "East German Ministry for State Security (the Stasi)": a name cut short
        for item in (i.strip() for i in re.split(r"[;,]", inner)):
            found += [BracketAlias(a, span.name, c) for a, c in _item_aliases(item, words[0])]
    return found


_NAME_WORD = rf"[{_UPPER}][{_LOWER}'’]+(?:-[{_UPPER}{_LOWER}][{_LOWER}'’]+)?"
_FULL_NAME = re.compile(rf"{_NAME_WORD}(?:[ \t]+{_NAME_WORD}){{1,2}}(?<!['’]s)")
"""A person's full name in plain words: "Emeka Nwosu", "Marisol Vega-Chan", "Chau Kin-fai"."""
_ONE_WORD = re.compile(rf"[{_UPPER}][\w'’-]+")
_CAMEL = re.compile(rf"[{_UPPER}][{_LOWER}]+(?:[{_UPPER}][{_LOWER}]*)+|[{_UPPER}][\w-]*\d[\w-]*")
"""A handle written as one word with a capital inside or a digit ("ZeroSum", "NightOwl",
"Cipher9"): never a common word."""


def handle_shaped(name: str) -> bool:
    """Whether ``name`` is written as a handle or codename is: "ZeroSum", "Cipher9", "WIDOW-3",
    "CARDINAL" (:data:`_CAMEL`, :data:`_CODENAME`)."""
    return _CAMEL.fullmatch(name) is not None or _CODENAME.fullmatch(name) is not None


def _handle_item(item: str) -> bool:
    """A bracket's item that may be another name of the person: one word ("ZeroSum"), a form
    of address ("Ms. Gray") or an epithet with "the" ("the Suit")."""
    return any(p.fullmatch(item) for p in (_ONE_WORD, _ADDRESSED, _THE_NAME))


def _handles(name: str, inner: str) -> list[BracketAlias]:
    """A one-word name (a handle, a nickname) with the one full name it stands for in the
    brackets after it, and the other one-word names there: "Zed (ZeroSum, Emeka Nwosu)" gives
    "Zed" and "ZeroSum" to Emeka Nwosu, "Sol (Marisol Vega-Chan)" "Sol" to Marisol Vega-Chan,
    "The Widow (Ilse Varga, WIDOW-3, Ms. Gray)" "Widow", "WIDOW-3" and "Ms. Gray" to Ilse Varga,
    "Mr. Blue (Abiodun Falana, the Suit)" "Blue" and "the Suit" to Abiodun Falana
    (a one-word name there may be another thing's, "The Widow (Ilse Varga, Nightglass)":
    :func:`~extraction.prose_merges.merge_named_aliases` weighs it). None when the brackets hold
    no full name or two ("Saint (Naja, scorched)"), or the name is more than one word."""
    items = [i.strip(" \t*_") for i in re.split(r"[;,]", inner)]
    fulls = [i for i in items if _FULL_NAME.fullmatch(i)]
    if " " in name or len(fulls) != 1 or fulls[0].split()[0] == name:
        return []
    singles = [i for i in items if i != name and _handle_item(i)]
    return [
        BracketAlias(name, fulls[0], handle=True),
        *(BracketAlias(single, fulls[0], handle=True, beside=True) for single in singles),
    ]


def _item_aliases(item: str, given: str) -> list[tuple[str, bool]]:
    quoted = _QUOTE_OPENS.match(item)
    if quoted:
        return [(quoted.group("alias"), False)]
    if _CODENAME.fullmatch(item):
        return [(item, True)]
    if _CAMEL.fullmatch(item):
        return [(item, False)]  # "Emeka Nwosu (ZeroSum)": a handle
    cued = _CUED.match(item)
    if cued and cued.end() == len(item):
        alias = cued.group("alias")
        return [(alias, _CODENAME.fullmatch(alias) is not None)]
    if _THE_NAME.fullmatch(item) or _ADDRESSED.fullmatch(item):
        return [(item, False)]
    if re.fullmatch(rf"[{_UPPER}][{_LOWER}'’-]+", item) and pet_form(item, given):
        return [(item, False)]
    return []
