"""Entities that plain prose is about, found without a model.

Over the chunks of Markdown and text sources (see :mod:`extraction.prose_names`):

- a heading that names a thing ("## The Copper Kettle") defines an entity;
- a name mentioned at least twice is an entity; a name mentioned once is one only when its
  type is clear from a title, its head word or ending ("Slow River", "Tollhouse");
- the type comes from cue words (:mod:`extraction.prose_types`), ``Other`` when none speaks;
- the description is the first sentence that opens with the name, quoted as written;
- aliases come from :mod:`extraction.prose_aliases`; a lone first name or a stated alias is
  merged into its entity.

Structured sources win: a name the world pack or vault already defines is left to them.
Secrets stay secret: an entity seen only in GM chunks is GM-only, an alias stated only in GM
chunks is a GM alias, and a party entity's description never quotes a GM chunk.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import NamedTuple

from extraction.honorifics import honorific
from extraction.markdown import unwrapped
from extraction.prose_aliases import (
    FileCard,
    bracket_aliases,
    file_card,
    legend_alias,
    stated_aliases,
    title_aliases,
)
from extraction.prose_candidates import (
    Candidate,
    Epithet,
    NamedAliases,
    add_roles,
    best_type,
    display_name,
    merge_aliases,
    merge_epithets,
    merge_first_names,
    merge_short_names,
    merge_surnames,
    title_counts,
)
from extraction.prose_folds import KnownFolds
from extraction.prose_honorifics import (
    merge_english_particles,
    merge_honorifics,
    merge_particle_names,
)
from extraction.prose_layout import LayoutEntry, category_cells_blanked, layout_entries
from extraction.prose_merges import (
    keep_full_names,
    merge_acronyms,
    merge_arabic_names,
    merge_given_names,
    merge_inverted_names,
    merge_leading_names,
    merge_members,
    merge_named_aliases,
    merge_numbers,
    merge_of_names,
    merge_offices,
    merge_offices_after,
    merge_people_surnames,
    merge_pet_names,
    merge_place_heads,
    merge_prefixes,
    merge_saints_places,
    merge_sound_alikes,
    merge_tails,
    merge_titled_first_words,
    merge_whole_first_names,
)
from extraction.prose_names import (
    ABBREVIATED_TITLES,
    DEMONYMS,
    FUNCTION_WORDS,
    GENERIC_HEADINGS,
    TITLES,
    NameSpan,
    common_words,
    heading_name,
    is_title,
    name_spans,
    saint_stop,
    title_only,
)
from extraction.prose_types import (
    apposition_type,
    context_type,
    creature_kind,
    definition_type,
    listed_type,
    name_type,
    noun_type,
    place_head_type,
    pronoun_follows,
    strong_head_type,
    title_type,
    verb_type,
    weak_type,
)
from extraction.resolution import EntityResolver
from extraction.slugs import normalise_name, slugify
from extraction.table_talk import episode_titles, gm_speakers, players
from graphrag_core.models import Chunk, Entity, Visibility

_TITLE_STOP = "|".join(rf"(?<=\b{t.capitalize()})" for t in sorted(ABBREVIATED_TITLES))
_SENTENCE = re.compile(
    rf"(?:[^\n.!?]|(?:{_TITLE_STOP})\.(?= [A-Z]))+(?:[.!?]+['\")\]]*|$)", re.MULTILINE
)
"""A sentence runs on past the stop of an abbreviated title ("Dr. Quill was chained")."""
_PC_SECTION = re.compile(
    r"^\W*(?:the\s+)?(?:player\s+characters|pcs|(?:the\s+)?party(?:\s+members)?)\W*$",
    re.IGNORECASE,
)
"""A heading over the player characters ("## The player characters", "## PCs"): each name
its entries define is a PC."""
_PRONOUN_SUBJECT = re.compile(r"^(?:She|He|It)\b")
_EPITHET_JOINERS = (" the ", " in the ", ", the ")
_ROLE_AFTER = re.compile(r",\s+the\s+([a-z][\w-]*)(?=\s*[,.;:]|$)")
_ROLE_BEFORE = re.compile(r"\bthe\s+([a-z][\w-]*),?\s+$")
_THE_BEFORE = re.compile(r"\b[Tt]he\s+$")
_NOT_NOUNS = FUNCTION_WORDS | {"is", "are", "was", "were", "has", "had", "have", "will", "would"}
_POSSESSIVE = re.compile(r"['’]s\b")
_CELL_START = re.compile(r"(?:^|\|)\s*$")
"""Nothing but a table's cell border before a word: it opens the cell."""
_OBJECT_AFTER = re.compile(r"\s+(?:the|a|an|his|her|their|its|our|two|three)\s")
"""A lower-case determiner after a word ("Commands *the* Poles"): the word is a verb's place."""
_OFFICE_BEFORE = re.compile(r"\b(?:the|her|his|its|their)\s+([a-z][\w-]*),\s+$")
_MADE = re.compile(
    r"\s+(?:was|is|had\s+been|has\s+been)\s+(?:made|named|elected|chosen|crowned|appointed)\s+"
    r"(?:the\s+)?$|\s+became\s+(?:the\s+)?$"
)


