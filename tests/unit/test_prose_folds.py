"""One entity per thing beside a name list, and the right description (branch foldx).

A prose name that is another form of a listed entity folds into it (its aliases grow); a
sentence adverb opening a note is no name; a quoted nickname joins a person's names; a name
only mentioned is described by the phrase around it, never by another thing's definition.
Every text here is written for these tests (a sci-fi colony, a river town, a noir city); each
test fails on the code before its rule."""

from __future__ import annotations

import hashlib

from extraction.offline import extract
from extraction.prose_entities import description_rank, mentioned_in
from extraction.resolution import EntityResolver
from graphrag_core.models import Entity, Extraction, SourceDocument
from tests.unit.test_prose_campaigns import _named, _run


def _with_list(pack: str, prose: str) -> Extraction:
    docs = [
        SourceDocument(path="names.yaml", kind="worldpack", sha256="w", text=pack),
        SourceDocument(
            path="lore.md",
            kind="markdown",
            sha256=hashlib.sha256(prose.encode()).hexdigest(),
            text=prose,
        ),
    ]
    return extract(docs, chunk_size=1200)


_COLONY_LIST = """entities:
  - {id: ren-okafor, name: Ren Okafor, type: NPC, aliases: [Rennie, the Foreman]}
  - {id: meg-voss, name: Commander Margaret Voss, type: NPC, aliases: [Voss]}
  - {id: tam-quill, name: Tam Quill, type: NPC}
  - {id: lia-quill, name: Lia Quill, type: NPC}
  - {id: brigid-clinic, name: St Brigid's Clinic, type: Location, aliases: [the clinic]}
  - {id: deep-shaft, name: Deep Shaft Nine, type: Location}
  - {id: miners-union, name: The Miners' Union, type: Faction, aliases: [the Union]}
"""

_COLONY_NOTES = """# Kessler Deep

- Rennie Okafor runs the night shift on Deep Shaft Nine. Rennie Okafor never sleeps.
- Peggy Voss signs every ore manifest. Peggy Voss hates the Union.
- The Foreman of the Night Shift keeps the keys. The Foreman of the Night Shift drinks.
- The Union fined Okafor twice. Nobody likes Okafor.
- Tam Quill and Lia Quill fix the drills. Quill is a common name on the ring.
- Injured miners end up at St Brigid's, where the doctor is kind. We took Tam to St Brigid's.
"""


def test_a_listed_persons_alias_or_short_given_name_with_the_surname_folds_into_them() -> None:
    entities = {e.id: e for e in _with_list(_COLONY_LIST, _COLONY_NOTES).entities}
    names = {e.name for e in entities.values()}
    assert "Rennie Okafor" not in names and "Peggy Voss" not in names
    assert "Rennie Okafor" in entities["ren-okafor"].aliases  # alias "Rennie" + surname
    assert "Peggy Voss" in entities["meg-voss"].aliases  # "Peggy" is a short Margaret


def test_a_listed_name_with_an_of_phrase_and_a_lone_surname_fold_into_the_one_listed() -> None:
    entities = {e.id: e for e in _with_list(_COLONY_LIST, _COLONY_NOTES).entities}
    names = {e.name for e in entities.values()}
    assert "Foreman of the Night Shift" not in names and "Okafor" not in names
    assert {"Foreman of the Night Shift", "Okafor"} <= set(entities["ren-okafor"].aliases)
    assert "Quill" not in entities["tam-quill"].aliases + entities["lia-quill"].aliases


def test_a_possessive_place_cut_short_folds_into_the_listed_place_it_opens() -> None:
    entities = {e.id: e for e in _with_list(_COLONY_LIST, _COLONY_NOTES).entities}
    assert "Brigid" not in {e.name for e in entities.values()}
    assert "St Brigid's" in entities["brigid-clinic"].aliases


def test_a_possessive_person_stays_a_person() -> None:
    pack = "entities:\n  - {id: bo-garage, name: Bo's Garage, type: Location}\n"
    prose = "# Notes\n\nBo Tanner's truck broke. Bo Tanner's wife drove. Bo Tanner's dog ran.\n"
    names = {e.name for e in _with_list(pack, prose).entities}
    assert "Bo Tanner" in names


