"""Prose names that are another form of an entity a structured source (a name list, a world
pack) already defines: they fold into it, its aliases grow, and no second entity stands beside
it.

A prose name folds into the one listed entity when it is

- a listed person's alias or short given name with that person's surname: "Frankie Moretti" of
  Frank Moretti (alias "Frankie"), "Mickey Brennan" of Michael Brennan ("Mickey" shortens
  Michael);
- an office over a place or group whose title one listed person bears ("Captain of the
  Seventh" of the one person listed as "the Captain"), a listed place's or thing's name with
  an "of" phrase after it ("Alderman Museum of Maritime History" of The Alderman Museum); a
  person's name with one ("Calla of the Order of the Ember") stays as it is;
- an office qualified by a place word ("Town Magistrate", "Town Magistrate of Kurogawa")
  of the one listed person who goes by the office alone ("the Magistrate");
- a place's or group's name that ends exactly one listed place's or group's name (not an
  alias) after a capitalised word of it: "Boatmen's Guild" of The Kurogawa Boatmen's Guild;
- a lone surname, untitled, of exactly one listed person and no other listed name: "Moretti";
  a family name counts as one where the list shows it is written first ("Isobe" of Isobe
  Gendayū, alias "Isobe-sama": :func:`~extraction.honorifics.family_name_first`);
- the English of a listed person's alias joined by the particle "no": "Gonzō of the Kawasemi"
  of Gonzō, alias "Kawasemi no Gonzō";
- a lone surname with a title, of exactly one listed person whose titles agree: "Major
  Sokolova" of Major Tamara Sokolova (never a GM-only person for a name the party reads);
- a name written mostly in the possessive that opens exactly one listed place's or group's
  name, is one of its names, or (with its title) ends a listed place's name after "of", when
  the prose types it as no person: "St Agatha's" of St Agatha's Infirmary, "St Barbara's"
  of The Chapel of St Barbara;
- a person's name whose surname is a misheard spelling of exactly one listed person's
  (:mod:`extraction.sound_alike`), the rest of the name agreeing: "Reverend Teeg" of Reverend
  Absalom Teague, "Tomás Villanova" of Tomás Villanueva, "Miss Sabel" of Harriet Sable. Only
  a spelling no listed name holds folds (two listed people "Hale" and "Hall" stay two), never
  a name the party reads into a GM-only person, and the fold brings only the misheard
  spellings along (:meth:`KnownFolds.misheard_forms`);
- a title one listed entity alone bears, written alone: "the Don" of Diego de Alvarado
  (alias "Don Diego"), "the Governor" of Sir Humphrey Blount ("Governor Blount")
  (:func:`graphrag_core.titles.borne_titles`; "the Captain" beside Captain Tench and Captain
  Mott is nobody's). It adds no alias: the gazetteer finds "the Don" as the title it is
  (:mod:`extraction.gazetteer`), and an alias "Don" would be anyone called Don;
- a listed person's name or alias, untitled, with titles or words of address before it: "Don
  Diego de Alvarado" of Diego de Alvarado, "Teniente Mateo Ruiz" of Mateo Ruiz ("Teniente
  Ruiz"), "Señora Ybarra" of Doña Inés Ybarra ("Mrs Ybarra"); a lone surname only where the
  titles agree ("Brother Silas" is not "Old Silas" the captain); never titles alone ("Acting
  Marshal" is whoever acts, not the listed "the Marshal");
- "<someone>'s <Office>" where the list calls exactly one person "the <Office>": "Humph's
  Secretary" of Lucas Hale ("the Secretary"); only the forms ending with the office come
  along;
- someone's listed thing, place or group with the owner before it in the possessive:
  "Mixcoatl's Cacao Ledger" of The Cacao Ledger, "Boss Yan's Salt River Gang" of The Salt
  River Gang (:meth:`KnownFolds.owned_thing`);
- a listed person's name or alias with an office word after it, as a vote writes it ("Silas
  Tench being chosen Captain and Hannah Rooke Quartermaster"): that person; the form is no
  name of theirs and adds no alias;
- a place's or group's name written "<head> of <tail>" (or with "de", "del", "di", "du")
  where one listed place or group is named "<tail> <head>": "Mesa del Cuervo" of Cuervo
  Mesa; a person's the other way round ("Tushino Thief" of The Thief of Tushino), and the
  head alone after "the" ("the Thief");
- a listed person's name or alias after words that are titles or that person's own
  one-word names: "Boyar Vasily Semyonovich Morozov" of the person listed as "the Boyar"
  (:meth:`KnownFolds.own_titled_name`), or words their own aliases put before a name of
  theirs ("Messer Agnolo di Bernardo Ridolfini" of the man listed as "Messer Agnolo");
- the first words of a listed person's name of three words or more ("Xenia Vasilyevna" of
  Xenia Vasilyevna Morozova), or a listed given name and surname with names between them
  ("Vasily Semyonovich Morozov" of Vasily Morozov); a lone given name no other listed name
  holds ("Your friend, Savva." of Savva Lukyanovich Kotov), or the one an alias writes with
  the surname ("Tom" of Thomas Aldworth, alias "Tom Aldworth"), or a word no other listed
  name holds that two of one person's names hold ("Bibi" of "Zeenat Bibi", "Bibi Zeenat");
- a name ending with a listed person's surname or one-word name that the prose also calls
  it by alone, an office the list does not know before it: "Oberinspektor Roth" (written
  "Roth" too) of Ferdinand Roth, alias "Roth".

A prose entity that stays apart never takes a name or alias the list gives another entity
("they call her the Swan" after "the Volga" does not make the river the Swan).

Anything else stays a prose entity of its own (none or several fit: no guess).
"""

