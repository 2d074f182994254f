"""The offline prose stages on faults found by scoring whole prose campaigns against their name
lists (``benchmarks/bench_prose_extraction.py --names``): types, epithets, aliases, topics."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from extraction.offline import extract
from extraction.prose_types import (
    apposition_type,
    creature_kind,
    definition_type,
    name_type,
    title_type,
    weak_type,
)
from graphrag_core.models import Entity, Extraction, SourceDocument
from tests.unit.prose_helpers import stated_relations, world


def _run(*texts: str) -> Extraction:
    docs = [
        SourceDocument(
            path=f"lore-{i}.md",
            kind="markdown",
            sha256=hashlib.sha256(text.encode()).hexdigest(),
            text=text,
        )
        for i, text in enumerate(texts)
    ]
    return extract(docs, chunk_size=1200)


def _named(extraction: Extraction) -> dict[str, Entity]:
    return {e.name: e for e in extraction.entities}


@pytest.mark.parametrize(
    ("name", "kind"),
    [("Black Tide Smugglers", "Faction"), ("The Tide Sisters", "Faction"),
     ("The Sun Guard", "Faction"), ("Tollguard", "Faction"), ("Port Varrow", "Location"),
     ("Mount Sorrow", "Location"), ("Tamra Oasis", "Location"), ("Skarn Shipyard", "Location"),
     ("Pearl of Tides", "Item"), ("Gannet Rock", "Location"), ("The Pinchgate Sluice", "Location"),
     ("Coble Staithe", "Location"), ("Hob Tarrow", None),
     ("Smuggler", None)],
)  # fmt: skip
def test_a_name_head_types_groups_places_and_things(name: str, kind: str | None) -> None:
    assert name_type(name) == kind


def test_a_definition_reads_past_shape_nouns_and_plural_verbs() -> None:
    ring = "Tamra Oasis is a ring of palms around a green pool."
    assert definition_type(ring, 0, len("Tamra Oasis")) is None  # no ring: the head decides
    band = "The Black Gull Company is a band of pirates."
    assert definition_type(band, 0, len("The Black Gull Company")) == "Faction"
    many = "The Tidewardens are the priests and guardians of the Tidemother."
    assert definition_type(many, 0, len("The Tidewardens")) == "Faction"
    one = "Orla is the priestess of the shrine."
    assert definition_type(one, 0, len("Orla")) == "NPC"


def test_apposition_reads_adjectives_and_hyphenated_roles() -> None:
    thin = "Orm Gallowsson, a thin and careful man, is her steward."
    assert apposition_type(thin, 0, len("Orm Gallowsson")) == "NPC"
    wolf = "Older is Hrimulf, the wolf-god of winter."
    assert apposition_type(wolf, wolf.index("Hrimulf"), wolf.index(",")) == "Deity"
    guide = "We hired Teodor Lasch, the goat-guide, at the foot of the road."
    assert apposition_type(guide, 9, 21) == "NPC"
    assert apposition_type("Nessa Quill, a cartographer, sells charts.", 0, 11) == "NPC"


def test_titles_and_weak_cues() -> None:
    assert title_type("Saint") == "Deity"
    assert title_type("Prior") == "NPC"
    who = "Its guildmistress is Tove Ironline, who lost a hand to a harpoon line."
    at = who.index("Tove")
    assert weak_type(who, at, at + len("Tove Ironline")) == "NPC"
    into = "The party rode into Duneveil at dusk."
    at = into.index("Duneveil")
    assert weak_type(into, at, at + len("Duneveil")) == "Location"
    hand = "The knife was in Orm's hand."
    at = hand.index("Orm")
    assert weak_type(hand, at, at + 3) is None


def test_prose_campaign_types_people_groups_places_and_saints() -> None:
    text = (
        "# The Gap\n\n"
        "Travellers pray to Saint Odila before the climb. Saint Odila carried a lamp.\n"
        "Prior Benedikt rules the brothers. Prior Benedikt was not seen for days.\n"
        "Kaspar Iselin, the farrier, runs the yard. Kaspar Iselin gave us crampons.\n"
        "The Tollguard keeps the gate. The Tollguard met us with crossbows.\n"
        "We rode into Caldergap at dusk and slept in Caldergap that night.\n"
        "Jory Flint waved. Jory Flint left.\n"
    )
    types = {name: e.type for name, e in _named(_run(text)).items()}
    assert types["Odila"] == "Deity"
    assert types["Benedikt"] == "NPC"
    assert types["Kaspar Iselin"] == "NPC"
    assert types["Tollguard"] == "Faction"
    assert types["Caldergap"] == "Location"
    assert types["Jory Flint"] == "Other"  # no cue: unsure, so no guess


def test_an_epithet_is_an_alias_not_an_entity() -> None:
    text = (
        "# The Waterfront\n\n"
        "Garran the Eel, a fence in Port Varrow, sells stolen goods. We paid Garran the Eel.\n"
        "Nadir the Masked leads the thieves. Nobody has seen Nadir the Masked.\n"
        "Older than all is the Sleeper in the Sand, a buried god. The Sleeper in the Sand "
        "dreams.\n"
        "Sigrun gave Orm the Oathring. The Oathring is a ring of gold. Orm wept.\n"
    )
    entities = _named(_run(text))
    assert "Eel" not in entities and "Masked" not in entities and "Sand" not in entities
    assert {"Garran the Eel", "the Eel"} <= set(entities["Garran"].aliases)
    assert entities["Garran"].type == "NPC"  # "a fence" speaks for the whole name
    assert "Nadir the Masked" in entities["Nadir"].aliases
    assert entities["Sleeper"].type == "Deity"
    assert "Sleeper in the Sand" in entities["Sleeper"].aliases
    assert "Oathring" in entities  # written alone too: a thing of its own
    assert "the Oathring" not in entities["Orm"].aliases


def test_a_subsection_named_by_a_common_noun_is_a_topic() -> None:
    text = (
        "# The High Road\n\nThe road climbs to the Gap.\n\n"
        "## Snow\n\nThe greatest danger is the snow itself.\n\n"
        "## The Quay\n\nAlong the quay the boats tie up.\n\n"
        "## Harbour Notes\n\nThe harbour smells of tar.\n\n"
        "## Crowfoot Tarn\n\nA cold lake where the tarn worm lives.\n"
    )
    names = set(_named(_run(text)))
    assert not {"Snow", "The Quay", "Quay", "Harbour Notes"} & names
    assert "Crowfoot Tarn" in names
    feature = "# Barbarian\n\n## Rage\n\nIn battle, you fight with primal ferocity: enter a rage.\n"
    assert "Rage" in set(_named(_run(feature)))  # no "the rage": a named feature


def test_a_stated_alias_of_him_or_her_belongs_to_the_person_just_named() -> None:
    text = (
        "# The Drowned Lamb\n\n"
        "The Drowned Lamb is a tavern. Its owner, Barnaby Crake, was once a pirate of the "
        "Black Gull Company.\nSailors call him One-Eye Crake. Barnaby Crake pours rum.\n"
        "Vesna Korr is a half-elf with a silver tooth; people call her the Fox. Vesna Korr "
        "laughed.\n"
    )
    entities = _named(_run(text))
    assert "One-Eye Crake" in entities["Barnaby Crake"].aliases
    assert "Sailors" not in entities
    assert "Fox" in entities["Vesna Korr"].aliases


def test_a_lone_surname_and_a_stated_role_name_one_person() -> None:
    text = (
        "# The Tollkeep\n\n"
        "Their captain is Matthias Grell, a former soldier. Captain Grell said nothing. "
        "Grell stood at the gate.\n"
        "Kaspar Iselin, the farrier, runs the yard. We asked the farrier for crampons.\n"
        "Konrad Starke said no; Konrad Starke left. Lioba Starke said yes; Lioba Starke smiled. "
        "Starke is a proud name.\n"
    )
    entities = _named(_run(text))
    assert "Grell" not in entities
    assert {"Grell", "Captain Grell"} <= set(entities["Matthias Grell"].aliases)
    assert "the farrier" in entities["Kaspar Iselin"].aliases
    assert "Starke" not in entities["Konrad Starke"].aliases  # two Starkes: no guess
    assert "Starke" not in entities["Lioba Starke"].aliases


def _stated(extraction: Extraction) -> set[tuple[str, str, str]]:
    return {(r.source, r.type, r.target) for r in extraction.relations if r.evidence == "stated"}


def test_possessives_state_kin_and_service() -> None:
    text = (
        "# The Abbey\n\n"
        "Abbess Hild Varr rules the abbey. Abbess Hild Varr prays at dawn.\n"
        "Tam Fell is the Abbess's nephew. Tam Fell said nothing.\n"
        "Orm Gallow, Eydis Brand's steward, counts the silver. Orm Gallow said so.\n"
        "Eydis Brand's daughter Sigrun Holt took the ring. Sigrun Holt wept.\n"
    )
    stated = _stated(_run(text))
    assert ("tam-fell", "related_to", "hild-varr") in stated
    assert ("orm-gallow", "serves", "eydis-brand") in stated
    assert ("eydis-brand", "parent_of", "sigrun-holt") in stated


def test_a_strongman_in_the_table_s_words_serves(tmp_path: Path) -> None:
    names = (
        "entities:\n"
        "  - {id: kumagai, name: Kumagai Daizen, type: NPC, aliases: [Kumagai, Oni-Kumagai]}\n"
        "  - {id: isobe, name: Isobe Gendayu, type: NPC, aliases: [Isobe-sama, Isobe]}\n"
        "  - {id: vell, name: Orm Vell, type: NPC}\n"
        "  - {id: crabb, name: Jory Crabb, type: NPC}\n"
    )
    text = (
        "# Who's who\n\n"
        "- **Kumagai** (Oni-Kumagai) — Isobe's muscle, teaches sword to the castle samurai.\n"
        "- **Isobe** — the chief retainer.\n\n"
        "Jory Crabb, Orm Vell's goon, kept the door.\n"
    )
    stated = stated_relations(world(tmp_path, names, text, "notes.md"))
    assert ("kumagai", "serves", "isobe") in stated
    assert ("crabb", "serves", "vell") in stated


def test_acts_against_someone_are_hostile_but_not_hedged_or_unowned() -> None:
    text = (
        "# Session 4\n\n"
        "Hadra Mun sent Mahz Oren into the cistern. Hadra Mun laughed.\n"
        "Mahz Oren wept. Orm Gallow poisoned Eydis Brand. Eydis Brand fell.\n"
        "Ulf Nettle tried to poison Orm Gallow. Ulf Nettle sent Orm Gallow a letter.\n"
        "Following Ulf Nettle's map, the party ambushed Hadra Mun at the well.\n"
    )
    hostile = {(s, t) for s, kind, t in _stated(_run(text)) if kind == "hostile_to"}
    assert hostile == {("hadra-mun", "mahz-oren"), ("orm-gallow", "eydis-brand")}


def test_a_place_name_without_its_noun_is_a_short_form() -> None:
    text = (
        "# Cragspire Keep\n\nCragspire Keep is a castle on the cliffs. We slept at Cragspire.\n"
        "Cragspire Keep has a gate. Lady Voss rode back to Cragspire.\n\n"
        "# Vardholm\n\nVardholm is a town. Vardholm trades whale oil. Vardholm is cold.\n"
        "Boats crowd Vardholm Harbour. Vardholm Harbour freezes in winter.\n"
    )
    entities = _named(_run(text))
    assert "Cragspire" not in entities
    assert "Cragspire" in entities["Cragspire Keep"].aliases
    assert {"Vardholm", "Vardholm Harbour"} <= set(entities)  # the town the harbour is named for


def test_an_article_joins_a_name_with_and_a_colon_defines_and_st_is_a_saint() -> None:
    text = (
        "# Market Island\n\n"
        "We drank at the Pike and Withy. The Pike and Withy has three rooms. "
        "Orm and Sigrun left.\n"
        "- The Reedmen: a gang of fen-born smugglers.\n"
        "The Reedmen meet at night.\n"
        "Pilgrims pray to St Ebba at the mere. St Ebba drowned long ago.\n"
    )
    entities = _named(_run(text))
    assert "Pike and Withy" in entities and "Withy" not in entities
    assert "Orm and Sigrun" not in entities
    assert entities["Reedmen"].type == "Faction"
    assert entities["Ebba"].type == "Deity"
    assert "St Ebba" in entities["Ebba"].aliases


def test_a_lone_first_name_joins_an_untyped_two_word_name() -> None:
    text = (
        "# The Fen\n\nGideon Mawle runs the boats. Gideon Mawle is rarely seen. "
        "Gideon keeps a mask.\nBlack Shuck roams the dykes. Black Shuck howls. Black is a "
        "colour.\n"
    )
    entities = _named(_run(text))
    assert "Gideon" not in entities
    assert "Gideon" in entities["Gideon Mawle"].aliases
    assert entities["Gideon Mawle"].type == "Other"  # still no guess


def test_a_sentence_defining_a_kind_of_creature_names_it() -> None:
    text = (
        "# Beasts\n\n"
        "Reef drakes are small sea dragons that attack boats. A reef drake bit our oar.\n"
        "Mire lurkers are long-armed marsh beasts.\n"
        "Fishermen are poor folk. Salt merchants are rich men.\n"
    )
    entities = _named(_run(text))
    assert entities["Reef Drake"].type == "Creature"
    assert "reef drakes" in entities["Reef Drake"].aliases
    assert entities["Mire Lurker"].type == "Creature"
    assert not {"Reef", "Mire", "Salt Merchant", "Salt"} & set(entities)


def test_a_comparison_or_a_loose_place_noun_does_not_type_a_name() -> None:
    wyrms = "Sand wyrms are blind burrowing serpents as long as a barge that swim through sand."
    assert creature_kind(wyrms) == ("Sand Wyrm", "Sand wyrms")
    oath = "Before the whole town Sigrun swore the oath."
    at = oath.index("Sigrun")
    assert apposition_type(oath, at, at + len("Sigrun")) is None
    planet = "We landed on the planet Tesk."
    at = planet.index("Tesk")
    assert apposition_type(planet, at, at + len("Tesk")) == "Location"


def test_epithets_roles_and_kinds_stated_in_gm_sections_stay_secret() -> None:
    text = (
        "# Harrowgate\n\nMira Coll keeps the gate. Mira Coll said nothing.\n\n"
        "## GM Notes\n\nThe smugglers pay Mira Coll the Knife. Mira Coll the Knife laughs.\n"
        "Mira Coll, the smuggler, sells names.\n"
        "Bog hags are old marsh witches and foul beasts.\n"
    )
    extraction = _run(text)
    entities = _named(extraction)
    mira = entities["Mira Coll"]
    assert mira.visibility == "party"
    assert {"Mira Coll the Knife", "the Knife", "the smuggler"} <= set(mira.gm_aliases)
    assert not {"Mira Coll the Knife", "the Knife", "the smuggler"} & set(mira.aliases)
    assert "Knife" not in entities
    assert entities["Bog Hag"].visibility == "gm"
    assert "Bog hags" not in mira.description


def test_a_possessive_pronoun_states_kin_of_the_person_it_stands_for() -> None:
    text = (
        "# The Mill\n\n"
        "Wenna Roe, a stout and patient woman, keeps the mill at the ford. "
        "Her son Colm Roe carts the flour.\n"
        "Brother Tobin Ashe, a lean man, came up the road. Tobin Ashe prayed. "
        "Her only child, Ysolt Roe, met him at the gate.\n"
        "Sir Aldo Venn sold his horse to Dara Quell. His nephew Piet Venn wept.\n"
        "Colm Roe, Dara Quell and Piet Venn drank at the ford.\n"
    )
    stated = _stated(_run(text))
    assert ("wenna-roe", "parent_of", "colm-roe") in stated
    # the nearest person is a man: "her" skips him for the woman named before him
    assert ("wenna-roe", "parent_of", "ysolt-roe") in stated
    assert not any(t == "ysolt-roe" and s == "tobin-ashe" for s, _, t in stated)
    # Aldo is a knight, but Dara's gender is unknown and stands nearer: no guess
    assert not any(t == "piet-venn" and k == "related_to" for _, k, t in stated)


def test_a_pronoun_reaches_back_into_the_previous_chunk_but_never_across_a_heading() -> None:
    filler = "The rain fell on the roofs all night, " * 35 + "and nobody went out."
    text = (
        "# The Hall\n\n"
        "Reeve Osmund Hale, a grey man, sat by his fire. Osmund Hale slept.\n\n" + filler + "\n\n"
        "His nephew Bertil Hale poured the wine.\n\n"
        "# The Quay\n\n"
        "His nephew Ansel Hale mends nets. Bertil Hale and Ansel Hale fish.\n"
    )
    extraction = _run(text)
    assert len({c.id for c in extraction.chunks}) > 1
    stated = _stated(extraction)
    assert ("bertil-hale", "related_to", "osmund-hale") in stated
    assert not any("ansel-hale" in (s, t) for s, _, t in stated)


def test_a_secret_section_s_people_are_no_antecedent_for_the_party_s_prose() -> None:
    text = (
        "# The Ferry\n\n"
        "## GM Notes\n\n"
        "Mirela Stoke, a widow, is a smuggler.\n\n"
        "## The Landing\n\n"
        "Her daughter Jessa Stoke poles the ferry. Jessa Stoke sings.\n"
    )
    stated = _stated(_run(text))
    assert not any(t == "jessa-stoke" and k == "parent_of" for _, k, t in stated)


def test_two_names_that_were_married_are_married_to_each_other() -> None:
    text = (
        "# Session 6\n\n"
        "A month later Elske Brun and Hallam Vey were married at the chapel. "
        "Elske Brun laughed; Hallam Vey wept.\n"
        "Corin Mast and Dagny Holt were married to other people. Corin Mast and Dagny Holt "
        "sailed.\n"
    )
    stated = _stated(_run(text))
    assert ("elske-brun", "married_to", "hallam-vey") in stated
    assert not any(k == "married_to" and "corin-mast" in (s, t) for s, k, t in stated)


def test_parallel_possessives_belong_to_one_owner_and_o_names_a_woman(tmp_path: Path) -> None:
    names = (
        "entities:\n"
        "  - {id: gonzo, name: Gonzō, type: NPC, aliases: [Kawasemi no Gonzō]}\n"
        "  - {id: sohachi, name: Sōhachi, type: NPC}\n"
        "  - {id: mitsu, name: Mitsu, type: NPC}\n"
        "  - {id: tsuru, name: Tsuru, type: NPC, aliases: [O-Tsuru]}\n"
        "  - {id: kii, name: Kiichi, type: NPC}\n"
    )
    text = (
        "# The Hall\n\n"
        "The master, called Kawasemi no Gonzō, heads the house. His deputy Sōhachi answers "
        "for the hall when the master is unwell. His daughter Mitsu is entered as attendant.\n\n"
        "# The Gate\n\n"
        "Gonzō met O-Tsuru at the gate, and he remembered Tsuru. His nephew Kiichi bowed.\n"
    )
    stated = stated_relations(world(tmp_path, names, text, "notes.md"))
    assert ("sohachi", "member_of", "gonzo") in stated  # "his deputy"
    assert ("gonzo", "parent_of", "mitsu") in stated  # not Sōhachi's daughter
    assert not any(t == "mitsu" and s == "sohachi" for s, _, t in stated)
    # "O-Tsuru" is a woman: "his" is Gonzō's, not hers
    assert ("kii", "related_to", "gonzo") in stated
    assert not any("tsuru" in (s, t) and k == "related_to" for s, k, t in stated)