def test_a_sentence_adverb_opening_a_note_is_no_name() -> None:
    text = (
        "# Prep\n\n"
        "- Separately: the pump on Level Two fails in session three.\n"
        "- Separately: the foreman has not been seen in a week.\n"
        "- Unfortunately, the pump on Level Two has no spare. Unfortunately, nobody cares.\n"
        "- Otherwise: keep the miners calm. Otherwise, they strike.\n"
        "- Emily: wants the pump fixed. Emily pays in scrip.\n"
    )
    names = set(_named(_run(text)))
    assert not names & {"Separately", "Unfortunately", "Otherwise"}
    assert "Emily" in names  # a short given name in "-ly" stays a name


def test_a_nickname_quoted_between_given_name_and_surname_is_one_person() -> None:
    text = (
        "# The Docks\n\n"
        'Lucky Brennan runs the docks. His brother, Michael "Mickey" Brennan, carries a gun.\n'
        "Later Mickey came by the Anchor. Mickey laughed at Lucky Brennan.\n"
    )
    entities = _named(_run(text))
    assert "Mickey" not in entities and "Michael" not in entities
    assert {"Mickey", "Mickey Brennan"} <= set(entities["Michael Brennan"].aliases)


def test_a_change_sets_full_given_name_finds_the_person_written_short() -> None:
    resolver = EntityResolver(
        [
            Entity(id="mickey-brennan", name="Mickey Brennan", type="Other"),  # prose: untyped
            Entity(id="lucky-brennan", name="Lucky Brennan", type="NPC"),
            Entity(id="mick-hall", name="Mick Hall", type="Location"),
        ]
    )
    assert resolver.resolve_near("Michael Brennan", "npc") == "mickey-brennan"
    assert resolver.resolve_near("Michael Brennan", "Location") is None
    assert resolver.resolve_near("Michael Hall") is None  # a place is no person
    assert resolver.resolve_near("Sean Brennan") is None


def test_a_name_only_mentioned_is_described_by_the_phrase_around_it() -> None:
    text = (
        "# Primer\n\n"
        "Rivermouth is a muddy port town on the Coldwater delta, two days downriver from "
        "Ashby and a hundred years past its best.\n"
        "Rivermouth is ruled by a council of bargemen.\n"
        "We left for Ashby at dawn. The road to Ashby was long.\n"
        "The Coldwater floods every spring.\n"
    )
    entities = _named(_run(text))
    assert entities["Ashby"].description == "two days downriver from Ashby"
    assert entities["Rivermouth"].description.startswith("Rivermouth is a muddy port town")
    assert "port town" not in entities["Coldwater"].description


def test_the_subject_of_a_clause_or_an_inverted_copula_is_described_by_its_sentence() -> None:
    sentence = "At the top of the town stands the Longhall, its gables carved with serpents."
    at = sentence.index("Longhall")
    assert description_rank(sentence, at, at + len("Longhall")) == 1
    sentence = "For visitors with money, the Marlowe Hotel has a brass elevator."
    at = sentence.index("Marlowe Hotel")
    assert description_rank(sentence, at, at + len("Marlowe Hotel")) == 1
    sentence = "Agent Pike, up from Boston, a quiet man in a grey suit, took the ledger."
    at = sentence.index("Boston")
    assert description_rank(sentence, at, at + len("Boston")) == 0
    sentence = "The Boarding House on Cable Street is cheap and clean."
    at = sentence.index("Cable Street")
    assert description_rank(sentence, at, at + len("Cable Street")) == 0
    assert mentioned_in(sentence, at, at + len("Cable Street")) == (
        "The Boarding House on Cable Street"
    )


def test_a_pet_form_of_a_given_name_with_the_same_surname_is_one_person() -> None:
    text = (
        "# The Precinct\n\n"
        "Sergeant Frank Moretti keeps the desk. Frank Moretti remembers everything.\n"
        "Frankie Moretti bought us pie. Later Frankie Moretti slid us the report.\n"
        "Nell Moretti and Nellie Moretti are not the same woman: two fit nothing here.\n"
    )
    entities = _named(_run(text))
    assert "Frankie Moretti" not in entities
    assert "Frankie Moretti" in entities["Frank Moretti"].aliases


def test_a_persons_name_with_an_of_phrase_naming_a_listed_group_stays_apart() -> None:
    pack = (
        "entities:\n  - {id: calla, name: Sister Calla, type: NPC}\n"
        "  - {id: order, name: Order of the Ember, type: Faction}\n"
    )
    prose = (
        "# Notes\n\nSister Calla of the Order of the Ember came through town. Sister Calla of "
        "the Order of the Ember lent us a lantern.\n"
    )
    entities = {e.id: e for e in _with_list(pack, prose).entities}
    assert "Sister Calla of the Order of the Ember" not in entities["calla"].aliases
    # both are listed: the phrase is no third entity either (it names the two it joins)
    assert "Sister Calla of the Order of the Ember" not in {e.name for e in entities.values()}