from __future__ import annotations

from collections.abc import Sequence

from extraction.honorifics import family_name_first
from extraction.nicknames import pet_form
from extraction.prose_candidates import Candidate, best_type, display_name
from extraction.prose_names import (
    HONORIFICS,
    TITLE_MODIFIERS,
    inverted_name,
    is_possessive,
    is_title,
)
from extraction.prose_types import noun_type
from extraction.resolution import EntityResolver
from extraction.slugs import normalise_name
from extraction.sound_alike import ADDRESS_SEXES, leading_titles, sounds_alike, titles_agree
from graphrag_core.models import Entity
from graphrag_core.titles import OFFICE_TITLES, borne_titles, title_bearers

_PEOPLE = ("NPC", "PC")
_PLACES = ("Location", "Faction")


class KnownFolds:
    """The listed entities a prose candidate may be another form of."""

    def __init__(self, known: EntityResolver, listed: Sequence[Entity]) -> None:
        self._known = known
        self._listed = listed
        self._people = [e for e in listed if e.type in _PEOPLE]
        self._words: dict[str, int] = {}  # word -> how many listed entities' names hold it
        for entity in listed:
            words = {w for n in (entity.name, *entity.aliases) for w in normalise_name(n).split()}
            for word in words:
                self._words[word] = self._words.get(word, 0) + 1
        every_name = [(e.id, (e.name, *e.aliases, *e.gm_aliases)) for e in listed]
        self._titles = borne_titles(every_name)
        self._open_titles = borne_titles(
            (e.id, (e.name, *e.aliases)) for e in listed if e.visibility == "party"
        )
        self._shared = {t for t, ids in title_bearers(every_name).items() if len(ids) > 1}
        self._untitled: dict[str, set[str]] = {}  # a person's name or alias, untitled -> ids
        self._people_words: dict[str, int] = {}  # word -> how many listed people's names hold it
        for person in self._people:
            for word in {w for n in (person.name, *person.aliases) for w in _words_of(n)}:
                self._people_words[word] = self._people_words.get(word, 0) + 1
        for person in self._people:
            for form in (person.name, *person.aliases):
                rest = _untitled(form.split())[1]
                if not all(_titled(word) for word in rest):  # not "the Marshal"
                    self._untitled.setdefault(normalise_name(" ".join(rest)), set()).add(person.id)
        self._own_titles = {  # a person's one-word names ("the Boyar", "the Ataman")
            p.id: {normalise_name(n) for n in (p.name, *p.aliases) if len(_article_dropped(n)) == 1}
            | _address_words(p)
            for p in self._people
        }

    def owner(self, candidate: Candidate) -> str | None:
        """The id of the one listed entity ``candidate`` is another form of, or ``None``."""
        name = display_name(candidate)
        kind = best_type(candidate)
        words = name.split()
        if words and words[0].casefold() == "the":
            words = words[1:]
        written = " ".join([*candidate.titles[:1], *words])  # "Foreman of the Night" + "Shift"
        for found in (
            self.title_bearer(candidate),
            self.titled_name(candidate),
            self._alias_and_surname(words, kind),
            self._of_phrase(" ".join(words), kind),
            self._of_phrase(written, kind),
            self._place_office(words, kind),
            self._place_office(" ".join(words).partition(" of ")[0].split(), kind),
            self._listed_tail(words, kind),
            self._inverted(words, kind),
            self._surname(words, candidate, kind),
            self._titled_surname(words, candidate, kind),
            self._possessive(candidate, kind),
            self.owned_thing(candidate),
            self.office_holder(candidate),
            self.sound_alike(candidate),
            self.office_after(candidate),
            self._arabic_name(words, kind),
            self.own_titled_name(candidate),
            self.part_of_name(candidate),
            self.head_of_name(candidate),
            self.surname_called(candidate),
        ):
            if found is not None:
                return found
        return None

    def title_bearer(self, candidate: Candidate) -> str | None:
        """The one listed entity bearing the title ``candidate`` is, written alone ("the
        Don", "Governor"); none for a name the prose types as no person ("dined at the
        Admiral"), nor a GM-only bearer (or one bearing it only in a GM alias) for a title
        the party reads."""
        words = _article_dropped(display_name(candidate))
        if len(words) != 1 or best_type(candidate) not in (*_PEOPLE, "Other"):
            return None
        title = words[0].casefold()
        found = self._titles.get(title)
        if found is None or (candidate.party and self._open_titles.get(title) != found):
            return None
        return found

    def shared_title(self, candidate: Candidate) -> bool:
        """Whether ``candidate`` is a title alone that two listed entities or more bear: "the
        Captain" beside Captain Tench and Captain Mott is one of them, the prose does not say
        which, and no one else."""
        words = _article_dropped(display_name(candidate))
        return len(words) == 1 and words[0].casefold() in self._shared

    def titled_name(self, candidate: Candidate) -> str | None:
        """A listed person's name or alias, without the titles either writes, with titles
        or words of address before it ("Don Diego de Alvarado" of Diego de Alvarado, "Señora
        Ybarra" of "Mrs Ybarra"): the one person named so; a lone word only where the titles
        agree (:func:`titles_agree`); never a GM-only person for a name the party reads."""
        titles, rest = _untitled(display_name(candidate).split())
        titles = [*candidate.titles, *titles]
        kind = best_type(candidate)
        if not titles or all(_titled(w) for w in rest) or kind not in (*_PEOPLE, "Other"):
            return None
        fits = [
            person
            for entity_id in sorted(self._untitled.get(normalise_name(" ".join(rest)), ()))
            if (person := self._person(entity_id)) is not None
            and (len(rest) > 1 or self._lone_word_of(rest[0], titles, person))
        ]
        if len(fits) != 1 or (candidate.party and fits[0].visibility != "party"):
            return None
        return fits[0].id

    def own_titled_name(self, candidate: Candidate) -> str | None:
        """A listed person's name or alias with words before it that are titles or that
        person's own one-word names: "Boyar Vasily Semyonovich Morozov" and "Rotmistrz Jan
        Zborowski" of the people listed as "the Boyar" and "the Rotmistrz", "Ataman Sych" of
        Kondraty Sych ("the Ataman", "Sych"). A lone word after them only where one of the
        words before it is the person's own ("Anna Maria Smith" is no "Maria Smith" unless
        the list calls her "the Anna"); never a GM-only person for a name the party reads."""
        words = _article_dropped(display_name(candidate))
        if len(words) < 2 or best_type(candidate) not in (*_PEOPLE, "Other"):
            return None
        fits: set[str] = set()
        for cut in range(1, len(words)):
            head, rest = [normalise_name(w) for w in words[:cut]], words[cut:]
            for entity_id in self._untitled.get(normalise_name(" ".join(rest)), ()):
                own = self._own_titles.get(entity_id, set())
                if not any(w in own for w in head):
                    continue  # titles alone are :meth:`titled_name`'s
                if all(w in own or _titled(w) for w in head):
                    fits.add(entity_id)
        return self._the_one(fits, candidate)

    def part_of_name(self, candidate: Candidate) -> str | None:
        """A listed person's name of three words or more written with its first words only
        ("Xenia Vasilyevna" of Xenia Vasilyevna Morozova), or a name that writes a listed
        person's given name and surname with other names between them ("Vasily Semyonovich
        Morozov" of Vasily Morozov): the one person it fits, untitled words only; never a
        GM-only person for a name the party reads."""
        words = [normalise_name(w) for w in _article_dropped(display_name(candidate))]
        if len(words) < 2 or candidate.titles or best_type(candidate) not in (*_PEOPLE, "Other"):
            return None
        if any(_titled(w) for w in words):
            return None
        fits = set()
        for listed_person in self._people:
            listed = [normalise_name(w) for w in _plain(listed_person.name)]
            if len(listed) >= 3 and len(words) < len(listed) and listed[: len(words)] == words:
                fits.add(listed_person.id)  # "Xenia Vasilyevna"
            elif 2 <= len(listed) < len(words) and (words[0], words[-1]) == (listed[0], listed[-1]):
                fits.add(listed_person.id)  # "Vasily Semyonovich Morozov"
        return self._the_one(fits, candidate)

    def owned_thing(self, candidate: Candidate) -> str | None:
        """Someone's listed thing, place or group, its owner written before it in the
        possessive: "Mixcoatl's Cacao Ledger" of The Cacao Ledger, "the Speaker's Quetzal
        Headdress" of The Quetzal Headdress, "Boss Yan's Salt River Gang" of The Salt River
        Gang: the one listed entity, no person, whose name or alias the words after the
        possessive are; not for a name the prose types as a person's or that has "of" before
        the possessive ("Old Eight of the Beggars' Guild"), never a GM-only one (nor a GM
        alias) for a name the party reads."""
        words = _article_dropped(display_name(candidate))
        cut = next((i for i, w in enumerate(words[:-1]) if is_possessive(w)), None)
        if cut is None or best_type(candidate) in _PEOPLE or "of" in words[:cut]:
            return None  # "Old Eight of the Beggars' Guild" is someone of it
        found = self._known.resolve(" ".join(words[cut + 1 :]), include_gm=not candidate.party)
        entity = self._known.get(found) if found else None
        if entity is None or entity.type in _PEOPLE:
            return None
        if candidate.party and entity.visibility != "party":
            return None
        return entity.id

    def _the_one(self, fits: set[str], candidate: Candidate) -> str | None:
        """The one listed person of ``fits``; none when there are more, nor a GM-only one for
        a name the party reads."""
        person = self._person(fits.pop()) if len(fits) == 1 else None
        if person is None or (candidate.party and person.visibility != "party"):
            return None
        return person.id

    def head_of_name(self, candidate: Candidate) -> str | None:
        """A lone word, written after "the" mostly, that opens exactly one listed person's
        name or alias of the form "<Head> of <Tail>": "the Thief" of The Thief of Tushino,
        "the Lady" of the Lady of the Lake; party-read names only, and no listed entity is
        called by the word alone."""
        words = _article_dropped(display_name(candidate))
        if len(words) != 1 or best_type(candidate) not in (*_PEOPLE, "Other"):
            return None
        if 2 * candidate.after_the <= candidate.mentions or candidate.titles:
            return None
        head = normalise_name(words[0])
        if self._known.resolve(words[0], include_gm=False) is not None:
            return None
        fits = {
            p.id
            for p in self._people
            if p.visibility == "party"
            for n in (p.name, *p.aliases)
            if (parts := _article_dropped(n))
            and len(parts) > 2
            and parts[1] == "of"
            and normalise_name(parts[0]) == head
        }
        return fits.pop() if len(fits) == 1 else None

    def surname_called(self, candidate: Candidate) -> str | None:
        """A name ending with a listed person's one-word name that the prose also calls it by
        alone: "Oberinspektor Roth", written "Roth" too, of Ferdinand Roth (alias "Roth");
        "CDR GALE" of Commander Rupert Gale. The words before it are an office the list does
        not know; never a GM-only person for a name the party reads."""
        words = _article_dropped(display_name(candidate))
        if len(words) < 2 or best_type(candidate) not in (*_PEOPLE, "Other"):
            return None
        last = normalise_name(words[-1])
        if not any(normalise_name(a) == last for a in candidate.aliases):
            return None
        person = self._person(self._known.resolve(words[-1], include_gm=not candidate.party))
        if person is None or last not in (_surname(person.name), *self._own_titles[person.id]):
            return None
        return person.id

    def _lone_word_of(self, word: str, titles: list[str], person: Entity) -> bool:
        """Whether a titled lone word ("Señora Ybarra") is ``person``'s: no other listed
        person's name holds it ("Herr Kranz" beside Otto Kranz and "Frau Kranz"), and the
        titles agree (:func:`titles_agree`)."""
        if self._people_words.get(normalise_name(word)) != 1:
            return False
        return titles_agree([t for t in titles if is_title(t)], _titles(person))

    @staticmethod
    def named_forms(found: dict[str, bool]) -> dict[str, bool]:
        """The forms of a :meth:`titled_name` fold that name someone, not titles alone (a
        stray "Señora" of "Señora Soto")."""
        return {a: p for a, p in found.items() if not all(_titled(w) for w in a.split())}

    def office_holder(self, candidate: Candidate) -> str | None:
        """The one listed person the list calls "the Secretary" for "Humph's Secretary" (never
        a GM-only one for a name the party reads)."""
        office = _possessed_office(display_name(candidate))
        if office is None or best_type(candidate) not in (*_PEOPLE, "Other"):
            return None
        fits = [
            p
            for p in self._people
            if any(
                [w.casefold() for w in a.split()] == ["the", office.casefold()] for a in p.aliases
            )
        ]
        if len(fits) != 1 or (candidate.party and fits[0].visibility != "party"):
            return None
        return fits[0].id

    def office_after(self, candidate: Candidate) -> str | None:
        """The one listed person whose name or alias an office word follows ("Hannah Rooke
        Quartermaster" of "... chosen Captain and Hannah Rooke Quartermaster"): the person,
        given the office; never a GM-only person for a name the party reads. A place or a
        thing named so ("the Pirate King") is no listed name with an office after it."""
        words = _article_dropped(display_name(candidate))
        if len(words) < 2 or words[-1].casefold() not in OFFICE_TITLES or candidate.titles:
            return None
        if best_type(candidate) not in (*_PEOPLE, "Other"):
            return None
        named = " ".join(words[:-1])
        return self._person_id(self._known.resolve(named, include_gm=not candidate.party))

    def office_forms(self, candidate: Candidate, found: dict[str, bool]) -> dict[str, bool]:
        """The forms of an :meth:`office_holder` fold that end with the office ("Old Humph's
        Secretary", "Humph's Secretary"), not the merged strays ("Humph's", "Secretary")."""
        office = _possessed_office(display_name(candidate))
        forms = {**found, **dict.fromkeys(candidate.surfaces, candidate.party)}
        return {a: p for a, p in forms.items() if len(a.split()) > 1 and a.split()[-1] == office}

    def full_name_of(self, entity_id: str, name: str) -> bool:
        """Whether ``name`` is a full name of the listed person ``entity_id``: two words or
        more ending with its surname, its given name written as it is or as a pet form
        ("Frankie Moretti" of Frank Moretti)."""
        person = self._person(entity_id)
        words = _plain(name)
        given = _given(person.name) if person is not None else None
        if person is None or given is None or len(words) != 2:
            return False
        same = words[0].casefold() == given.casefold() or pet_form(words[0], given)
        return same and words[1].casefold() == _surname(person.name)

    def titled_form_of(self, entity_id: str, name: str) -> bool:
        """Whether ``name`` is a listed person's name or alias with other titles before it
        ("Sect Master Meng" of Meng Jinghong, listed as "Elder Meng"): its untitled rest is
        that person's alone and the titles can be theirs (:func:`titles_agree`)."""
        titles, rest = _untitled(name.split())
        person = self._person(entity_id)
        if not titles or person is None:
            return False
        address = {t.casefold().rstrip(".") for t in titles} & ADDRESS_SEXES.keys()
        theirs = {t.casefold().rstrip(".") for t in _titles(person)}
        if address and not address <= theirs:
            return False  # "Mrs Villanueva" of Tomás Villanueva: maybe his mother
        owners = self._untitled.get(normalise_name(" ".join(rest)), set())
        return owners == {entity_id} and titles_agree(
            [t for t in titles if is_title(t)], _titles(person)
        )

    def turned_name_of(self, entity_id: str, name: str) -> bool:
        """Whether ``name`` is the listed place's or group's name turned round ("Mesa del
        Cuervo" of Cuervo Mesa: :func:`~extraction.prose_names.inverted_name`)."""
        entity = self._known.get(entity_id)
        turned = inverted_name(name)
        if entity is None or entity.type not in _PLACES or turned is None:
            return False
        return normalise_name(turned) in {normalise_name(n) for n in (entity.name, *entity.aliases)}

    def _arabic_name(self, words: list[str], kind: str) -> str | None:
        """The one listed person whose Arabic name ``words`` are parts of, opening with the
        person's given name (the ism) or a kunya: "Bishr ibn Ghalib" and "Bishr Abu Kilab" of
        Bishr ibn Ghalib al-Karkhi (alias "Abu Kilab"), "Abu Isa of the Banu Qustanta" of
        Mikha'il ibn Qustanta (alias "Abu Isa"). Only names and party-read aliases count: the
        GM-only ones are never told."""
        if len(words) < 2 or kind not in (*_PEOPLE, "Other"):
            return None
        head, _of, clan = " ".join(words).partition(" of the Banu ")
        parts = normalise_name(f"{head} {clan}").split()
        if not _ARABIC_WORDS & set(parts) and not any(w.startswith(_ARTICLES) for w in words):
            return None
        fits = set()
        for person in self._people:
            names = (person.name, *person.aliases)
            known = {w for n in names for w in normalise_name(n).split()}
            given = normalise_name(_article_dropped(person.name)[0])
            if set(parts) <= known and parts[0] in (given, *_KUNYA_HEADS):
                fits.add(person.id)
        return fits.pop() if len(fits) == 1 else None

    def _person(self, entity_id: str | None) -> Entity | None:
        entity = self._known.get(entity_id) if entity_id else None
        return entity if entity is not None and entity.type in _PEOPLE else None

    def _alias_and_surname(self, words: list[str], kind: str) -> str | None:
        if len(words) < 2 or kind not in (*_PEOPLE, "Other"):
            return None
        surname = words[-1].casefold()
        head = self._person(self._known.resolve(" ".join(words[:-1]), include_gm=False))
        if head is not None and _surname(head.name) == surname:
            return head.id
        if len(words) != 2:
            return None
        fits = {
            p.id
            for p in self._people
            if _surname(p.name) == surname
            and (given := _given(p.name)) is not None
            and pet_form(words[0], given)
        }
        return fits.pop() if len(fits) == 1 else None

    def _of_phrase(self, name: str, kind: str) -> str | None:
        head, of, _rest = name.partition(" of ")
        if not of or not head:
            return None
        found = self._known.resolve(head, include_gm=False)
        entity = self._known.get(found) if found else None
        office = len(head.split()) == 1 and is_title(head)
        if entity is not None and _particle_form(name, entity):
            return entity.id  # "Gonzō of the Kawasemi" of Gonzō, alias "Kawasemi no Gonzō"
        if entity is None or (entity.type in _PEOPLE and not office):
            return None  # "Calla of the Order of the Ember" names her with her order: kept
        if entity.type == kind or kind == "Other" or (entity.type in _PEOPLE and kind in _PEOPLE):
            return entity.id
        return None

    def person_of_listed(self, candidate: Candidate) -> bool:
        """Whether ``candidate`` is a listed person's name or alias (or lone surname) with an
        "of" phrase naming another listed entity ("Sergeant Jack Rooke of the Thames River
        Police", "Sister Calla of the Order of the Ember", "Kettering of the Rustline"): both
        are named already, so it is no entity of its own, nor the person's alias (the group is
        named apart; :meth:`_of_phrase`)."""
        head, of, tail = display_name(candidate).partition(" of ")
        if not of or not head or not tail:
            return False
        include_gm = not candidate.party
        person = self._known.resolve(" ".join([*candidate.titles[:1], head]), include_gm=include_gm)
        person = person or self._known.resolve(head, include_gm=include_gm)
        person = person or self._lone_surname(head)  # "Kettering of the Rustline"
        group = self._known.resolve(tail, include_gm=include_gm)
        return self._person_id(person) is not None and group is not None and group != person

    def _lone_surname(self, word: str) -> str | None:
        """The one listed person whose surname (or family name) ``word`` is, where no other
        listed name holds the word."""
        lone = normalise_name(word)
        fits = None if " " in lone else self._surname_fits(lone)
        return fits[0] if fits and len(fits) == 1 else None

    def _surname_fits(self, lone: str) -> list[str] | None:
        """The listed people whose surname (or family name) ``lone`` is; ``None`` when the
        word is shorter than three letters or another listed name holds it too."""
        if len(lone) < 3 or self._words.get(lone) != 1:
            return None
        return [p.id for p in self._people if lone in (_surname(p.name), _family_name(p))]

    def _place_office(self, words: list[str], kind: str) -> str | None:
        """An office of a place ("Town Magistrate", "Town Magistrate of Kurogawa") whose
        office alone ("the Magistrate") one listed person goes by: that person. Only a place
        word qualifies it: a "Deputy Marshal" is not the listed "the Marshal"."""
        if len(words) != 2 or kind not in (*_PEOPLE, "Other"):
            return None
        if noun_type(words[0]) != "Location" or noun_type(words[1]) != "NPC":
            return None
        return self._person_id(self._known.resolve(f"the {words[1]}", include_gm=False))

    def _listed_tail(self, words: list[str], kind: str) -> str | None:
        """A place's or group's name of two words or more that ends exactly one listed place's
        or group's name, which goes on before it: "Boatmen's Guild" of The Kurogawa Boatmen's
        Guild. None when two fit ("Merchants' Guild" beside a Northern and a Southern one).
        Only the listed name counts, not an alias: an alias may describe the thing by where it
        is ("the Sai Wan Container Terminal" of Berth 14 does not make every container
        terminal that berth)."""
        if len(words) < 2 or kind not in (*_PLACES, "Other"):
            return None
        tail = normalise_name(" ".join(words))
        fits = {
            e.id
            for e in self._listed
            if e.type in _PLACES and (kind == "Other" or e.type == kind)
            if _name_goes_on_before(e.name, tail)
        }
        return fits.pop() if len(fits) == 1 else None

    def _inverted(self, words: list[str], kind: str) -> str | None:
        """A place's or group's name written "<head> of <tail>" in another tongue or in
        English ("Mesa del Cuervo", "Isle of Skerra") where one listed place or group is
        named "<tail> <head>" ("Cuervo Mesa", "Skerra Isle"): that one
        (:func:`~extraction.prose_names.inverted_name`)."""
        turned = inverted_name(" ".join(words))
        if kind in _PEOPLE or (kind == "Other" and turned is None):
            return self._inverted_person(words)
        if kind not in (*_PLACES, "Other") or turned is None:
            return None
        wanted = normalise_name(turned)
        fits = {
            e.id
            for e in self._listed
            if e.type in _PLACES and any(normalise_name(n) == wanted for n in (e.name, *e.aliases))
        }
        return fits.pop() if len(fits) == 1 else None

    def _inverted_person(self, words: list[str]) -> str | None:
        """A person listed as "<head> of <tail>" written "<tail> <head>": "Tushino Thief" of
        The Thief of Tushino, "Dunmore Duke" of the Duke of Dunmore; party-read names only."""
        if len(words) < 2:
            return None
        wanted = normalise_name(" ".join(words))
        fits = {
            p.id
            for p in self._people
            if p.visibility == "party"
            and any(
                (turned := inverted_name(n)) is not None and normalise_name(turned) == wanted
                for n in (p.name, *p.aliases)
            )
        }
        return fits.pop() if len(fits) == 1 else None

    def _person_id(self, entity_id: str | None) -> str | None:
        person = self._person(entity_id)
        return person.id if person is not None else None

    def _surname(self, words: list[str], candidate: Candidate, kind: str) -> str | None:
        if len(words) != 1 or candidate.titles or kind not in ("NPC", "Other"):
            return None
        lone = words[0].casefold()
        fits = self._surname_fits(lone)
        if fits is None:
            return None
        if not fits:  # "Your friend, Savva." of Savva Lukyanovich Kotov; "Tom" of the man
            fits = [p.id for p in self._people if lone in _given_names(p)]  # "Tom Aldworth"
        if not fits:  # "Bibi" of the woman listed as "Zeenat Bibi" and "Bibi Zeenat"
            fits = [p.id for p in self._people if _names_holding(p, lone) >= 2]
        return fits[0] if len(fits) == 1 else None

    def _titled_surname(self, words: list[str], candidate: Candidate, kind: str) -> str | None:
        """A listed person's surname alone with a title they can bear ("Major Sokolova" of
        Major Tamara Sokolova, "Commander Gale" of Commander Rupert Gale): the one listed
        person of that surname whose titles agree (:func:`titles_agree`); none when two fit
        ("Herr Kranz" beside Otto and Agnes Kranz), nor a GM-only person for a name the
        party reads."""
        words = _plain(" ".join(words))
        titles = [*candidate.titles, *leading_titles(display_name(candidate))]
        if len(words) != 1 or not titles or kind not in (*_PEOPLE, "Other"):
            return None
        lone = normalise_name(words[0])
        fits = [
            p for p in self._people if _surname(p.name) == lone and titles_agree(titles, _titles(p))
        ]
        if len(fits) != 1 or (candidate.party and fits[0].visibility != "party"):
            return None
        return fits[0].id

    def sound_alike(self, candidate: Candidate) -> str | None:
        """The one listed person whose surname ``candidate``'s last word is a misheard
        spelling of, the rest agreeing: its given name, when it has one, is theirs (written
        whole or as a pet form), and its titles can be theirs (:func:`titles_agree`). None
        when the word is a word of any listed name (a real name, not a misspelling), when
        the candidate is typed as no person (or untyped without a title), when two people
        fit, or when the one that fits is GM-only and the party reads the name."""
        kind = best_type(candidate)
        words = _plain(display_name(candidate))
        person = kind in _PEOPLE or (kind == "Other" and bool(candidate.titles))
        if not person or not 1 <= len(words) <= 2 or candidate.heading:
            return None
        heard = normalise_name(words[-1])
        if self._words.get(heard):
            return None
        fits = [
            p
            for p in self._people
            if sounds_alike(heard, _surname(p.name) or p.name)
            and (len(words) == 1 or _same_given(words[0], _given(p.name)))
            and titles_agree(candidate.titles, _titles(p))
        ]
        if len(fits) != 1 or (candidate.party and fits[0].visibility != "party"):
            return None
        return fits[0].id

    def misheard_forms(self, entity_id: str, forms: dict[str, bool]) -> dict[str, bool]:
        """The forms of a sound-alike fold that hold the misheard surname, each also as the
        surname alone and out of the possessive ("Reverend Teeg's" gives "Reverend Teeg" and
        "Teeg", which "Where's Teeg preaching?" asks by); a stray alias the prose gave the
        misspelling is no name of the listed person."""
        person = self._person(entity_id)
        surname = _surname(person.name) if person is not None else ""
        kept: dict[str, bool] = {}
        for form, party in forms.items():
            plain = form.removesuffix("'s").removesuffix("’s")
            last = _plain(plain)[-1:]
            if not last or not sounds_alike(last[0], surname):
                continue
            for written in (plain, last[0]):
                kept[written] = kept.get(written, False) or party
        return kept

    def misspelt_forms(self, entity_id: str, forms: dict[str, bool]) -> dict[str, bool]:
        """The forms of :meth:`misheard_forms` whose surname is written otherwise than the
        listed person's ("Father Reyez" of Father Ignacio Reyes), the prose having merged them
        into the listed name itself; none whose word is a word of a listed name (a real name,
        not a misspelling)."""
        person = self._person(entity_id)
        surname = _surname(person.name) if person is not None else ""
        return {
            form: party
            for form, party in self.misheard_forms(entity_id, forms).items()
            if (last := normalise_name(_plain(form)[-1])) != surname and not self._words.get(last)
        }

    def _possessive(self, candidate: Candidate, kind: str) -> str | None:
        if kind in (*_PEOPLE, "Other") or 2 * candidate.possessive <= candidate.mentions:
            return None
        named = {
            normalise_name(f"{title} {surface}")
            for surface in candidate.surfaces
            for title in ("", *candidate.titles)
        }
        forms = {normalise_name(f"{form}'s") for form in named}
        saints = [form for form in named if " " in form]  # "st barbara" of "Chapel of St Barbara"
        fits = {
            e.id
            for e in self._listed
            if e.type in _PLACES
            for n in (e.name, *e.aliases)
            if any(normalise_name(n).startswith(f"{form} ") for form in forms)
            or normalise_name(n) in forms
            or (
                e.type == "Location" and any(normalise_name(n).endswith(f" of {f}") for f in saints)
            )
        }
        return fits.pop() if len(fits) == 1 else None