def sentences(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each sentence or line of ``text``, stripped; a saint's "St."
    ends none ("at St. Brendan's Mission": :func:`~extraction.prose_names.saint_stop`)."""
    spans: list[tuple[int, int]] = []
    for match in _SENTENCE.finditer(text):
        raw = match.group(0)
        start = match.start() + len(raw) - len(raw.lstrip())
        end = match.start() + len(raw.rstrip())
        if end <= start:
            continue
        if spans and text[spans[-1][1] : start] == " " and saint_stop(text, spans[-1][1] - 1):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


_TABLE_RULE = re.compile(r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")


def _table_header(text: str, start: int) -> bool:
    """Whether ``text[start:]`` opens a table's header row ("| Name | Role | Notes |" over
    "|---|---|---|"): column labels, never names."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip() != "" or not text.startswith("|", start):
        return False
    line_end = text.find("\n", start)
    if line_end < 0:
        return False
    next_end = text.find("\n", line_end + 1)
    following = text[line_end + 1 : next_end if next_end >= 0 else len(text)]
    return _TABLE_RULE.fullmatch(following) is not None


class _Collector:
    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.common = common_words(chunk.text for chunk in chunks)
        self.found: dict[str, Candidate] = {}
        self.alias_of: dict[str, str] = {}
        self.epithets: dict[str, list[Epithet]] = {}  # name -> its uses after another name
        self.roles: dict[str, dict[str, bool]] = {}  # "the farrier" -> {name key: party}
        self.offices: dict[str, set[str]] = {}  # "vizier" -> {keys of the people holding it}
        self.previous: str | None = None  # the first name of the previous sentence
        self.open_tables: dict[str, tuple[str, int]] = {}  # source -> the names table open
        self.named = NamedAliases()  # aliases a file card or a bracket gives a name

    def get(self, name: str) -> Candidate:
        return self.found.setdefault(normalise_name(name), Candidate())

    def chunk(self, chunk: Chunk, seen_headings: set[tuple[str, str]]) -> None:
        party = chunk.visibility == "party"
        title = chunk.heading.split(" > ")[-1] if chunk.heading else ""
        section = heading_name(title) if title else None
        if section and (chunk.source_path, chunk.heading) not in seen_headings:
            seen_headings.add((chunk.source_path, chunk.heading))
            candidate = self.get(section)
            candidate.heading = candidate.heading or section
            candidate.heading_path = candidate.heading_path or chunk.heading
            candidate.common_in_section |= _the_common_noun(section, chunk.text)
            last = section.split()[-1].lower()
            candidate.plural_in_section |= (
                re.search(rf"\b{re.escape(last)}\b", chunk.text) is not None
            )
            candidate.cut_heading |= _cut_by_lower_words(section, title)
            candidate.party |= party
            candidate.paths.append(chunk.source_path)
        self.previous = None
        whole = unwrapped(chunk.text)  # a hard-wrapped paragraph is read as one
        carried = self.open_tables.pop(chunk.source_path, None)
        entries, still_open = layout_entries(whole, self.common, carried)
        for entry in entries:
            self._define(chunk, entry, party)
            if _PC_SECTION.match(title):
                self.get(entry.span.name).votes.append((0, "PC"))
        if section:
            self.get(section).listed_in_section += len(_LISTED_LINE.findall(whole))
        for line in whole.split("\n"):
            card = file_card(line)
            if card is not None:
                self._file_card(chunk, card, party)
        if still_open is not None:
            self.open_tables[chunk.source_path] = still_open
        whole = category_cells_blanked(whole)  # "| Type |" cells classify, name nothing
        for start, end in sentences(whole):
            if not whole.startswith("#", start) and not _table_header(whole, start):
                self.sentence(chunk, whole, whole[start:end], section, party)

    def _define(self, chunk: Chunk, entry: LayoutEntry, party: bool) -> None:
        """A name a table row, bold term or roster line defines: an entity even when named
        once, described by its entry (:mod:`extraction.prose_layout`)."""
        candidate = self.get(entry.span.name)
        candidate.defined = True
        candidate.party |= party
        candidate.surfaces.setdefault(entry.span.name, 0)
        candidate.paths.append(chunk.source_path)
        if entry.span.title and entry.span.title not in candidate.titles:
            candidate.titles.append(entry.span.title)
        if entry.kind:
            candidate.votes.append((1, entry.kind))
        for nickname in entry.nicknames:
            candidate.aliases[nickname] = candidate.aliases.get(nickname, False) or party
            self.alias_of[normalise_name(nickname)] = normalise_name(entry.span.name)
        if entry.entry and (
            candidate.description is None or (party, 2) > candidate.description[:2]
        ):
            candidate.description = (party, 2, entry.line)

    def sentence(
        self, chunk: Chunk, whole: str, text: str, section: str | None, party: bool
    ) -> None:
        spans = name_spans(text, self.common)
        creature = creature_kind(text)
        if creature is not None:
            spans = [s for s in spans if s.start > 0]  # "Reef" of "Reef drakes are ..."
            self._kind(chunk, text, *creature, party=party)
        if section and _PRONOUN_SUBJECT.match(text) and " " in text:  # not a bare "She"
            kind = definition_type(text, 0, text.index(" "))
            if kind:
                self.get(section).votes.append((1, kind))
        for span in spans:
            candidate = self.get(span.name)
            candidate.mentions += 1
            candidate.after_the += _THE_BEFORE.search(text, 0, span.start) is not None
            candidate.possessive += _POSSESSIVE.match(text, span.end) is not None
            candidate.verb_openings += (
                span.sentence_start or _CELL_START.search(text, 0, span.start) is not None
            )
            candidate.objects += _OBJECT_AFTER.match(text, span.end) is not None
            candidate.openings += span.sentence_start
            candidate.party |= party
            candidate.surfaces[span.name] = candidate.surfaces.get(span.name, 0) + 1
            if span.title and span.title not in candidate.titles:
                candidate.titles.append(span.title)
            candidate.paths.append(chunk.source_path)
            self._vote(candidate, text, span.start, span.end, span.title)
            self._describe(candidate, text, span.start, span.end, span.title, party)
            if span.nickname:
                self._nickname(span, party)
            own = section and normalise_name(section) == normalise_name(span.name)
            if own and span.sentence_start and pronoun_follows(whole, _after(whole, text)):
                candidate.votes.append((5, "NPC"))
        self._epithets(text, spans, party)
        for bracketed in bracket_aliases(text, spans):
            if bracketed.codename and bracketed.alias.casefold() in self.common:
                continue  # "Naja → DESTROYED (Basilisk)": a status in capitals, no codename
            self.named.add(
                bracketed.alias,
                bracketed.owner,
                party,
                codename=bracketed.codename,
                handle=bracketed.handle,
                beside=bracketed.beside,
            )
        legend = legend_alias(text, spans)
        if legend is not None:
            self.named.add(*legend, party)
        for stated in stated_aliases(text, spans):
            owner = stated.subject or (self.previous if stated.person else None) or section
            if owner and normalise_name(owner) != normalise_name(stated.alias):
                for form in (stated.alias, stated.name):
                    self.alias_of[normalise_name(form)] = normalise_name(owner)
                aliases = self.get(owner).aliases
                aliases[stated.alias] = aliases.get(stated.alias, False) or party
        if spans and spans[0].start <= 12:
            self.previous = spans[0].name

    def _file_card(self, chunk: Chunk, card: FileCard, party: bool) -> None:
        """A person a file card names ("VORONIN, Arkady Semyonovich — crypt. CARDINAL"):
        "Arkady Voronin", a person, with its other forms and aliases."""
        candidate = self.get(card.name)
        candidate.mentions += 1
        candidate.party |= party
        candidate.surfaces[card.name] = candidate.surfaces.get(card.name, 0) + 1
        candidate.paths.append(chunk.source_path)
        candidate.votes.append((2, "NPC"))
        for alias in (*card.forms, *card.aliases):
            self.named.add(alias, card.name, party, codename=alias.isupper())

    def _nickname(self, span: NameSpan, party: bool) -> None:
        """'Michael "Mickey" Brennan': "Mickey" and "Mickey Brennan" are aliases of Michael
        Brennan, and a lone "Mickey" is him."""
        owner = normalise_name(span.name)
        aliases = self.get(span.name).aliases
        for alias in (span.nickname, f"{span.nickname} {span.name.split()[-1]}"):
            self.alias_of.setdefault(normalise_name(alias), owner)
            aliases[alias] = aliases.get(alias, False) or party

    def _kind(self, chunk: Chunk, text: str, name: str, written: str, *, party: bool) -> None:
        """A kind of creature the sentence defines: an entity named in title case, its plural
        as written an alias."""
        candidate = self.get(name)
        candidate.mentions += 1
        candidate.party |= party
        candidate.surfaces[name] = candidate.surfaces.get(name, 0) + 1
        candidate.votes.append((1, "Creature"))
        candidate.aliases[written.lower()] = candidate.aliases.get(written.lower(), False) or party
        candidate.paths.append(chunk.source_path)
        self._describe(candidate, text, 0, 0, "", party)

    def _epithets(self, text: str, spans: Sequence[NameSpan], party: bool) -> None:
        """Record "Garran the Eel", "the Sleeper in the Sand", "Saint Odila, the Lamplighter"
        (a name right after another, joined by "the") and "Kaspar Iselin, the farrier," (a
        person's role in apposition)."""
        for first, second in itertools.pairwise(spans):
            joiner = text[first.end : second.start]
            if joiner in _EPITHET_JOINERS and not second.title:
                alias = f"the {second.name}"
                full = f"{first.name}{joiner}{second.name}" if "," not in joiner else alias
                uses = self.epithets.setdefault(normalise_name(second.name), [])
                uses.append(Epithet(normalise_name(first.name), full, alias, party))
        for index, span in enumerate(spans):
            self._office(text, spans[index - 1] if index else None, span)
        for span in spans:
            role = _ROLE_AFTER.match(text, span.end) or _ROLE_BEFORE.search(text, 0, span.start)
            word = role.group(1).casefold() if role else ""
            if role and noun_type(word) == "NPC" and word not in TITLES:
                owners = self.roles.setdefault(f"the {word}", {})
                key = normalise_name(span.name)
                owners[key] = owners.get(key, False) or party

    def _office(self, text: str, before: NameSpan | None, span: NameSpan) -> None:
        """Record who holds an office: "Dyke-Reeve Osric Fenner" (a title), "her vizier, Hadra
        Mun" or "Hadra Mun, the vizier," (an office in apposition), "Agnes Gossage was made
        Reeve of Sallowmere" (the office given to the name before)."""
        key = normalise_name(span.name)
        if span.title:
            self.offices.setdefault(span.title.casefold(), set()).add(key)
        role = _ROLE_AFTER.match(text, span.end) or _OFFICE_BEFORE.search(text, 0, span.start)
        if role and is_title(role.group(1)):
            self.offices.setdefault(role.group(1).casefold(), set()).add(key)
        if before is not None and not span.title and _MADE.fullmatch(text, before.end, span.start):
            self.offices.setdefault(span.name.casefold(), set()).add(normalise_name(before.name))

    def _vote(self, candidate: Candidate, text: str, start: int, end: int, title: str) -> None:
        definition = definition_type(text, start, end)
        evidence = (
            (0, strong_head_type(text[start:end])),
            (0 if definition == "PC" else 1, definition),
            (1, apposition_type(text, start, end)),
            (1, listed_type(text, start, end)),
            (2, title_type(title, _POSSESSIVE.match(text, end) is not None) if title else None),
            (3, place_head_type(text, start, end)),
            (4, context_type(text, start)),
            (4, verb_type(text, end)),
            (5, weak_type(text, start, end)),
        )
        candidate.votes += [(rank, kind) for rank, kind in evidence if kind]

    def _describe(
        self, candidate: Candidate, text: str, start: int, end: int, title: str, party: bool
    ) -> None:
        rank = description_rank(text, start, end, title)
        if candidate.description is None or (party, rank) > candidate.description[:2]:
            said = text if rank else mentioned_in(text, start, end)
            candidate.description = (party, rank, said)


