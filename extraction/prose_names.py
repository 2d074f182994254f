"""Proper names in prose: runs of capitalised words, and the thing a heading names.

A name is a run of capitalised words ("Slow River", "Millers' Compact"), joined by ``of``,
``of the`` or one or two surname particles (``de``, ``van der``) when a capitalised word
follows ("Order of the Ember", "Pieter van der Meer"); a surname may open with its particles
("P. van der Meer"), and a saint's "St." parts no name ("St. Brendan's Mission"). A leading
title ("Reeve Alda Brandt", "Old Wenna") is kept apart as ``title``; a trailing possessive
``'s`` is dropped. The first word of a sentence counts only when it is not a common word (one
the text also writes in lower case, or a function word such as "After").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from extraction.markdown import is_gm_heading
from extraction.prose_types import noun_type

_WORD = re.compile(r"[^\W\d_][\w]*(?:-[^\W\d_][\w]*)*(?:['’][\w]+|(?<=s)['’](?!\w))?")
"""A word: hyphenated parts are one word ("Soo-jin", "Two-Gun", "half-elf")."""
_SENTENCE_END = re.compile(r"[.!?;:]['\")\]*_]*\s|\n|^\s*[-*#>]+\s", re.MULTILINE)


def _words(*lines: str) -> frozenset[str]:
    return frozenset(" ".join(lines).split())


_CONNECTORS = ("of", "of the", "no", "ibn", "bin", "bint", "ben", "bat")
"""Lower-case words that join two capitalised ones into one name: "Hall of the Dead", the
Japanese particle in "Kawasemi no Gonzō" (Gonzō of the Kawasemi), and the "son of" or
"daughter of" of an Arabic or Hebrew name ("Sahl ibn Natan", "Maryam bint Wahb", "Natan ben
Levi"), which open nothing in lower case ("threw it in the bin"); so does a run of
:data:`SURNAME_PARTICLES` ("Pierre de Vaux", "Pieter van der Meer")."""
_ARABIC_ARTICLE = re.compile(r"al-[^\W\d_]|(?:[Aa][lnrstdz]|[Aa]sh|[Ee]l|l)-[A-Z]")
"""The article of an Arabic name, prefixed to its word ("al-Muhallabi", "Abu l-Hasan") or
written as the sun letter assimilates it ("ad-Din", "an-Nasir", "ash-Shafi'i", "az-Zahir");
a capital follows it but after "al-" ("ad-hoc", "at-home" are English)."""
ARABIC_HEADS = _words("abu umm ibn banu bab dar bayt abd")
"""Words that open an Arabic name and are no name alone: a kunya ("Abu Hurayra", "Umm
Habiba"), a son or a clan ("Ibn Natan", "Banu Qustanta"), a servant ("Abd al-Wahid"), a gate
or a house ("Bab al-Sha'ir", "Dar al-Rum", "Bayt al-Hikma")."""
_ARABIC_OPENERS = frozenset(word.capitalize() for word in ARABIC_HEADS)
SURNAME_PARTICLES = _words("van von der den de du la le da di dos das del della ter zu")
"""Lower-case particles of a surname ("de Vaux", "van der Meer", "von und zu" aside): one or
two of them join the given name to the rest ("Pieter van der Meer", "Maria de la Cruz"), and
open a surname written without one ("P. van der Meer", "the house of van der Meer"). Not
"ten" ("paid Tench ten Spanish dollars"), though "Corrie ten Boom" holds it."""
_MOST_PARTICLES = 2
TITLES = _words(
    "reeve lord lady captain sir dame king queen prince princess brother sister mother father ",
    "master mistress old young elder high saint duke duchess baron baroness count countess ",
    "sheriff mayor magister archmage abbot abbess bishop general sergeant commander chief ",
    "grandmother grandfather granny widow uncle aunt auntie doctor professor ",
    "admiral commodore lieutenant colonel corporal ensign inspector detective constable deputy ",
    "marshal agent officer senator governor chancellor ambassador reverend pastor vicar parson ",
    "rabbi prior prioress friar margrave earl emperor empress regent mr mrs ms miss mister ",
    "madam madame dr vizier sultan sultana emir jarl thane harbourmaster forewoman foreman st ",
    "director hon doc rev prof messrs major private comrade ",
    "insp cmdr sgt lt capt col cpl det supt vp chair chairman chairwoman ",
    "superintendent commissioner prefect magistrate matron warden chaplain curate boss ",
    "senior martial",
)
TITLE_MODIFIERS = _words("sect grand head")
"""Words that make a title of the title after them ("Sect Master Meng", "Grand Master Ou",
"Head Constable Fang"), and alone are none ("the Sect", "the Grand Imperial")."""
PERSON_TITLES = _words(
    "doctor professor admiral commodore lieutenant colonel corporal ensign sergeant inspector ",
    "detective constable deputy sheriff agent senator governor chancellor ambassador reverend ",
    "pastor vicar parson rabbi mr mrs ms miss mister madam madame dr hon doc rev prof messrs",
)
"""Titles only a person bears: kept apart even before a word that names things ("Professor
Eliza Marsh" is a person, "Old Quarry" a place)."""
ABBREVIATED_TITLES = _words(
    "mr mrs ms dr hon rev prof messrs insp cmdr sgt lt capt col cpl det supt"
)
"""Titles written with a full stop ("Dr. Quill", "Hon. A. Sugden", "Cmdr. Ilse Varga", "Insp.
Pessoa"): the stop ends no sentence and does not part the title from the name it goes before;
alone ("Cmdr", "VP") they name a rank, no one."""
_INVERTING = frozenset(("of", "the", "de", "del", "la", "di", "della", "du", "des"))
_MOST_JOINTS = 2


def inverted_name(name: str) -> str | None:
    """A name written "<head> of <tail>" (or with "de", "del", "di", "du") turned round, as
    English or another tongue may write it: "Mesa del Cuervo" → "Cuervo Mesa", "Isle of
    Skerra" → "Skerra Isle"; ``None`` when it holds no such joint."""
    words = name.split()
    if words and words[0].casefold() == "the":
        words = words[1:]
    joints = [at for at, word in enumerate(words) if word in _INVERTING]
    if not joints or joints[0] == 0:
        return None
    at, end = joints[0], joints[-1] + 1
    if len(joints) != end - at or len(joints) > _MOST_JOINTS or end >= len(words):
        return None
    return " ".join([*words[end:], *words[:at]])


_SAINT = "St"
_WORD_BEFORE = re.compile(r"([^\W\d_][\w'’-]*)[*_]*\s+$")


def saint_stop(text: str, end: int) -> bool:
    """Whether the full stop at ``text[end]`` shortens a saint's "St" before a capitalised
    word ("at St. Brendan's Mission", "| St. Eustatius |", "Under St. Brendan's is ..."): the
    stop ends no sentence. A street's "St." after its capitalised name may end one ("lives
    on Cable St. The next day ...")."""
    start = end - len(_SAINT)
    if start < 0 or text[start:end] != _SAINT or (start and text[start - 1].isalnum()):
        return False
    if not re.match(r"\. [*_]*[A-Z]", text[end : end + 4]):
        return False
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    return (
        before is None
        or not _capital(before.group(1))
        or before.group(1).lower() in (FUNCTION_WORDS)
    )


HONORIFICS = _words(
    "esq esquire padre señor señora señorita senor senora doña dona monsieur herr ",
    "frau signor signora sahib superintendent acting interim vice assistant",
)
"""Forms of address and office words that, with :data:`TITLES`, name no one alone: "Esq",
"the Padre", "the Señora", "the Superintendent", "Acting Marshal". A name made of nothing
else is a role, given to whoever holds it; a name list (or a fold into the one holder) may
still make it someone's alias."""
DEMONYMS = _words(
    "american british english french german dutch spanish italian portuguese russian polish ",
    "irish scottish scots welsh swedish norwegian danish greek turkish arab arabic persian ",
    "indian chinese japanese korean mexican canadian african european asian latin hebrew ",
    "yiddish gaelic norse roman egyptian cherokee apache navajo sioux comanche hispanic ",
    "creole cajun swiss austrian hungarian czech territorial federal confederate colonial ",
    "soviet viennese georgian ukrainian romanian bulgarian serbian croatian slovak slovakian ",
    "slovenian slovene bosnian albanian macedonian montenegrin yugoslav yugoslavian ",
    "czechoslovak bohemian moravian silesian prussian bavarian tyrolean flemish walloon ",
    "finnish belgian icelandic estonian latvian lithuanian belarusian moldovan armenian ",
    "azerbaijani kurdish catalan basque castilian andalusian breton corsican sicilian ",
    "venetian neapolitan tuscan cuban australian brazilian argentine argentinian chilean ",
    "peruvian colombian venezuelan bolivian uruguayan paraguayan jamaican haitian ",
    "filipino vietnamese thai burmese cambodian laotian indonesian malaysian tibetan ",
    "mongolian nepalese pakistani afghan iranian iraqi syrian lebanese jordanian saudi ",
    "yemeni palestinian israeli moroccan algerian tunisian libyan sudanese ethiopian somali ",
    "kenyan nigerian ghanaian congolese kazakh uzbek chechen taiwanese bengali punjabi ",
    "tamil hindi urdu swahili mandarin cantonese sanskrit",
)
"""Nationality, language and demonym adjectives ("a Mexican saddle", "speaks Latin", "the
Territorial court"): never a name alone, though one may open a longer name ("German Club",
"Spanish Main")."""
DEMONYM_PLURALS = _words(
    "turks poles swedes danes finns brits yanks spaniards frenchmen englishmen dutchmen ",
    "scotsmen irishmen welshmen",
)
"""Peoples named in the plural by a word other than their adjective plus "s"."""


def demonym_plural(name: str) -> bool:
    """Whether ``name`` is a people in the plural ("the Hungarians", "the Russians'", "two
    Czechs", "the Swedes"): a people, never someone's name (a nickname is one person)."""
    folded = name.casefold().rstrip("'’")
    if folded in DEMONYM_PLURALS:
        return True
    return folded.endswith("s") and folded[:-1] in DEMONYMS


FUNCTION_WORDS = _words(
    "a an the this that these those there here then when while after before during since ",
    "until if but and or so yet as at by for from in into of on onto to with without ",
    "he she it its they them their his her we us our you your i me my everyone someone ",
    "nobody everybody one some many most all each every no not later now once later today ",
    "tonight yesterday tomorrow meanwhile finally first next last soon also still however ",
    "although though because what who whom whose which where why how ",
    "inside outside above below beneath behind beyond across along around through back ",
    "down up over under near far again instead together even only just never always",
)
_CONTRACTED = _words("i you he she it we they who what where there here that let")
"""Words a contraction joins to ("I'm", "we're", "they'd", "let's"): never part of a name."""
_CONTRACTIONS = frozenset(("m", "d", "ve", "ll", "re", "s"))
CALENDAR_WORDS = _words(
    "monday tuesday wednesday thursday friday saturday sunday january february march april ",
    "may june july august september october november december",
)
"""Weekday and month names: never a name alone ("on Friday"), though one may open or end a
longer name ("Black Friday Raid", "Lady Day")."""
CALENDAR_SHORT = _words(
    "mon tue tues wed weds thu thur thurs fri sat feb apr aug sep sept oct nov dec",
)
"""Weekday and month abbreviations ("[Thu 11:52 PM]", "Fri night", "Oct 3"): never a name
alone. "Jan", "Jun", "Mar" and "Sun" are given names or words too: see :data:`CALENDAR_DATED`."""
CALENDAR_DATED = _words("jan jun mar sun")
"""Abbreviations that are a weekday or month only beside a number ("Sun 9 PM", "Jan 5")."""
CLOCK_WORDS = _words("am pm")
"""The halves of a clock's day ("11:52 PM"): never a name alone."""
REDACTION_MARKERS = _words(
    "redacted classified censored expunged deleted withheld illegible omitted removed ",
    "confidential unreadable",
)
"""Words a document in capitals writes in place of what it hides ("REDACTED", "EXPUNGED"):
a marker, never a name."""
_BRACKETED = re.compile(r"\[[*_]*$")
_BRACKET_CLOSE = re.compile(r"[*_]*\]")


def redaction_marker(text: str, start: int, end: int) -> bool:
    """Whether the word at ``text[start:end]`` marks something hidden or cut: a word in
    capitals alone in square brackets ("[REDACTED]", "[CLASSIFIED]", "[ILLEGIBLE]"), or one of
    :data:`REDACTION_MARKERS` in capitals anywhere ("the name is REDACTED")."""
    word = text[start:end]
    if len(word) < 2 or not word.isupper():
        return False
    if word.casefold() in REDACTION_MARKERS:
        return True
    return (
        _BRACKETED.search(text, max(0, start - 3), start) is not None
        and _BRACKET_CLOSE.match(text, end) is not None
    )


GM_HANDLES = _words("gm dm keeper narrator storyteller referee mc")
"""What a table calls its game master as a speaker in a chat log ("[9:02 PM] Keeper: ...")."""
TABLE_ROLES = _words("pc pcs npc npcs gm gms dm dms")
"""The roles at the table ("the PCs", "an NPC", "GM"): never a thing of the campaign ("PCs"
in a GM's notes is the party, :data:`extraction.resolution.PARTY_NAMES`)."""
FOREIGN_PRONOUNS = _words("ich wir je nous vous yo nosotros ik wij")
"""Pronouns of other tongues that open a quoted phrase ("*Ich bin Tourist.*", "*Je ne sais
pas*"): never a name."""
TABLE_WORDS = _words("recap recaps write-up writeup playtest one-shot")
"""Words of the table's own business ("*(Recap written by ...)*"): never a thing of the
campaign alone."""
COMMON_ACRONYMS = _words(
    "ai eva hq id ids ok tv eta ceo cfo gps hud emp ftl dna rna ufo ufos vip vips asap aka ",
    "fyi diy cpr icu iv er rv atv mri xp hp ac rpg ooc ic irl lol btw",
)
"""Acronyms of everyday or technical speech ("the station AI", "went out by EVA", "back to HQ",
"an ETA"): never a thing of the campaign alone, though a longer name may hold one ("AI Core 3")."""
GENERIC_HEADINGS = _words(
    "overview history background introduction notes rumours rumors summary contents appendix ",
    "geography people places factions items creatures events quests hooks adventure hooks ",
    "gazetteer lore bestiary religion timeline recap session outcome aftermath ",
    "npcs locations loot treasure encounters secrets gm notes dm notes ",
    "case file files log logs journal diary report reports briefing debrief handout handouts ",
    "clues investigation scene scenes episode mission keeper's keeper referee ",
    "hook rumour rumor secret clue note countdown countdowns clocks threats concept premise ",
    "pitch synopsis preface foreword afterword totals",
)
LABEL_WORDS = _words(
    "concept premise pitch synopsis logline hook hooks countdown threats stakes twist tone ",
    "theme themes setup recording transcript margin",
)
"""Words a game master's prep writes as a label opening a line ("**Concept:** ...",
"Hook — ...", "Concept, threats, countdown."), a transcript's header ("Recording: ON.",
"Transcript: ...") or a transcribed document's margin note ("*Margin: the abbot has it*"):
common words, never a name where a sentence opens with one."""


def contraction(word: str) -> bool:
    """Whether ``word`` is a pronoun contraction ("I'm", "We're", "They'll", "Let's"), which
    is capitalised only as "I" is or as the first word of a sentence, never as a name."""
    base, apostrophe, tail = word.casefold().replace("’", "'").partition("'")
    return bool(apostrophe) and base in _CONTRACTED and tail in _CONTRACTIONS


DISCOURSE_MARKERS = _words(
    "besides anyway anyhow otherwise nevertheless nonetheless therefore thus hence likewise ",
    "afterwards afterward moreover furthermore regardless elsewhere overall incidentally ",
    "alternatively also again later earlier first second third lastly next then",
)
"""Sentence adverbs that open a note or a sentence before a comma or colon ("Otherwise, ...")."""
SENTENCE_ADVERBS = _words(
    "previously recently currently suddenly eventually apparently unfortunately fortunately ",
    "luckily honestly basically obviously clearly naturally presumably hopefully surprisingly ",
    "originally initially ultimately",
)
"""Adverbs that open a sentence or a recap with no comma ("Previously on VESPER...",
"Eventually the door gives"): never a name alone where they open a sentence."""


def discourse_marker(word: str, after: str) -> bool:
    """Whether ``word``, opening a sentence and followed by ``after`` (a comma or a colon), is
    a sentence adverb, never a name: one of :data:`DISCOURSE_MARKERS` or a word of seven
    letters or more in "-ly" ("Separately:", "Luckily,", "Unfortunately,"; a short given name
    in "-ly" such as "Emily:" or "Molly," stays a name)."""
    folded = word.casefold()
    if after not in (",", ":") or not folded.isalpha():
        return False
    return folded in DISCOURSE_MARKERS or (len(folded) >= 7 and folded.endswith("ly"))


def title_only(name: str) -> bool:
    """Whether ``name`` is made of titles and forms of address alone ("Mr", "Esq", "the
    Padre", "Acting Marshal", "Señora"): it names a role, no one in particular."""
    words = [w for w in name.replace(".", " ").split() if w.casefold() not in ("of", "the")]
    return bool(words) and all(is_title(w) or w.casefold() in HONORIFICS for w in words)


def is_possessive(word: str) -> bool:
    """Whether a word is written in the possessive ("Humph's", "the Brothers'")."""
    return word.endswith(("'s", "’s", "s'", "s’"))


def is_title(word: str) -> bool:
    """Whether ``word`` is a title: one of :data:`TITLES`, or a compound whose last part is
    one ("Dyke-Reeve", "Vice-Admiral", "Harbour-Master")."""
    folded = word.casefold()
    if folded in TITLES:
        return True
    parts = folded.split("-")
    return len(parts) > 1 and all(parts) and parts[-1] in TITLES


@dataclass(frozen=True)
class NameSpan:
    """``text[start:end]`` is the name (title excluded), but for a nickname quoted inside it:
    'Michael "Mickey" Brennan' is the name "Michael Brennan" with the nickname "Mickey"."""

    start: int
    end: int
    name: str
    title: str
    sentence_start: bool
    nickname: str = ""


def common_words(texts: Iterable[str]) -> frozenset[str]:
    """Words written in lower case somewhere in ``texts``, plus the function words and the
    labels of prep notes (:data:`LABEL_WORDS`)."""
    seen = {m.group(0) for text in texts for m in _WORD.finditer(text) if m.group(0).islower()}
    return frozenset(seen | FUNCTION_WORDS | LABEL_WORDS)


def sentence_starts(text: str) -> set[int]:
    """Offsets of the first word of each sentence, line item or paragraph."""
    found: set[int] = set()
    for offset in [0, *(m.end() for m in _SENTENCE_END.finditer(text))]:
        word = _WORD.search(text, offset)
        if word is not None:
            found.add(word.start())
    return found


def name_spans(text: str, common: frozenset[str]) -> list[NameSpan]:
    """Every capitalised name in ``text``, in order."""
    capitals = _capital_lines(text)
    shouting = not any(ch.islower() for ch in text)
    words = [
        w
        for w in _WORD.finditer(text)
        if not _shouted(w.group(0), common, any(a <= w.start() < b for a, b in capitals), shouting)
        and not redaction_marker(text, w.start(), w.end())
    ]
    firsts = sentence_starts(text)
    spans: list[NameSpan] = []
    index = 0
    while index < len(words):
        run = _run(text, words, index)
        if run is None:
            index += 1
            continue
        first, last = run
        numbered = _numbered(text, words, last)
        span = _span(text, words, first, last, firsts, common, numbered)
        if span is not None:
            spans.append(span)
        index = last + 1
        while index < len(words) and words[index].start() < numbered:
            index += 1  # the "G" of "Sector 7G"
    return _quoted_nicknames(text, spans)


_OPEN_QUOTE = (' "', " “", " '", " ‘")
_CLOSE_QUOTE = ('" ', "” ", "' ", "’ ")


def _quoted_nicknames(text: str, spans: list[NameSpan]) -> list[NameSpan]:
    """Join 'Michael "Mickey" Brennan' (a one-word nickname in quotes between a given name
    and a surname) into one span named "Michael Brennan" with the nickname "Mickey"."""
    joined: list[NameSpan] = []
    at = 0
    while at < len(spans):
        first, *rest = spans[at : at + 3]
        if len(rest) == 2:
            nick, last = rest
            quoted = text[first.end : nick.start] in _OPEN_QUOTE
            quoted &= text[nick.end : last.start] in _CLOSE_QUOTE
            if quoted and " " not in nick.name and not nick.title and not last.title:
                name = f"{first.name} {last.name}"
                joined.append(
                    NameSpan(
                        first.start, last.end, name, first.title, first.sentence_start, nick.name
                    )
                )
                at += 3
                continue
        joined.append(first)
        at += 1
    return joined


SERIES_WORDS = _words(
    "session chapter part act day night week month year episode page section book volume ",
    "issue season round turn hour minute step scene table figure note appendix rule item ",
    "case file track game no number vol pg p ch",
)
"""Heads whose number counts or dates, never names a place or a thing: "Session 4", "Day 3",
"Chapter 12", "Table 2" (with the weekday and month names: "March 3")."""
_NUMBER = re.compile(r" (\d{1,4}[A-Z]?)(?=['’]s\b|[^\w:.,/'’%-]|[.,:]\s|[.,:]?$)")
_COUNTED = re.compile(r" [a-z]+s\b")
_VERB_S = _words("is was has does goes says")


def _numbered(text: str, words: list[re.Match[str]], last: int) -> int:
    """The end of a number that designates the run ending at ``words[last]`` ("Shaft 9",
    "Dock 3", "Level 22", "Sector 7G", "Route 66"; "Medbay Two", "Spoke B" are words already),
    or 0: not after a head that counts or dates ("Session 4", "Day 3", "March 3"), a clock
    time or a sum ("23:00", "3.5", "1,200", "40%"), nor a count of a plural ("gave Rhea 3
    credits")."""
    head = words[last].group(0)
    number = _NUMBER.match(text, words[last].end())
    if number is None or not _capital(head):
        return 0
    folded = head.casefold()
    if folded in SERIES_WORDS | CALENDAR_WORDS | CALENDAR_SHORT | CALENDAR_DATED | CLOCK_WORDS:
        return 0
    if folded in GENERIC_HEADINGS | FUNCTION_WORDS:
        return 0
    counted = _COUNTED.match(text, number.end())
    if counted is not None and counted.group(0).strip() not in _VERB_S:
        return 0
    return number.end()


_SAINTS = ("saint", "st")
_ARTICLE = re.compile(r"\b[Tt]he\s+[*_]*$")


def _bare(word: str) -> str:
    """``word`` in lower case without a possessive or contracted "'s" ("Countdown's")."""
    return re.sub(r"['’]s$", "", word.lower())


def _capital(word: str) -> bool:
    """Whether ``word`` is capitalised, as a name's word is: "Natan", or an Arabic name's word
    behind its article in lower case ("al-Muhallabi", "l-Hasan", "ash-Shafi'i")."""
    return word[0].isupper() or _arabic_article(word)


def _arabic_article(word: str) -> bool:
    """Whether ``word`` is an Arabic name's word behind its article, the name's word
    capitalised ("al-Warraq") or, rarely, not ("al-karkhi")."""
    return _ARABIC_ARTICLE.match(word) is not None


SHOUTED_WORDS = frozenset(
    ("stop", "notice", "wanted", "reward", "warning", "urgent", "telegram", "dead", "alive",
     "or", "for", "and", "the", "of", "to", "no", "by", "at", "in", "on", "with", "without")
)  # fmt: skip
"""The words telegrams and posters write in capitals between their names ("… VILLANUEVA
BRIMSTONE STOP …", "WANTED DEAD OR ALIVE", "NOTICE"): in capitals they are read as in lower
case, and part two runs of capitals. Other words in capitals stay capitals: a poster's
"RED JACK" is a name though "red" and "jack" are common words."""


def _shouted(word: str, common: frozenset[str], in_capitals: bool, all_capitals: bool) -> bool:
    """Whether ``word`` in capitals is read as if in lower case: a typographic word of a
    telegram or a poster (:data:`SHOUTED_WORDS`), a series word ("ACT ONE"), or, on a line
    written all in capitals (``in_capitals``: a telegram's "… COMMISSION UNDER CONSIDERATION
    STOP …"), a word the text also writes in lower case. A text all in capitals
    (``all_capitals``: "DOC IS BORROWD.") reads its pronouns and auxiliaries as lower case,
    but keeps its other common words: a poster's "RED JACK" is a name."""
    if len(word) < 2 or not word.isupper():
        return False
    bare = _bare(word)
    return (
        bare in SHOUTED_WORDS
        or bare in SERIES_WORDS
        or ((in_capitals or all_capitals) and (bare in FUNCTION_WORDS or bare in _VERB_FORMS))
        or (in_capitals and bare in common)
    )


_VERB_FORMS = frozenset(
    ("is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did",
     "will", "shall", "can", "may", "must", "he", "she", "we", "you", "they", "him", "her",
     "them", "his", "its", "our", "your", "their", "me", "my")
)  # fmt: skip
"""Pronouns and auxiliaries a long line in capitals is made of ("DOC IS BORROWD. FOLOW AND
HE DIES."): read as lower case there, so they join no name."""


_CAPITALS_LINE = re.compile(r"^[^a-z\n]*$", re.MULTILINE)


def _capital_lines(text: str) -> list[tuple[int, int]]:
    """The spans of the lines written all in capitals with more than :data:`_MOST_SHOUTED`
    words (a telegram's body)."""
    return [
        (m.start(), m.end())
        for m in _CAPITALS_LINE.finditer(text)
        if len(re.findall(r"[A-Z]{2,}", m.group(0))) > _MOST_SHOUTED
    ]


def _run(text: str, words: list[re.Match[str]], index: int) -> tuple[int, int] | None:
    """The longest run of capitalised words (with connectors) starting at ``index``, or at
    the surname particles there (:func:`_leading_particles`)."""
    if _leading_particles(text, words, index):
        last = index + _particles(text, words, index)
    elif not _capital(words[index].group(0)):
        return None
    else:
        last = index
    while last + 1 < len(words):
        gap = text[words[last].end() : words[last + 1].start()]
        nxt = words[last + 1].group(0)
        if gap in (" ", "-") and _capital(nxt):
            last += 1
            continue
        if gap == ". " and _capital(nxt) and words[last].group(0).lower() in ABBREVIATED_TITLES:
            last += 1  # "Dr. Quill", "Hon. Ambrose Sugden": the stop shortens the title
            continue
        if gap == ". " and saint_stop(text, words[last].end()):
            last += 1  # "St. Brendan's Mission": a saint's title, not "Cable St." at a stop
            continue
        joined = _connector(text, words, last)
        opened = words[index].group(0) == "The" or _after_article(text, words[index].start())
        if joined is None and opened:
            joined = _and_joined(text, words, last)
        if joined is None:
            break
        last = joined
    return index, last


_ARTICLE_PARTICLES = _words("la le das")
"""Particles that are also articles ("*la Mesa del Cuervo*", "das Boot"): inside a name they
join it ("Maria de la Cruz"), but a name never opens with them in lower case."""
_DETERMINERS = _words("a an the this that his her its their our my your one every each")


def _leading_particles(text: str, words: list[re.Match[str]], index: int) -> bool:
    """Whether a surname opens with its particles in lower case at ``words[index]``: "P. van
    der Meer", "the house of van der Meer", a table cell "| van der Meer |" (after a word
    other than a capitalised one, which they would join: "Pieter van der Meer"). Not after a
    determiner: "the van Ruth drove" is a van."""
    word = words[index].group(0)
    if _capital(word) or word in _ARTICLE_PARTICLES or not _particles(text, words, index):
        return False
    if index == 0:
        return True
    before = words[index - 1].group(0)
    return before.casefold() not in _DETERMINERS and (
        not _capital(before) or text[words[index - 1].end() : words[index].start()] != " "
    )


def _opens_surname(text: str, words: list[re.Match[str]], at: int) -> bool:
    """Whether ``words[at]`` is a surname particle, capitalised or not, opening a surname
    ("Van der Meer", "De Vaux", "van der Meer"): a common word ("a delivery van") there is
    no common word."""
    if words[at].group(0).casefold() not in SURNAME_PARTICLES or at + 1 >= len(words):
        return False
    if text[words[at].end() : words[at + 1].start()] != " ":
        return False
    if _capital(words[at + 1].group(0)):
        return True
    return 0 < _particles(text, words, at + 1) < _MOST_PARTICLES


def _after_article(text: str, start: int) -> bool:
    return re.search(r"\b[Tt]he\s+$", text[max(0, start - 4) : start]) is not None


def _and_joined(text: str, words: list[re.Match[str]], last: int) -> int | None:
    """ "the Pike and Withy", "the Rose and Crown": an article opens a name, so "and" between
    two capitalised words joins them (without one, "Orm and Sigrun" are two)."""
    if last + 2 < len(words) and words[last + 1].group(0) == "and":
        gap = text[words[last].end() : words[last + 2].start()]
        if gap == " and " and _capital(words[last + 2].group(0)):
            return last + 2
    return None


def _connector(text: str, words: list[re.Match[str]], last: int) -> int | None:
    for connector in _CONNECTORS:
        parts = connector.split()
        end = last + len(parts) + 1
        if end >= len(words) or [w.group(0) for w in words[last + 1 : end]] != parts:
            continue
        gap = text[words[last].end() : words[end].start()]
        if _capital(words[end].group(0)) and gap == f" {connector} ":
            if connector in KIN_CONNECTORS and _foreign_phrase(words[last].group(0)):
                continue  # "*Ich bin Tourist.*": German, no son of anyone
            return end
    particles = _particles(text, words, last + 1)
    return last + particles + 1 if particles and _spaced(text, words, last, particles) else None


KIN_CONNECTORS = _words("ibn bin bint ben bat")
"""The words "son of" and "daughter of" that join a name ("Sahl ibn Natan", "Maryam bint
Wahb"): the word after one is a father's name, no surname."""


def _foreign_phrase(word: str) -> bool:
    """Whether ``word`` is a pronoun or a function word, which no "son of" follows."""
    return word.casefold() in FOREIGN_PRONOUNS | FUNCTION_WORDS


def _particles(text: str, words: list[re.Match[str]], at: int) -> int:
    """How many :data:`SURNAME_PARTICLES` (one or two, in lower case, a space apart) open at
    ``words[at]`` before a capitalised word ("van der" of "van der Meer"), else 0."""
    count = 0
    while (
        at + count < len(words)
        and count < _MOST_PARTICLES
        and words[at + count].group(0) in SURNAME_PARTICLES
        and (not count or text[words[at + count - 1].end() : words[at + count].start()] == " ")
    ):
        count += 1
    after = at + count
    if not count or after >= len(words) or not _capital(words[after].group(0)):
        return 0
    return count if text[words[after - 1].end() : words[after].start()] == " " else 0


def _spaced(text: str, words: list[re.Match[str]], last: int, particles: int) -> bool:
    """Whether one space parts ``words[last]`` from the particles after it."""
    return text[words[last].end() : words[last + 1].start()] == " " and particles > 0


def _span(
    text: str,
    words: list[re.Match[str]],
    first: int,
    last: int,
    firsts: set[int],
    common: frozenset[str],
    numbered: int = 0,
) -> NameSpan | None:
    initial = words[first].start() in firsts
    while first <= last and initial and _bare(words[first].group(0)) in common:
        if first < last and is_title(words[first].group(0)):
            break  # "Commander Ravi Tamm took command": a title, though "commander" is common
        if first < last and _opens_surname(text, words, first):
            break  # "Van der Meer sells powder", "van der Meer | St. Eustatius": a surname
        if first < last and words[first].group(0) in _ARABIC_OPENERS:
            break  # "Abu Hurayra knows the lanes", though a chat writes "abu umar has it"
        if first == last and numbered:
            break  # "Level 22 flooded": a number makes the common word a name
        first, initial = first + 1, False
    while first <= last and contraction(words[first].group(0)):
        first, initial = first + 1, False  # "I'm", "We're": a pronoun, never a name
    if first < last and _dated_opening(text, words[first]):
        first, initial = first + 1, False  # "Since January BASILISK has ...": a date, a name
    titles, first = _titles(words, first, last)
    if titles and titles[0].casefold().rstrip(".") in _SAINTS:
        opening = first - len(titles)
        if _ARTICLE.search(text, 0, words[opening].start()):
            first, titles = opening, []  # "the Saint Ignatius" names a ship, not the saint
    compound = first < last and text[words[first].end() : words[first + 1].start()] == "-"
    if first > last or (words[first].group(0).lower() in FUNCTION_WORDS and not compound):
        return None  # "One-Eye Crake" is a name, "One" alone is not
    if first == last and words[first].group(0).casefold() in ARABIC_HEADS:
        return None  # "Abu", "Bab": the head of an Arabic name, which it opens, names no one
    start, end = words[first].start(), numbered or words[last].end()
    name = re.sub(r"['’]s$", "", text[start:end])
    end = start + len(name)
    if _dated(name, text, start, end):
        return None  # "on Friday", "since March", "[Thu 11:52 PM]": a day, month or hour
    if name.casefold() in TABLE_ROLES | TABLE_WORDS:
        return None  # "the PCs", "an NPC", "the GM": the players' and referee's roles
    if name.casefold() in COMMON_ACRONYMS:
        return None  # "the station AI", "in by EVA", "back at HQ": everyday acronyms
    if name.casefold() in DEMONYMS and not titles and _demonym_use(text, start, end):
        return None  # "a Mexican saddle", "speaks Latin"; "Dutch's revolver" is someone's
    if first == last and not titles and (demonym_plural(name) or _demonym_compound(name)):
        return None  # "the Hungarians", "a Soviet-bloc toy": a people, an adjective
    if first == last and not titles and name.casefold() in FOREIGN_PRONOUNS:
        return None  # "*Ich bin Tourist.*": a phrase of another tongue, no one named
    if first == last and not titles and oath(text, start, end):
        return None  # "God help us", "thank God", "for God's sake": an oath, no one named
    if name.isupper() and len(name.split()) > _MOST_SHOUTED:
        return None  # a telegram's line in capitals, not a name of many words
    if initial and first == last and _common_compound(name):
        return None  # "In-game, Sept. 24": a common compound opening a sentence
    if len(name) == 1:
        return None  # "C.V." (initials), "Plan B": a lone letter names nothing
    if initial and first == last and discourse_marker(name, text[end : end + 1]):
        return None  # "Separately: the keeper ...", "Luckily, ..." open a sentence, name nothing
    if first == last and not titles and _opens_clause(name, text, start, end, initial):
        return None  # "Previously on ...", "Abe — Investigate a Mystery": no name
    if initial and first == last and not titles and _common_opener(name, text, end):
        return None  # "Submitted for the inspection of ...", "Entries are given ...": no name
    if first == last and not titles and _stage_sound(text, start, end):
        return None  # "*Tap.* Honoured listeners!": a storyteller's fan on the table
    return NameSpan(start, end, name, " ".join(titles), initial)


_DEMONYM_BEFORE = frozenset(
    ("a", "an", "the", "some", "any", "every", "in", "into", "from", "speak", "speaks",
     "spoke", "spoken", "speaking", "read", "reads", "wrote", "written", "his", "her", "their",
     "our", "its", "my", "your", "two", "three", "four", "five", "six", "few", "many", "other",
     "old", "young", "rich", "poor", "local", "fellow", "on", "of", "this", "that", "these",
     "those", "no", "another", "each", "both", "either", "neither", "east", "west", "north",
     "south", "central", "northern", "southern", "eastern", "western", "former", "ex", "anti",
     "pro", "non", "native", "ethnic", "fluent", "broken", "bad", "good", "perfect", "true",
     "real", "typical", "proper", "last", "first", "only", "own", "same", "whole", "entire",
     "genuine", "ordinary")
)  # fmt: skip
"""Words after which a demonym is an adjective or a language ("a *Mexican* saddle", "spoke
*Latin*", "two *Chinese* cooks", "on *Austrian* soil", "East *German*"), not a nickname
("*Dutch* tore his forearm open", "took *Dutch* to the doctor")."""
_DEMONYM_LINKS = frozenset(
    ("to", "with", "for", "at", "by", "about", "against", "among", "like", "unlike", "than",
     "as", "under", "over", "near", "via", "per")
)  # fmt: skip
"""Prepositions after which a demonym is an adjective when a word in lower case follows it
("for *Soviet* eyes"), a nickname when not ("rode with *Dutch* to the ford")."""
_NEXT_WORD = re.compile(r"[\s>]*([^\W\d_][\w'’-]*)")
_PUNCT_BEFORE = re.compile(r"([(|,;/])\s*[*_]*$")
_PUNCT_AFTER = re.compile(r"[*_]*\s*([,;|)/])\s*[*_]*([^\W\d_][\w'’-]*)?")


def _demonym_use(text: str, start: int, end: int) -> bool:
    """Whether the demonym at ``text[start:end]`` is used as one: after a word of
    :data:`_DEMONYM_BEFORE`, or after "and"/"or" that follows another demonym ("Latin and
    German"); before a word in lower case after a preposition of :data:`_DEMONYM_LINKS`, a
    comma, a bracket or a table's bar ("(*German* frontier)", "forger, *Russian* speaker");
    an item of a list of common words or a table's cell ("papers, forgeries, *Russian*,
    bluffing", "| *British* |"). Never in the possessive ("Dutch's revolver" is someone's),
    nor in a list of names ("Present: Dutch, Birdie, the Prof")."""
    if text.startswith(("'s", "’s"), end):
        return False
    window = text[max(0, start - 40) : start]
    before = re.findall(r"[\w']+", window.casefold())
    if before and before[-1] in _DEMONYM_BEFORE:
        return True
    if len(before) > 1 and before[-1] in ("and", "or") and before[-2] in DEMONYMS:
        return True
    punct = _PUNCT_BEFORE.search(window)
    follower = _NEXT_WORD.match(text, end)
    lower_next = follower is not None and _plain_lower(follower.group(1))
    if lower_next and ((before and before[-1] in _DEMONYM_LINKS) or punct is not None):
        return True
    after = _PUNCT_AFTER.match(text, end)
    if after is None or (punct is None and not before):
        return False
    if punct is not None and punct.group(1) == "|" and after.group(1) == "|":
        return True  # the whole cell of a table
    item_before = punct is not None and punct.group(1) in ",|" and _plain_lower(before[-1:])
    item_after = after.group(1) == "," and _plain_lower([after.group(2) or ""])
    return punct is not None and (item_before or item_after)


def _plain_lower(words: list[str] | str) -> bool:
    """Whether the word (or the one word of ``words``) is a common word in lower case, not a
    function word ("speaker", "forgeries", "ex-army"; not "and", "to")."""
    word = words if isinstance(words, str) else (words[0] if words else "")
    plain = word.replace("-", "")
    return plain.isalpha() and plain.islower() and word not in FUNCTION_WORDS


def _demonym_compound(word: str) -> bool:
    """Whether a hyphenated word is a demonym over a word in lower case ("Soviet-bloc",
    "Russian-accented", "German-speaking"): an adjective, never a name."""
    head, *rest = word.split("-")
    return bool(rest) and head.casefold() in DEMONYMS and all(p.islower() for p in rest)


OATH_WORDS = _words("god gods christ jesus heaven heavens")
_OATH_BEFORE = re.compile(
    r"\b(?:thank|thanks|by|oh|o|my|for|sw(?:ear|ore|orn)\s+to|dear|good|great|honest|"
    r"so\s+help\s+me)"
    r"[\s,]+[*_]*$",
    re.IGNORECASE,
)
_OATH_AFTER = re.compile(
    r"(?:['’]s)?[*_]*[\s,]+(?:knows|knew|help|helps|bless|blesses|forbid|forbids|willing|damn|"
    r"almighty|above|alive|sake|save|rest|have\s+mercy)\b"
    r"|['’]s\s+(?:sake|teeth|truth|name|own|honest)\b",
    re.IGNORECASE,
)


def oath(text: str, start: int, end: int) -> bool:
    """Whether the word at ``text[start:end]`` is the deity of an everyday oath ("God help us",
    "God knows why", "thank God", "for God's sake", "Christ almighty", "good heavens"): no one
    the campaign names. A god of the world is named otherwise ("God-Emperor", "the God of the
    Deep", "a prayer to the Drowned God")."""
    if text[start:end].casefold() not in OATH_WORDS:
        return False
    return (
        _OATH_BEFORE.search(text, max(0, start - 20), start) is not None
        or _OATH_AFTER.match(text, end) is not None
    )


_MOST_SHOUTED = 6
"""The most words a name written in capitals runs to ("FIRST NATIONAL BANK OF SILVER CITY")."""


def _common_compound(word: str) -> bool:
    """Whether a hyphenated word opens with a function word and goes on in lower case
    ("In-game", "Off-screen", "Over-the-top"): capitalised only as a sentence's first word
    ("One-Eye Crake" capitalises its parts, and is a name)."""
    head, *rest = word.split("-")
    return bool(rest) and head.casefold() in FUNCTION_WORDS and all(p.islower() for p in rest)


_BESIDE_NUMBER = re.compile(r"\s\d|\d\s*$")
_AFTER_DASH = re.compile(r"(?:[—–]|\s-)\s*[*_]*$")
_ARTICLE_AFTER = re.compile(r"\s+an?\s+\w")


def _dated(name: str, text: str, start: int, end: int) -> bool:
    """Whether ``name`` is a weekday, a month or a half of the clock's day, alone, or a weekday
    or month in the plural ("meets us Thursdays", "two Octobers ago"; "Mays" is a surname)."""
    folded = name.casefold()
    if folded in CALENDAR_WORDS | CALENDAR_SHORT | CLOCK_WORDS:
        return True
    if folded.endswith("s") and folded[:-1] in CALENDAR_WORDS - {"may"}:
        return True
    near = text[max(0, start - 3) : start] + " " + text[end : end + 2]
    return folded in CALENDAR_DATED and _BESIDE_NUMBER.search(near) is not None


_WHEN_BEFORE = re.compile(
    r"\b(?:since|in|until|till|before|after|during|through|last|next|every|each|early|late|"
    r"mid)[\s*_]+$",
    re.IGNORECASE,
)


def _dated_opening(text: str, word: re.Match[str]) -> bool:
    """Whether ``word``, opening a run of capitalised words, is a month or weekday after a
    word that dates ("Since January BASILISK has been extended", "until Friday Orm waits"):
    the date, then the name, never one name."""
    folded = word.group(0).casefold()
    if folded not in CALENDAR_WORDS:
        return False
    return _WHEN_BEFORE.search(text, max(0, word.start() - 12), word.start()) is not None


def _opens_clause(name: str, text: str, start: int, end: int, initial: bool) -> bool:
    """Whether a lone capitalised word opening a sentence, or a line's part after a dash, is
    an adverb ("Previously on ...", :data:`SENTENCE_ADVERBS`) or a verb before its object
    ("Abe — Investigate a Mystery", "Protect an innocent"): a name is not followed by "a"."""
    opening = initial or _AFTER_DASH.search(text, 0, start) is not None
    if not opening:
        return False
    if initial and name.casefold() in SENTENCE_ADVERBS:
        return True
    return _ARTICLE_AFTER.match(text, end) is not None


_PARTICIPLE = re.compile(r"[a-z]{3,}(?<!fr)(?<!dr)(?<!fri)ed")
_PREPOSITION_AFTER = re.compile(r"\s+(?:for|to|into|by|from|in|at|on|with|under)\b")
_PLURAL_VERB_AFTER = re.compile(r"\s+(?:are|were)\b")


_SOUND_BEFORE = re.compile(r"(?:^|\s)[*_]$")
_SOUND_AFTER = re.compile(r"[.!]+(?:[*_](?!\w)|$)")
"""The sentence's stop, then the emphasis closing (or the sentence cut at its stop)."""


def _stage_sound(text: str, start: int, end: int) -> bool:
    """Whether a lone word is a whole sentence in emphasis ("*Tap.*", "_Crash!_"): a sound
    or a stage direction, not a name, which a sentence says something of."""
    before = text[max(0, start - 2) : start]
    return _SOUND_BEFORE.search(before) is not None and _SOUND_AFTER.match(text, end) is not None


def _common_opener(name: str, text: str, end: int) -> bool:
    """Whether a lone capitalised word opening a sentence is a common word by its form and
    the word after it: a participle before a preposition ("*Submitted for the inspection
    of ...*", "Copied into the day-book"; not "Alfred", "Mildred", "Siegfried") or a plural
    in "-ies" before "are"/"were" ("Entries are given ward by ward"; "Davies" takes "is")."""
    folded = name.casefold()
    if _PARTICIPLE.fullmatch(folded) and _PREPOSITION_AFTER.match(text, end):
        return True
    return folded.endswith("ies") and _PLURAL_VERB_AFTER.match(text, end) is not None


def _titles(words: list[re.Match[str]], first: int, last: int) -> tuple[list[str], int]:
    """The leading titles of the run ``words[first:last + 1]`` and where the name starts: "Chief
    of Police Harlan Doyle" → (["Chief of Police"], Harlan); a title over a word that names
    things is part of the name ("Old Quarry"), unless only a person bears it ("Professor Eliza
    Marsh"); so is one over nothing but function words ("Mother Below")."""
    thing = noun_type(words[last].group(0)) not in (None, "NPC")
    titles: list[str] = []
    at = first
    while at < last and (
        is_title(folded := words[at].group(0).lower())
        or (folded in TITLE_MODIFIERS and at + 1 < last and is_title(words[at + 1].group(0)))
    ):
        if thing and folded.split("-")[-1] not in PERSON_TITLES:
            break
        titles.append(words[at].group(0))
        at += 1
        if words[at].group(0) == "of" and titles:  # "Chief of Police", "Captain of the Guard"
            office = 2 if words[at + 1].group(0) == "the" else 1
            if at + office < last:
                parts = [w.group(0) for w in words[at : at + office + 1]]
                titles[-1] = " ".join([titles[-1], *parts])
                at += office + 1
    if at > last or words[at].group(0).lower() in FUNCTION_WORDS:
        return [], first
    return titles, at


TOPIC_OPENERS = _words(
    "who what where when why how which whose ",
    "below beneath under above over on upon in inside outside within beyond across around ",
    "near along through behind between among into onto past of concerning regarding about",
)
"""A heading opening with a question word or a preposition names a topic, not a thing:
"Where to sleep", "Who holds the road", "Below the ground", "On the heights", a chronicle's
"Of the Green Society" (about the society its section names)."""

TOPIC_PLURALS = _words(
    "gods deities powers beasts creatures monsters dangers perils threats spirits peoples ",
    "folk places landmarks sights services shops inns taverns allies enemies friends ",
    "rulers families houses roads ways ships vessels crews gangs guilds clans tribes nations ",
    "cities towns villages streets districts sites temples cults groups organisations ",
    "organizations suspects witnesses contacts characters notables figures locations hazards ",
    "worlds planets systems",
)
"""A heading whose first word (after "The") is one of these plurals is a list of things, not
one: "The Gods of the North", "Beasts of the Waste", "Dangers of the Road"."""


NAME_PARTICLES = _words("von van der den de da di du del della la le al el ibn bin bint ap")
"""Lower-case words inside a name ("Ludwig von Starke", "Ilyan al Vesh")."""
_LOWER_IN_NAMES = FUNCTION_WORDS | NAME_PARTICLES


_LABELLED_TITLE = re.compile(r"^\s*[*_]*[^\W\d_]+[*_]*\s*:\s*[*_]*[\"“]")


def heading_name(title: str) -> str | None:
    """The thing a heading names ("Hob Tarrow, Innkeeper" → "Hob Tarrow"), or ``None`` for a
    generic heading ("Rumours", "Session 3", "GM Notes") or a topic: one opening with a
    question word or a preposition (:data:`TOPIC_OPENERS`), a list (:data:`TOPIC_PLURALS`),
    or a phrase in sentence case ("The lower galleries": a name capitalises its words;
    "Torven the smith" names Torven)."""
    if _LABELLED_TITLE.match(title):
        return None  # 'Mystery: "The Lantern Man"': a kind of note over its quoted title
    head = re.split(r"\s*(?:[,:(—–]| - )\s*", title.strip(), maxsplit=1)[0].strip(" *_`")
    words = head.split()
    if not words or len(words) > 6 or not _capital(words[0]) or is_gm_heading(title):
        return None
    folded = [w.casefold().strip("'’") for w in words]
    generic = all(w in GENERIC_HEADINGS | FUNCTION_WORDS for w in folded)
    if generic or any(w.isdigit() for w in words):
        return None
    if folded[0] in ("session", "chapter", "part", "act", "day", "appendix", "episode", "case"):
        return None
    if all(w in CALENDAR_WORDS | CALENDAR_SHORT | FUNCTION_WORDS for w in folded):
        return None  # "## Friday: the last day before": a day of the story, named by no one
    if folded[0] in TOPIC_OPENERS:
        return None
    if len(folded) == 1 and folded[0] in SENTENCE_ADVERBS | DISCOURSE_MARKERS:
        return None  # "## Previously", "## Meanwhile": a recap's section, no thing
    first = 1 if folded[0] == "the" and len(words) > 1 else 0
    if folded[first] in TOPIC_PLURALS:
        return None
    lower = next(
        (
            i
            for i, w in enumerate(words)
            if i and not _capital(w) and folded[i] not in _LOWER_IN_NAMES
        ),
        None,
    )
    if lower is None:
        return head
    named = words[:lower]
    while named and named[-1].casefold() in FUNCTION_WORDS:
        named.pop()
    if not any(w.casefold() not in FUNCTION_WORDS for w in named):
        return None
    return " ".join(named)