_EMBASSY_LIST = """entities:
  - {id: tamara-sokolova, name: Major Tamara Sokolova, type: NPC, aliases: [Tamara, the Ice Queen]}
  - {id: rupert-gale, name: Commander Rupert Gale, type: NPC, aliases: [the Old Man]}
  - {id: otto-kranz, name: Otto Kranz, type: NPC, aliases: [Herr Ober]}
  - {id: agnes-kranz, name: Agnes Kranz, type: NPC, aliases: [Frau Kranz]}
  - {id: secret-kell, name: Colonel Ivo Kell, type: NPC, visibility: gm}
"""

_EMBASSY_NOTES = """# The rezidentura

- Major Sokolova runs counter-intelligence. Major Sokolova never smiles.
- Commander Gale signs the chits in London. Commander Gale wants results.
- Herr Kranz keeps the corner table. Herr Kranz knows everyone.
- Colonel Kell was seen at the Prater. Colonel Kell drinks tea.
"""


def test_a_listed_persons_surname_with_a_title_they_bear_folds_into_them() -> None:
    entities = {e.id: e for e in _with_list(_EMBASSY_LIST, _EMBASSY_NOTES).entities}
    names = {e.name for e in entities.values()}
    assert "Major Sokolova" not in names and "Commander Gale" not in names
    assert "Major Sokolova" in entities["tamara-sokolova"].aliases
    assert "Commander Gale" in entities["rupert-gale"].aliases
    # two listed people of that surname: no guess; a GM-only person takes no name players read
    assert all("Herr Kranz" not in entities[k].aliases for k in ("otto-kranz", "agnes-kranz"))
    assert "Colonel Kell" not in entities["secret-kell"].aliases


_HARBOUR_LIST = """entities:
  - {id: rodrigo-vera, name: Rodrigo de Vera, type: NPC, aliases: [Don Rodrigo, Capitán Vera]}
  - {id: amos-hartle, name: Sir Amos Hartle, type: NPC, aliases: [Governor Hartle, Old Amos]}
  - {id: ned-quill, name: Ned Quill, type: NPC, aliases: [Mr. Quill, the Secretary]}
  - {id: silas-tench, name: Silas Tench, type: NPC, aliases: [Captain Tench]}
  - {id: zeke-mott, name: Zeke Mott, type: NPC, aliases: [Captain Mott]}
  - {id: ines-soto, name: Doña Inés Soto, type: NPC, aliases: [Mrs Soto, the Widow Soto]}
  - {id: josiah-pell, name: Josiah Pell, type: NPC, aliases: [Commodore Pell], visibility: gm}
  - {id: hartle-house, name: Hartle House, type: Location, aliases: [the Governor's house]}
  - {id: luis-ortega, name: Luis Ortega, type: NPC, aliases: [Teniente Ortega]}
"""

_HARBOUR_NOTES = """# Port Saltash

- The Don keeps a brig in the roads. The Don pays in silver; nobody trusts the Don.
- The Governor sells letters of marque from the Governor's house. The Governor drinks.
- Don Rodrigo de Vera came ashore at dawn. Don Rodrigo de Vera hanged two men.
- Amos's Secretary copies every paper. Old Amos's Secretary hears everything.
- The Captain drank with the Captain of the watch. The Captain paid.
- Señora Soto buys sugar. Señora Soto sells rum.
- Teniente Luis Ortega reads the charts. Captain Silas Tench tears them up; Teniente Luis Ortega
  sulks and Captain Silas Tench laughs.
- The Commodore hangs pirates. The Commodore never smiles. The Commodore sails at noon.
- the governor of a colony is a busy man.
"""


def _harbour() -> Extraction:
    return _with_list(_HARBOUR_LIST, _HARBOUR_NOTES)