_LIST_MARK = re.compile(r"^(?:[-*+>]\s+|\d+[.)]\s+)")
_COPULA_AFTER = re.compile(r"\s+(?:is|are|was|were|has\s+been|had\s+been)\s")
_RELATIVE_AFTER = re.compile(r",\s+(who|whom|whose|which|where|called|known\s+as)\b")
_APPOSITION_AFTER = re.compile(
    r"(?:\s+\([^)]*\))?,\s+(a|an|the|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"twelve|twenty|thirty|forty|fifty|hundreds?|dozens?|some|several)\s"
)
_INVERTED_BEFORE = re.compile(
    r"\b(?:is|are|was|were|stands?|rises?|lies|lie|sits?|hangs?)\s+(?:the\s+)?$", re.IGNORECASE
)
_PART_OF_SUBJECT = re.compile(
    r"^(?:The|A|An)\s+(?:[a-z][\w'’-]*\s+)?[a-z][\w'’-]*\s+of\s+(?:the\s+)?$"
    r"|^(?:The|A|An)\s+[a-z][\w'’-]*\s+(?:at|in|on)\s+(?:the\s+)?$"
    r"|^[Tt]he\s+[a-z][\w-]+\s+$"  # "The widow Ragna Holt mends nets"
)
_PREPOSITION_OPENS = re.compile(
    r"^(?:on|in|at|from|to|near|by|with|under|for|into|off|across|beyond|behind|beside|past|"
    r"toward|towards|outside|inside|over|through|along|around|up|down)\b",
    re.IGNORECASE,
)
_CLAUSE_MARK = re.compile(r"\s*(?:[,;:()\[\]—–]|\s-\s)\s*")
_PREPOSITION_BEFORE = re.compile(
    r"\b(?:on|in|at|from|to|of|near|by|with|under|for|into|off|across|beyond|behind|beside|past|"
    r"toward|towards|outside|inside|over|through|along|around|up|down)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_COPULA = re.compile(r"\b(?:is|are|was|were|be|been|stands|lies|sits)\b")
_CONTEXT_WORDS = 5


def description_rank(text: str, start: int, end: int, title: str = "") -> int:
    """How well a sentence describes the name at ``text[start:end]``: 2 when it opens the
    sentence or list item ("Boston is ...", "- Mickey Brennan — ...", "The Marlowe ..."), 1
    when it is the subject or topic of a clause: it opens the clause or the subject's phrase
    ("For visitors, the Marlowe Hotel has ...", "The tower of the Tollkeep straddles ..."),
    comes after an inverted copula ("... stands the Longhall"), before a copula not after a
    preposition ("Up the coast, Boston is ..."; "the boarding house on Cable Street is cheap"
    is about the house), or before a relative clause or an apposition ("Tove Ironline, who
    ...", "the Tarrant Line, a shipping company"; not in a clause opened by a preposition: "up
    from Boston, a quiet guy" is said of someone named before); 0 when it is only mentioned."""
    lead = _LIST_MARK.sub("", text[:start], count=1)
    if title and lead.endswith(f"{title} "):
        lead = lead[: -len(title) - 1]
    if lead in ("", "The ", "the "):
        return 2
    marks = [m.end() for m in _CLAUSE_MARK.finditer(text, 0, start) if m.end() <= start]
    clause = text[marks[-1] if marks else 0 : start]
    if clause in ("", "The ", "the ") or _PART_OF_SUBJECT.match(clause):
        return 1  # "For visitors with money, the Marlowe Hotel has ...", "The tower of X ..."
    after_preposition = _PREPOSITION_BEFORE.search(text, 0, start) is not None
    place = after_preposition and name_type(text[start:end]) == "Location"
    relative = _RELATIVE_AFTER.match(text, end)
    if relative and place:  # "the pawnshop on Tallow Lane, who stitched him up"
        relative = None if relative.group(1) in ("who", "whom", "whose", "where") else relative
    if _INVERTED_BEFORE.search(text, 0, start) or relative:
        return 1  # "At the top of the town stands the Longhall", "Tove Ironline, who ..."
    apposition = _APPOSITION_AFTER.match(text, end)
    if apposition and place:  # "rooms on Cable Street, three bucks a week"
        apposition = None if apposition.group(1) not in ("a", "an", "the") else apposition
    in_phrase = _PREPOSITION_OPENS.match(clause) and _PREPOSITION_BEFORE.search(clause)
    if apposition and not in_phrase:
        return 1  # "... belongs to the Tarrant Line, a shipping company" ("up from Boston, a
        # quiet guy" is said of someone named before)
    return 1 if _COPULA_AFTER.match(text, end) and not after_preposition else 0


def mentioned_in(text: str, start: int, end: int) -> str:
    """The part of ``text`` around a name it only mentions, never another thing's definition:
    the clause holding the name; when a name before it is the subject of a copula ("Gullport
    is a grey harbour city on the New England coast"), only the phrase the name closes ("on
    the New England coast"); otherwise up to five words before that phrase ("forty miles up
    the shore from Boston")."""
    marks = list(_CLAUSE_MARK.finditer(text))
    left = max((m.end() for m in marks if m.end() <= start), default=0)
    right = min((m.start() for m in marks if m.start() >= end), default=len(text))
    before = text[left:start]
    preposition = _PREPOSITION_BEFORE.search(before)
    if preposition is None:
        clause = text[left:right].strip()
        return clause if len(clause.split()) > len(text[start:end].split()) + 1 else text
    opening = left + preposition.start()
    if not _COPULA.search(before, 0, preposition.start()):
        words = before[: preposition.start()].split()[-_CONTEXT_WORDS:]
        opening = start - len(before) + before.rfind(" ".join(words)) if words else opening
    tail = re.match(r"\s+([a-z][\w-]*)\s*$", text[end:right])  # "the New England coast"
    closing = end + tail.end() if tail and tail.group(1) not in _NOT_NOUNS else end
    return text[opening:closing].strip()


def _after(chunk_text: str, sentence: str) -> int:
    at = chunk_text.find(sentence)
    return at + len(sentence) if at >= 0 else len(chunk_text)


class ProseFinds(NamedTuple):
    """What the prose adds: its own entities, and aliases of known ones (id → alias → whether
    a party chunk states it) from prose names that fold into them (see
    :mod:`extraction.prose_folds`)."""

    entities: list[Entity]
    aliases: dict[str, dict[str, bool]]


def prose_entities(chunks: Sequence[Chunk], known: EntityResolver) -> ProseFinds:
    """The entities the prose ``chunks`` are about, that ``known`` does not already hold, and
    the prose's names for those it does."""
    collector = _Collector(chunks)
    seen: set[tuple[str, str]] = set()
    for chunk in chunks:
        collector.chunk(chunk, seen)
    found = merge_epithets(collector.found, collector.epithets)
    merge_honorifics(found)
    merge_particle_names(found)
    merge_english_particles(found)
    found = merge_aliases(found, collector.alias_of)
    leaves = _leaf_headings(chunks)
    table = _table_words(chunks)
    kept = {
        key: c
        for key, c in found.items()
        if _is_entity(c)
        and _named(c, leaves, collector.common)
        and not _of_table(key, c, table)
        and not _demonym_only(key, c)
        and not _shouted_label(c, collector.common)
        and not _verb_form(c, collector.common)
    }
    keep_full_names(found, kept)
    merge_offices_after(kept)
    merge_first_names(found, kept)
    merge_surnames(found, kept)
    merge_whole_first_names(kept)
    merge_given_names(kept)
    merge_pet_names(kept)
    merge_people_surnames(kept)
    merge_titled_first_words(kept)
    merge_named_aliases(kept, collector.named, into_lone=False)
    merge_leading_names(kept)
    merge_arabic_names(kept)
    merge_first_names(found, kept)  # a first name or surname two names held before they
    merge_surnames(found, kept)  # folded ("Vera", "Pokorny")
    merge_named_aliases(kept, collector.named)
    merge_short_names(kept)
    merge_sound_alikes(kept)
    merge_prefixes(kept)
    merge_place_heads(kept)
    merge_tails(kept)
    merge_of_names(kept)
    merge_inverted_names(kept)
    merge_saints_places(kept)
    merge_numbers(kept)
    merge_members(kept)
    merge_acronyms(kept)
    merge_offices(kept, collector.offices)
    add_roles(kept, collector.roles)
    return _build(kept, known)


_ADDRESS_FORMS = frozenset(
    ("mr", "mrs", "ms", "miss", "mister", "madam", "madame", "sir", "esq", "esquire", "hon",
     "st", "dr", "messrs", "monsieur", "herr", "frau", "senor", "señor", "signor")
)  # fmt: skip
_NICKNAME_MENTIONS = 3


def _title_nickname(name: str, candidate: Candidate, titles: dict[str, int]) -> bool:
    """Whether a name of titles alone is someone's nickname, an entity: "the Prof", whom a
    recap names only so ("Present: Dutch, Birdie, the Prof, and me"), written after "the" at
    least twice and named at least :data:`_NICKNAME_MENTIONS` times, and more than a form of
    address ("Mr", "Sir", "Esq" never are). Not a rank two named people bear ("the Major" of
    "Major Kertész" and "Major Sokolova"): it is one of them, the prose does not say which."""
    words = {w.casefold().strip(".") for w in name.split()} - {"the", "of"}
    return (
        titles.get(name.casefold(), 0) < 2
        and not words <= _ADDRESS_FORMS
        and candidate.after_the >= 2
        and candidate.mentions >= _NICKNAME_MENTIONS
    )


class _TableWords(NamedTuple):
    episodes: frozenset[str]
    gm: frozenset[str]
    players: frozenset[str] = frozenset()


def _table_words(chunks: Sequence[Chunk]) -> _TableWords:
    headings = {chunk.heading for chunk in chunks if chunk.heading}
    return _TableWords(
        episode_titles(headings),
        gm_speakers(chunk.text for chunk in chunks),
        players(chunk.text for chunk in chunks),
    )


def _of_table(key: str, candidate: Candidate, table: _TableWords) -> bool:
    """Whether a name is the table's, not the world's (:mod:`extraction.table_talk`): the GM's
    chat handle, a player said to play a character, or a one-word episode title the prose
    never writes as someone's (with a title, in the possessive) nor heads a section with."""
    if key in table.gm or (key in table.players and not candidate.titles):
        return True
    if key not in table.episodes or len(key.split()) > 1:
        return False
    return not (candidate.heading or candidate.titles or candidate.possessive)


def _demonym_only(key: str, candidate: Candidate) -> bool:
    """Whether a people's adjective is only ever an adjective: "Georgian brandy burns", a line
    opening with it, is no one, where "took Dutch to the doctor" or "Dutch's revolver" names
    someone (:func:`~extraction.prose_names.name_spans` reads each mention). A name opening
    every sentence it is in, never in the possessive, never with a title, defining no entry
    nor heading, is such an adjective."""
    return (
        key in DEMONYMS
        and candidate.mentions == candidate.openings
        and not (candidate.possessive or candidate.titles or candidate.heading or candidate.defined)
    )


_AGENTS = ("ers", "ors")


def _verb_form(candidate: Candidate, common: frozenset[str]) -> bool:
    """Whether a one-word name is a verb the prose writes in lower case, capitalised only
    because it opens a sentence, a line or a table cell: "Commands the Voivode's Tatars",
    "Runs the night shift", "Suspected of the fire". It ends as a verb does ("-s", "-ed"),
    its stem is a word the prose writes in lower case, and it is never written as a name is:
    after "the", in the possessive, with a title, as a heading or as an entry's term."""
    forms = {normalise_name(form) for form in candidate.surfaces}
    if len(forms) != 1 or candidate.heading or candidate.defined or candidate.titles:
        return False
    word = forms.pop()
    if " " in word or candidate.after_the or candidate.possessive or word.endswith(_AGENTS):
        return False  # "Undertakers", "Drovers": who does it, a group's name
    stems = [word[: -len(end)] for end in ("ed", "es", "s") if word.endswith(end)]
    if stems and candidate.objects == candidate.mentions == candidate.verb_openings:
        return True  # "Commands the Poles camped on the Torg.": a verb before its object
    return bool(stems) and (
        word in common
        or any(len(stem) >= 3 and (stem in common or f"{stem}e" in common) for stem in stems)
    )


def _shouted_label(candidate: Candidate, common: frozenset[str]) -> bool:
    """Whether a name written only in capitals is common words shouted, not a name: a
    section's label ("## THE CREW", "## OWED TO ME", "## STATUS LIST"), a status ("CARAS =
    ALLIED", "Tallow Market → DAMAGED"), a department on a chart ("ESTATES & LOGISTICS"). Every
    word of it is one the prose also writes in lower case, it is never written as a name is
    ("Basilisk" beside "BASILISK"), and no entry defines it."""
    forms = [candidate.heading] if candidate.heading else []
    forms += list(candidate.surfaces)
    if candidate.defined or not forms or not all(form.isupper() for form in forms):
        return False
    words = [
        word.casefold()
        for form in forms
        for word in re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", form)
    ]
    return bool(words) and all(_common_form(word, common) for word in words)


_PLACE_TAIL = re.compile(r"\s+from\s+(?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*$")


def common_topic(heading: str, common: frozenset[str]) -> bool:
    """Whether a heading the prose never names, of no type, is a topic made of common words:
    words the text writes in lower case, the last a plural ("## Churches", "## Useful Phrases",
    "## THE LOCALS", "## Railway Stations"), or a plural from a place ("## Distances from
    Vienna"). "## The Red Oak Tavern" names one thing, not a list; "## Rage" may name a
    feature; "## The Caravanserai of the Nine Lamps" is a caravanserai."""
    head = heading.strip()
    if _PLACE_TAIL.search(head) and _plural(_PLACE_TAIL.sub("", head).split()[-1]):
        return True
    head = re.split(r"\s+of\s+", head, maxsplit=1)[0]  # "Caravanserai of the Nine Lamps"
    words = [w.casefold() for w in head.split() if w.casefold() not in FUNCTION_WORDS]
    if not words or not all(_common_form(w, common) for w in words):
        return False
    return _plural(words[-1])


def _plural(word: str) -> bool:
    return word.casefold().endswith("s") and not word.casefold().endswith(("ss", "us", "is"))


def _common_form(word: str, common: frozenset[str]) -> bool:
    """Whether the text writes ``word``, or its singular, in lower case."""
    singulars = [word]
    if word.endswith("s"):
        singulars.append(word[:-1])
    if word.endswith("es"):
        singulars.append(word[:-2])
    if word.endswith("ies"):
        singulars.append(word[:-3] + "y")
    return any(form in common for form in singulars)


def _the_common_noun(heading: str, text: str) -> bool:
    """Whether a one-word heading ("Snow", "The Quay") is a common noun its section writes
    with "the" in lower case ("the snow itself", "along the quay")."""
    words = [w for w in heading.split() if w.casefold() != "the"]
    return (
        len(words) == 1 and re.search(rf"\bthe {re.escape(words[0].lower())}\b", text) is not None
    )


def _cut_by_lower_words(name: str, title: str) -> bool:
    """Whether the heading ``title`` goes on after ``name`` with a word in lower case:
    "Church people", "Ferry and water people" (not "Hob Tarrow, Innkeeper")."""
    rest = title.strip(" *_`")[len(name) :] if title.strip(" *_`").startswith(name) else ""
    return re.match(r"\s+(?:and\s+)?[a-z]", rest) is not None


def _leaf_headings(chunks: Sequence[Chunk]) -> set[str]:
    paths = {chunk.heading for chunk in chunks if chunk.heading}
    parents = {path.rsplit(" > ", 1)[0] for path in paths if " > " in path}
    return paths - parents


def _is_entity(candidate: Candidate) -> bool:
    if candidate.heading or candidate.defined or candidate.mentions >= 2:
        return True
    return best_type(candidate) != "Other" and any(rank <= 3 for rank, _ in candidate.votes)


_LISTING = 2
"""Listed lines under a heading the prose never names that make it a section's label over
them, not a thing."""
_LISTED_LINE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+\*\*[^*:\n]+\*\*(?![ \t]*:)|\|(?![ \t:|-]*$).*\|[ \t]*$)",
    re.MULTILINE,
)
"""A list line opening with a bold name ("- **Old Tamaya** (Kihei-dan'na) — rice broker",
not a label "- **Owner:** Hob") or a table row, the header's included."""