_KUNYA_HEADS = ("abu", "umm")
_ARABIC_WORDS = frozenset(("ibn", "bin", "bint", *_KUNYA_HEADS))
_ARTICLES = ("al-", "Al-", "l-")


def _address_words(person: Entity) -> set[str]:
    """The words a person's own aliases put before a name of theirs: "Messer" of "Messer
    Agnolo" (Agnolo di Bernardo Ridolfini), "Boss" of "Boss Kett" (Kett), "Ma" of "Ma
    Kettering" (Marta Kettering): titles they bear, whatever the language."""
    named = _words_of(person.name)
    found: set[str] = set()
    for alias in person.aliases:
        words = [normalise_name(w) for w in _article_dropped(alias)]
        if len(words) == 2 and words[1] in named and words[0] not in named:
            found.add(words[0])
    return found


def _words_of(name: str) -> set[str]:
    return set(normalise_name(name).split())


def _article_dropped(name: str) -> list[str]:
    words = name.split()
    return words[1:] if words and words[0].casefold() == "the" else words


def _titled(word: str) -> bool:
    """A title or a word of address ("Colonel", "Don", "Señora", "Teniente", "Mijnheer")."""
    folded = word.strip(".").casefold()
    return is_title(folded) or folded in HONORIFICS or folded in OFFICE_TITLES