def test_a_title_one_listed_person_bears_is_that_person_not_a_new_entity() -> None:
    extraction = _harbour()
    entities = {e.id: e for e in extraction.entities}
    assert {"Don", "Governor"}.isdisjoint(e.name for e in entities.values())
    mentioned = {m for chunk in extraction.chunks for m in chunk.mentions}
    assert {"rodrigo-vera", "amos-hartle", "hartle-house"} <= mentioned
    # no alias "Don" nor "Governor": the gazetteer finds the title as a title, capitalised
    assert "Don" not in entities["rodrigo-vera"].aliases
    assert "Governor" not in entities["amos-hartle"].aliases


def test_a_listed_name_with_titles_before_it_is_that_person() -> None:
    entities = {e.id: e for e in _harbour().entities}
    names = {e.name for e in entities.values()}
    assert "Don Rodrigo de Vera" not in names and "Señora Soto" not in names
    assert "Teniente Luis Ortega" not in names and "Captain Silas Tench" not in names
    assert "Teniente Luis Ortega" in entities["luis-ortega"].aliases
    assert "Don Rodrigo de Vera" in entities["rodrigo-vera"].aliases
    assert "Señora Soto" in entities["ines-soto"].aliases
    assert "Señora" not in entities["ines-soto"].aliases  # a title alone names no one


def test_someones_office_is_the_one_listed_person_called_by_it() -> None:
    entities = {e.id: e for e in _harbour().entities}
    assert "Amos's Secretary" not in {e.name for e in entities.values()}
    aliases = set(entities["ned-quill"].aliases)
    assert {"Amos's Secretary", "Old Amos's Secretary"} <= aliases
    assert "Amos's" not in aliases and "Secretary" not in aliases


def test_a_title_two_listed_people_bear_or_a_gm_only_one_bears_folds_into_neither() -> None:
    extraction = _harbour()
    entities = {e.id: e for e in extraction.entities}
    for person in ("silas-tench", "zeke-mott"):
        assert {"Captain", "the Captain"}.isdisjoint(entities[person].aliases)
    assert "Captain" not in {e.name for e in entities.values()}  # one of them: no one new
    assert "Commodore" not in entities["josiah-pell"].aliases
    party = {
        m for chunk in extraction.chunks if chunk.visibility == "party" for m in chunk.mentions
    }
    assert "josiah-pell" not in party


def test_a_title_with_a_word_of_address_is_not_a_lone_surname_nor_an_office_alone() -> None:
    pack = """entities:
  - {id: elias-crane, name: Marshal Elias Crane, type: NPC, aliases: [the Marshal, Crane]}
  - {id: otto-brandt, name: Otto Brandt, type: NPC}
  - {id: agnes-brandt, name: Agnes Brandt, type: NPC, aliases: [Frau Brandt]}
"""
    prose = """# Notes

- Tomás Villa, Acting Marshal, swore the posse. The Acting Marshal rode out.
- Herr Brandt keeps the corner table. Herr Brandt knows everyone.
"""
    entities = {e.id: e for e in _with_list(pack, prose).entities}
    assert not {"Acting", "Acting Marshal"} & set(entities["elias-crane"].aliases)
    assert "Herr Brandt" not in entities["agnes-brandt"].aliases


def test_without_a_name_list_the_office_is_still_found() -> None:
    text = (
        "# Saltmarsh\n\nThe Reeve collects the tolls. The Reeve sleeps at the mill. "
        "Nobody crosses the Reeve.\n"
    )
    assert "Reeve" in _named(_run(text))


def test_a_listed_name_under_other_titles_stays_the_listed_persons_alias() -> None:
    # "Sect Master Meng" is Elder Meng once she leads the sect ("sect" makes a title of
    # "Master"; age and courtesy titles are no office to disagree); "Mrs Hale" is no alias of
    # Captain Tom Hale, who bears no title of address (she may be his mother)
    pack = (
        "entities:\n  - {id: meng, name: Meng Jinghong, type: NPC, aliases: [Elder Meng]}\n"
        "  - {id: hale, name: Tom Hale, type: NPC, aliases: [Captain Hale]}\n"
    )
    prose = (
        "# Notes\n\nMeng Jinghong took the Jade Token. Sect Master Meng thanked us. Sect Master "
        "Meng left at dawn. Meng Jinghong is stern.\n\nTom Hale sails at dawn. Mrs Hale waved. "
        "Tom Hale and Mrs Hale argue about the rent.\n"
    )
    entities = {e.id: e for e in _with_list(pack, prose).entities}
    assert "Sect Master Meng" in entities["meng"].aliases
    assert "Sect Master Meng" not in {e.name for e in entities.values()}
    assert "Mrs Hale" not in entities["hale"].aliases