def _named(candidate: Candidate, leaves: set[str], common: frozenset[str]) -> bool:
    """A heading names a thing when the prose names it too, or when it heads a section of its
    own with no subsections ("## Acid Arrow" over the spell's text), not two things
    ("Treasures and Troubles"), nor a label over entries that name other things ("## Money"
    over a list of people); a heading over subsections ("# Faith") is a topic, and so is a
    subsection named only by words the prose writes in lower case ("## Snow", "## The Quay",
    "## Harbour Notes"); so is a heading's first word the prose never names alone ("## Church
    people")."""
    if candidate.mentions > 0 or candidate.defined:
        return True
    if candidate.cut_heading:
        return False  # "## Church people" names people, not a "Church" the prose never names
    if candidate.listed_in_section >= _LISTING:
        return False  # "## Money" over a list of people, "## The River Bank" over a table
    kind = candidate.plural_in_section and len(candidate.heading.split()) > 1
    if best_type(candidate) == "Other" and common_topic(candidate.heading, common) and not kind:
        return False  # "## Useful Phrases"; "## Marsh Lights" over "Pale lights that hover"
    words = [w.casefold() for w in candidate.heading.split() if w.casefold() != "the"]
    generic = any(w in GENERIC_HEADINGS for w in words) or candidate.common_in_section
    nested = " > " in candidate.heading_path
    if nested and generic and all(w in common | GENERIC_HEADINGS for w in words):
        return False
    return candidate.heading_path in leaves and not re.search(r"\s(?:and|&)\s", candidate.heading)