def _untitled(words: list[str]) -> tuple[list[str], list[str]]:
    """The leading titles of a name (after "the") and the rest of it, which is never empty
    when the name is not: "Don Diego de Alvarado" is (["Don"], ["Diego", "de", "Alvarado"]),
    "the Widow Ybarra" (["Widow"], ["Ybarra"])."""
    words = _article_dropped(" ".join(words))
    titles: list[str] = []
    while len(words) > 1 and (
        _titled(words[0])
        or (words[0].casefold() in TITLE_MODIFIERS and len(words) > 2 and _titled(words[1]))
    ):  # "Sect Master Meng": a modifier before a title is of it
        titles.append(words.pop(0).strip("."))
    return titles, words


def _possessed_office(name: str) -> str | None:
    """The capitalised office of "Humph's Secretary" ("Secretary"), else None."""
    words = _article_dropped(name)
    if len(words) < 2 or not words[-1][:1].isupper():
        return None
    return words[-1] if is_possessive(words[-2]) else None


def _plain(name: str) -> list[str]:
    """The words of a person's name without its leading titles ("Captain Walter Doyle")."""
    words = name.split()
    while len(words) > 1 and is_title(words[0].strip(".")):
        words = words[1:]
    return words


def _surname(name: str) -> str:
    words = _plain(name)
    return words[-1].casefold() if len(words) > 1 else ""