def _build(kept: dict[str, Candidate], known: EntityResolver) -> ProseFinds:
    titles = title_counts(kept)
    entities: list[Entity] = []
    aliases: dict[str, dict[str, bool]] = {}
    taken: set[str] = set()
    folds = KnownFolds(known, known.entities())
    for key in sorted(kept):
        candidate = kept[key]
        name = display_name(candidate)
        already = _known_already(name, candidate, known)
        owner = already or folds.owner(candidate)
        if owner is None and title_only(name) and not _title_nickname(name, candidate, titles):
            continue  # "Mr", "Esq", "Acting Marshal": a role no fold gave to one person
        if owner is None and folds.shared_title(candidate):
            continue  # "the Captain" beside two listed captains: one of them, never said which
        if owner is None and folds.person_of_listed(candidate):
            continue  # "Jack Rooke of the Thames River Police": two listed names, no third
        if owner is not None:
            grown = aliases.setdefault(owner, {})
            found = _fold_aliases(name, candidate)
            if already:  # only the full names of a known person ("Frankie Moretti"), a
                # known place's name turned round ("Mesa del Cuervo" of Cuervo Mesa), its
                # listed name under other titles ("Sect Master Meng") or its misspelt
                # surname the prose merged in ("Father Reyez")
                found = {
                    a: p
                    for a, p in found.items()
                    if folds.full_name_of(already, a)
                    or folds.turned_name_of(already, a)
                    or folds.titled_form_of(already, a)
                } | folds.misspelt_forms(already, found)
            elif owner == folds.title_bearer(candidate):  # "the Don": the gazetteer's title
                found = {}
            elif owner == folds.titled_name(candidate):  # "Señora Soto", not a stray "Señora"
                found = folds.named_forms(found)
            elif owner == folds.office_holder(candidate):  # "Humph's Secretary", no "Humph's"
                found = folds.office_forms(candidate, found)
            elif owner == folds.sound_alike(candidate):  # "Marshal Crain", not its strays
                found = folds.misheard_forms(owner, found)
            elif owner == folds.office_after(candidate):  # "Hannah Rooke Quartermaster"
                found = {}
            elif owner in (
                folds.own_titled_name(candidate),
                folds.part_of_name(candidate),
                folds.surname_called(candidate),
            ):
                found = {a: p for a, p in found.items() if len(a.split()) > 1}  # no "Boyar"
            elif owner == folds.head_of_name(candidate):  # "the Thief", not "Thief"
                found = {f"the {name.removeprefix('the ')}": candidate.party}
            # "Sister Calla of the Order of the Ember" is no alias: the order is named apart
            found = {a: p for a, p in found.items() if not _names_another(a, owner, known)}
            for alias, party in found.items():
                grown[alias] = grown.get(alias, False) or party
            continue
        entity_id = _free(slugify(name), taken, known)
        taken.add(entity_id)
        candidate.aliases = {  # "Volga" is never called "the Swan" the list gives Halszka
            a: p for a, p in candidate.aliases.items() if known.resolve(a) is None
        }
        entities.append(_entity(entity_id, name, candidate, titles))
    return ProseFinds(entities, aliases)


def _names_another(alias: str, owner: str, known: EntityResolver) -> bool:
    """Whether ``alias`` holds an "of" phrase naming another known entity."""
    _head, of, tail = alias.partition(" of ")
    return bool(of) and (found := known.resolve(tail)) is not None and found != owner


def _fold_aliases(name: str, candidate: Candidate) -> dict[str, bool]:
    """The forms a folded prose name adds to the known entity (alias → stated in a party
    chunk): the name as written ("Frankie Moretti", "Captain of the Seventh"), in the
    possessive when the prose writes it so ("St Agatha's"), and the forms merged into it
    ("Okafor" of "Rennie Okafor")."""
    written = " ".join([*candidate.titles[:1], name])
    if 2 * candidate.possessive > candidate.mentions:
        written = f"{written}'s"
    return {**candidate.aliases, written: candidate.party}


def _known_already(name: str, candidate: Candidate, known: EntityResolver) -> str | None:
    """The id of the entity a structured source already defines under a form the prose wrote
    the candidate in: "Jarl Eydis Brandsdottir" of the name list is the prose's "Eydis
    Brandsdottir" with the title "Jarl" kept apart; "Isobe", written "Isobe-sama" too, is the
    list's Isobe Gendayū (alias "Isobe-sama")."""
    forms = [name, *(f"{title} {name}" for title in candidate.titles), *candidate.surfaces]
    forms += [alias for alias in candidate.aliases if honorific(alias)]
    forms += [f"{title} {surface}" for title in candidate.titles for surface in candidate.surfaces]
    return next((found for form in forms if (found := known.resolve(form)) is not None), None)


def _free(wanted: str, taken: set[str], known: EntityResolver) -> str:
    entity_id, n = wanted, 2
    while entity_id in taken or entity_id in known:
        entity_id, n = f"{wanted}-{n}", n + 1
    return entity_id


def _entity(entity_id: str, name: str, c: Candidate, titles: dict[str, int]) -> Entity:
    visibility: Visibility = "party" if c.party else "gm"
    for alias in title_aliases(name, c.titles, titles):
        c.aliases.setdefault(alias, c.party)
    own = normalise_name(name)
    aliases = {a: party for a, party in c.aliases.items() if normalise_name(a) != own}
    public = c.description is not None and (c.description[0] or not c.party)
    return Entity(
        id=entity_id,
        name=name,
        type=best_type(c),
        aliases=tuple(sorted(a for a, party in aliases.items() if party or not c.party)),
        gm_aliases=tuple(sorted(a for a, party in aliases.items() if c.party and not party)),
        visibility=visibility,
        description=c.description[2] if c.description and public else "",
        sources=tuple(dict.fromkeys(c.paths[:1])),
    )