def _name_goes_on_before(listed: str, tail: str) -> bool:
    """Whether the listed name ends with ``tail`` (normalised) after a capitalised word of
    its own: "The Kurogawa Boatmen's Guild" for "boatmens guild"; not "the rooming house on
    Cable Street", where the tail is where the place stands."""
    words = listed.split()
    size = len(tail.split())
    if len(words) <= size or normalise_name(" ".join(words[-size:])) != tail:
        return False
    return words[-size - 1][:1].isupper() and words[-size - 1].casefold() != "the"


def _family_name(person: Entity) -> str:
    """The family name of a listed person written family name first (:func:`family_name_first`:
    "isobe" of Isobe Gendayū, alias "Isobe-sama"), else ``""``."""
    if not family_name_first(person.name, (*person.aliases, *person.gm_aliases)):
        return ""
    return normalise_name(person.name.split()[0])


def _particle_form(name: str, entity: Entity) -> bool:
    """Whether ``name`` ("Gonzō of the Kawasemi") is the English of a listed person's alias
    joined by the Japanese particle "no" ("Kawasemi no Gonzō": Gonzō of the Kawasemi), the
    house or epithet before "no", the given name after it."""
    head, _of, tail = name.partition(" of ")
    house = normalise_name(tail)
    wanted = normalise_name(f"{house} no {normalise_name(head)}")
    return entity.type in _PEOPLE and any(
        normalise_name(alias) == wanted for alias in (entity.name, *entity.aliases)
    )


def _same_given(word: str, given: str | None) -> bool:
    if given is None:
        return False
    return normalise_name(word) == normalise_name(given) or pet_form(word, given)


def _titles(person: Entity) -> list[str]:
    """The titles a listed person is named with, in the name or a player-visible alias."""
    return [t for name in (person.name, *person.aliases) for t in leading_titles(name)]


def _names_holding(person: Entity, word: str) -> int:
    """How many of a person's name and aliases hold ``word`` (normalised)."""
    return sum(word in _words_of(n) for n in (person.name, *person.aliases))


def _given_names(person: Entity) -> set[str]:
    """The given names a person goes by: the first word of their name, and of an alias that
    ends with their surname ("Tom" of Thomas Aldworth, alias "Tom Aldworth")."""
    surname = _surname(person.name)
    found = {normalise_name(_given(person.name) or "")} - {""}
    for alias in person.aliases:
        words = _plain(alias)
        if len(words) == 2 and surname and words[-1].casefold() == surname:
            found.add(normalise_name(words[0]))
    return found


def _given(name: str) -> str | None:
    words = _plain(name)
    return words[0] if len(words) > 1 else None
