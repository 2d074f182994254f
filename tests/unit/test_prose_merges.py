"""One entity per real thing in a prose-only ingest: short forms, offices, stated aliases and
cut headings fold into the one entity they name, or are no entity at all (branch prosemerge).

Every text here is written for these tests; each test fails on the code before its rule."""

from __future__ import annotations

from extraction.honorifics import bare_name
from extraction.nicknames import shortens
from tests.unit.test_prose_campaigns import _named, _run


def test_a_compound_title_before_a_name_makes_a_person_and_its_office_folds_in() -> None:
    text = (
        "# The Lock\n\n"
        "Harbour-Master Ilsa Brenn keeps the lock and its ledger. She is old and stubborn.\n"
        "The barge captains fear the Harbour-Master. The Harbour-Master fined them twice.\n"
    )
    entities = _named(_run(text))
    assert "Harbour-Master Ilsa Brenn" not in entities and "Harbour-Master" not in entities
    ilsa = entities["Ilsa Brenn"]
    assert ilsa.type == "NPC"
    assert {"Harbour-Master Ilsa Brenn", "the Harbour-Master"} <= set(ilsa.aliases)


def test_an_office_alone_is_an_alias_of_its_one_holder() -> None:
    text = (
        "# The Court\n\n"
        "The old queen rules through her chancellor, Aldo Verin, a careful man.\n"
        "Every writ needs the seal of the Chancellor. The Chancellor fled at dawn.\n"
        "Oswin Tarr was made Mayor of Brinhaven at midsummer. The Mayor of Brinhaven "
        "signed the writ. Brinhaven is a river town. Oswin Tarr said nothing.\n"
    )
    entities = _named(_run(text))
    assert "Chancellor" not in entities and "Mayor of Brinhaven" not in entities
    assert "the Chancellor" in entities["Aldo Verin"].aliases
    assert "Mayor of Brinhaven" in entities["Oswin Tarr"].aliases
    assert "Brinhaven" in entities  # the place stays itself


def test_an_office_held_by_two_people_stays_apart() -> None:
    text = (
        "# The Marches\n\n"
        "Warden Hale rode north; Warden Mirel rode south. Lord Osmer Hale and Lady Ana Mirel "
        "met at the ford. The Lord of the Marches was absent. The Lord of the Marches sends "
        "no word.\n"
        "Osmer Hale was made Lord of the Marches. Ana Mirel was made Lord of the Marches.\n"
    )
    entities = _named(_run(text))
    assert "Lord of the Marches" in entities  # two holders: no guess
    assert "Lord of the Marches" not in entities["Osmer Hale"].aliases


def test_a_short_form_written_with_the_folds_into_the_one_name_it_opens() -> None:
    text = (
        "# The Fens\n\n"
        "The Gallowgate Bridge spans the black river on nine piers. At night the Gallowgate "
        "is closed with a chain, and the Gallowgate tolls are high.\n"
        "The Rook and Lantern is an alehouse by the bridge. We drank in the Rook all night.\n"
        "The boatmen met in the Rook again.\n"
    )
    entities = _named(_run(text))
    assert "Gallowgate" not in entities and "Rook" not in entities
    assert "Gallowgate" in entities["Gallowgate Bridge"].aliases
    assert "Rook" in entities["Rook and Lantern"].aliases


def test_a_short_form_not_mostly_written_with_the_stays_apart() -> None:
    text = (
        "# The Belt\n\n"
        "Kestrel Station hangs above the moon Varn. Smugglers use the Varn rings. The "
        "Varn Salvage Guild owns the claims, and the Varn Salvage Guild pays in scrip.\n"
        "Varn is cold. The Iron Gate Keep and the Iron Gate Mill stand by the road. We "
        "rode to the Iron Gate and back to the Iron Gate.\n"
    )
    entities = _named(_run(text))
    assert "Varn" in entities  # "the Varn rings" and "the moon Varn": a moon of its own
    assert "Varn" not in entities["Varn Salvage Guild"].aliases
    keep = entities.get("The Iron Gate Keep") or entities["Iron Gate Keep"]
    assert "Iron Gate" not in keep.aliases  # it opens two names: no guess


def test_a_heading_cut_at_a_lower_case_word_is_no_entity_unless_named() -> None:
    text = (
        "# Who's Who\n\n"
        "## Harbour folk\n\nThe dockers drink at the Salt Cellar. The Salt Cellar is rough.\n\n"
        "## Chapel and river people\n\nThe ferrymen pray by the water.\n\n"
        "## Hook\n\nThe party is hired to find a missing boy.\n\n"
        "## Torven the smith\n\nTorven works the forge. Torven is strong.\n"
    )
    names = set(_named(_run(text)))
    assert not {"Harbour", "Chapel", "Hook"} & names
    assert "Torven" in names


def test_stated_aliases_whom_nickname_members_and_know_as() -> None:
    text = (
        "# The Quarry\n\n"
        "The camp answers to Hedda Stroud, whom her own crew call the Grey Widow, a hard "
        "woman. The Grey Widow rules the camp, and Hedda Stroud keeps its books.\n"
        "The Quarrymen's Guild wears red caps that give them their nickname, the Red Caps. "
        "The Red Caps guard the road. The Quarrymen's Guild is old.\n"
        "## The Lampwrights' Company\n\n"
        "The Lampwrights' Company makes lamps. Its members, the Glimmers, trim every wick in "
        "town. The Glimmers meet on Sundays.\n"
        "Mallory Voss wears a mask of crow feathers; the gang know him only as the Crow. The "
        "Crow robbed the mill. Mallory Voss laughed.\n"
    )
    entities = _named(_run(text))
    assert not {"Grey Widow", "Red Caps", "Glimmers", "Crow"} & set(entities)
    assert "Grey Widow" in entities["Hedda Stroud"].aliases
    assert "Red Caps" in entities["Quarrymen's Guild"].aliases
    assert "Glimmers" in entities["The Lampwrights' Company"].aliases
    assert "Crow" in entities["Mallory Voss"].aliases


def test_the_end_of_a_one_word_name_written_with_the_folds_into_it() -> None:
    text = (
        "# The Parish\n\n"
        "Brackenmere is a fen parish of reed and water. Boats cross the Mere at dawn, and "
        "the Mere floods every spring.\n"
        "Stonegap is a pass town. Ebba's Gap is a ravine. We camped in the Gap, and the Gap "
        "was cold.\n"
    )
    entities = _named(_run(text))
    assert "Mere" not in entities
    assert "Mere" in entities["Brackenmere"].aliases
    assert "Gap" not in entities["Stonegap"].aliases  # also a word of "Ebba's Gap": no guess


def test_a_short_given_name_folds_into_the_one_person_it_shortens() -> None:
    text = (
        "# The Ferry\n\n"
        "Tobias Wren, a ferryman, keeps the punt at the landing. Tobias Wren is quiet.\n"
        "Toby poled us across at dawn. Toby knows every channel.\n"
        "Margaret Dunn, a widow, sells eels. Peggy laughed at us. Peggy sold us a pie.\n"
    )
    entities = _named(_run(text))
    assert "Toby" not in entities and "Peggy" not in entities
    assert "Toby" in entities["Tobias Wren"].aliases
    assert "Peggy" in entities["Margaret Dunn"].aliases


def test_a_short_given_name_two_people_could_bear_stays_apart() -> None:
    text = (
        "# The Ferry\n\n"
        "Tobias Wren, a ferryman, keeps the punt. Tobin Marsh, a miller, grinds the corn.\n"
        "Toby poled us across at dawn. Toby knows every channel. Tobias Wren and Tobin Marsh "
        "argue.\n"
    )
    entities = _named(_run(text))
    assert "Toby" in entities
    assert "Toby" not in entities["Tobias Wren"].aliases
    river = (
        "# The River\n\n"
        "Willamina Crane, a boatwoman, rows the ferry. Willamina Crane is kind.\n"
        "Will Oaks is a fisherman. Will laughed at us. Will sold us bait.\n"
    )
    entities = _named(_run(river))
    assert "Will" not in entities["Willamina Crane"].aliases  # Will Oaks's own first name


def test_a_thing_written_the_x_folds_into_the_one_name_ending_of_the_x() -> None:
    text = (
        "# The Road\n\n"
        "## The Hostel of the Seven Wells\n\n"
        "By the east road stands the Seven Wells, an inn of mud brick. We slept at the Seven "
        "Wells.\n\n"
        "## The Shrine of the Moonmother\n\n"
        "Pilgrims pray to the Moonmother, goddess of the tides. The Moonmother is kind.\n"
    )
    entities = _named(_run(text))
    assert "Seven Wells" not in entities
    hostel = entities["The Hostel of the Seven Wells"]
    assert "Seven Wells" in hostel.aliases and hostel.type == "Location"
    assert "Moonmother" in entities  # a goddess, not her shrine


def test_hypocorisms_and_clipped_given_names() -> None:
    assert shortens("Toby", "Tobias") and shortens("Bill", "William")
    assert shortens("Will", "William") and shortens("Danny", "Daniel")
    assert not shortens("Mary", "Margaret") and not shortens("Ann", "Anna")
    assert not shortens("Tobias", "Toby")


def test_called_in_summons_and_a_member_folds_into_its_group() -> None:
    text = (
        "# The Sluice\n\n"
        "The Marsh Wardens, a company of a dozen men, keep the sluice. Every Marsh Warden "
        "carries a horn.\n"
        "Piers Holloway smiled and called the Marsh Wardens in from the yard. The Marsh "
        "Wardens came at a run. Piers Holloway laughed.\n"
    )
    entities = _named(_run(text))
    wardens = entities["Marsh Wardens"]
    assert wardens.type == "Faction" and "Marsh Warden" not in entities
    assert "Marsh Warden" in wardens.aliases
    assert "Marsh Wardens" not in entities["Piers Holloway"].aliases


def test_a_first_name_alone_folds_into_the_one_character_heading_it_opens() -> None:
    text = (
        "# The Crew\n\n"
        "## Dara Quill — the Driver\n\n"
        "You drive the van. You owe money to everyone on the east side.\n\n"
        "## Notes\n\n"
        "Dara vouches for the crew at the diner. Dara laughs at the cook. Later Dara sleeps "
        "in the van.\n"
    )
    entities = _named(_run(text))
    assert "Dara" not in entities
    assert "Dara" in entities["Dara Quill"].aliases


def test_a_first_name_two_names_open_or_a_gm_only_person_bears_stays_apart() -> None:
    shared = (
        "# The Crew\n\n"
        "## Dara Quill — the Driver\n\n"
        "You drive the van. You owe money to everyone.\n\n"
        "## Dara Venn — the Cook\n\n"
        "You cook at the diner.\n\n"
        "## Notes\n\n"
        "Dara vouches for the crew at the diner. Dara laughs at the cook.\n"
    )
    entities = _named(_run(shared))
    assert "Dara" not in entities["Dara Quill"].aliases
    assert "Dara" not in entities["Dara Venn"].aliases
    secret = (
        "# The Town\n\n"
        "Dara vouches for the crew at the diner. Dara laughs at the cook.\n\n"
        "## GM Notes\n\n"
        "### Dara Quill — the Cultist\n\n"
        "She feeds the thing in the quarry. She lies to everyone.\n"
    )
    entities = _named(_run(secret))
    quill = entities["Dara Quill"]
    assert quill.visibility == "gm" and "Dara" not in quill.aliases
    assert entities["Dara"].visibility == "party"


def test_a_pet_form_on_a_doubled_letter_shortens_a_given_name() -> None:
    assert shortens("Aggie", "Agatha") and shortens("Ollie", "Oliver")
    assert not shortens("Aggie", "Agnes") and not shortens("Iggy", "Ignatius")
    text = (
        "# The Town\n\n"
        "Agatha Pruell, a retired teacher, keeps the museum. Agatha Pruell is eighty.\n"
        "Aggie Pruell let us into the parlour. Aggie Pruell poured the tea.\n"
    )
    entities = _named(_run(text))
    assert "Aggie Pruell" not in entities
    assert "Aggie Pruell" in entities["Agatha Pruell"].aliases


def test_a_plural_short_form_ending_a_word_of_a_group_s_name_folds_into_the_group() -> None:
    text = (
        "# The Docks\n\n"
        "The Ironhands Syndicate runs the cranes and the card games on the east quay.\n"
        "The Ironhands Syndicate pays the harbour police. Nobody crosses the Hands; the "
        "Hands broke a docker's arm last spring.\n"
        "Ashhollow Road climbs to the quarry. We lost the wagon in the Hollow, and the "
        "Hollow floods.\n"
    )
    entities = _named(_run(text))
    assert "Hands" not in entities
    syndicate = entities["Ironhands Syndicate"]
    assert "Hands" in syndicate.aliases and syndicate.type != "NPC"
    assert "Hollow" not in entities["Ashhollow Road"].aliases  # no plural: a place of its own


def test_a_surname_with_a_title_of_address_folds_into_its_one_person_despite_a_family_place() -> (
    None
):
    text = (
        "# The Village\n\n"
        "Edith Hollis, a widow, owns Hollis Mill on the river. Hollis Mill grinds rye.\n"
        "Mrs Hollis gave us tea. Mrs Hollis knows every boat on the river.\n"
    )
    entities = _named(_run(text))
    assert "Hollis" not in entities
    assert "Mrs Hollis" in entities["Edith Hollis"].aliases
    assert "Hollis Mill" in entities
    office = (
        "# The Village\n\n"
        "Edith Hollis, a widow, owns Hollis Mill on the river. Hollis Mill grinds rye.\n"
        "Old Captain Hollis built the mill. Captain Hollis drowned in the flood.\n"
        "Mrs Ada Brent keeps the inn. Mr Brent sold us rope. Mr Brent is a rope-maker.\n"
        "Brent Lane runs past the inn.\n"
    )
    entities = _named(_run(office))
    assert "Captain Hollis" not in entities["Edith Hollis"].aliases  # her late husband?
    assert "Mr Brent" not in entities["Ada Brent"].aliases  # addressed as a man: not her


def test_a_short_given_name_in_apposition_is_the_person_s_alias() -> None:
    text = (
        "# The Town\n\n"
        "The sheriff has one deputy, Josefina Vega, Deputy Jo, who grew up on the river.\n"
        "Deputy Jo stopped the van at the bridge. Jo laughed at us.\n"
        "Josefina Vega, Deputy Ames, and the sheriff met at the diner. Ames said nothing.\n"
    )
    entities = _named(_run(text))
    assert "Jo" not in entities
    assert {"Deputy Jo", "Jo"} <= set(entities["Josefina Vega"].aliases)
    assert "Ames" not in entities["Josefina Vega"].aliases  # another name, not a short form


def test_an_alias_stated_after_it_names_what_the_previous_sentence_opened_with() -> None:
    text = (
        "# The Marsh\n\n"
        "The Reed Hag is a drowned witch who walks the dykes at night. The Reed Hag wants "
        "children.\n"
        "The Reed Hag hums as she walks. Old Humming, the farmers call her. Old Humming "
        "took the Ashby boy.\n"
    )
    entities = _named(_run(text))
    assert "Humming" not in entities and "Old Humming" not in entities
    assert "Old Humming" in entities["Reed Hag"].aliases


def test_a_name_after_a_place_s_name_is_the_same_thing_without_it() -> None:
    text = (
        "# The Port\n\n"
        "Kessport is a walled harbour town on the cold coast. Kessport trades in salt.\n"
        "The Kessport Lantern Gazette is printed on the square. Every tavern reads the "
        "Lantern Gazette, and the Lantern Gazette printed our names. The Kessport Lantern "
        "Gazette is a paper of the guilds.\n"
    )
    entities = _named(_run(text))
    assert "Lantern Gazette" not in entities
    assert "Lantern Gazette" in entities["Kessport Lantern Gazette"].aliases
    assert "Kessport" in entities  # the town stays itself


def test_an_acronym_alone_folds_into_the_one_group_whose_initials_it_is() -> None:
    text = (
        "# The Colony\n\n"
        "**Halden-Voss Mining** — the company that owns the dome. HVM pays the guards, and "
        "HVM owns the air.\n"
        "Kira Ansel Dorn runs the bar. KAD is what the miners call her tab. KAD owes "
        "nothing. Kira Ansel Dorn laughs at them.\n"
    )
    entities = _named(_run(text))
    assert "HVM" not in entities
    assert "HVM" in entities["Halden-Voss Mining"].aliases
    assert "KAD" not in entities["Kira Ansel Dorn"].aliases  # a person's initials: no guess


def test_a_short_form_the_party_reads_never_folds_into_a_gm_only_name() -> None:
    text = (
        "# The Port\n\n"
        "Kessport is a walled harbour town on the cold coast. Kessport trades in salt.\n"
        "Everyone reads the Lantern Gazette. The Lantern Gazette printed our names.\n\n"
        "## GM Notes\n\n"
        "The Kessport Lantern Gazette, a newspaper, is a front for the smugglers. The "
        "Kessport Lantern Gazette is printed in the cellar.\n"
    )
    entities = _named(_run(text))
    assert entities["Kessport Lantern Gazette"].visibility == "gm"
    assert entities["Lantern Gazette"].visibility == "party"
    assert "Lantern Gazette" not in entities["Kessport Lantern Gazette"].aliases


def test_a_first_name_or_surname_the_party_reads_never_shows_a_gm_only_person() -> None:
    """A name the players read in the open ("Dara", "Quill") is not folded into a person only
    the GM's notes name ("Dara Quill"): the fold would make her, and her secret, theirs."""
    for lone in ("Dara", "Quill"):
        text = (
            "# The Town\n\n"
            f"{lone} vouches for the crew at the diner. {lone} laughs at the cook. Later "
            f"{lone} sleeps in the van.\n\n"
            "## GM Notes\n\n"
            "Dara Quill feeds the thing in the quarry. Dara Quill lies to the sheriff. Dara "
            "Quill keeps the key.\n"
        )
        entities = _named(_run(text))
        quill = entities["Dara Quill"]
        assert quill.visibility == "gm", (lone, quill)
        assert lone not in quill.aliases, (lone, quill.aliases)


def test_a_person_with_an_office_written_after_the_name_is_that_person() -> None:
    # a crew's articles name officers "Name Office"; the person is one, the office an alias,
    # and her surname with a title of address then folds into her too
    text = (
        "# The Articles\n\n"
        "The crew met on the beach and chose Tamsin Greer Quartermaster by a show of hands.\n"
        "Tamsin Greer keeps the share-book. Tamsin Greer took the wheel in the squall.\n"
        "Mrs Greer will not drink with the officers. Mrs Greer keeps her pistols dry.\n"
    )
    entities = _named(_run(text))
    assert "Tamsin Greer Quartermaster" not in entities and "Greer" not in entities
    assert {"Quartermaster", "Mrs Greer"} <= set(entities["Tamsin Greer"].aliases)


def test_a_possessive_office_is_no_given_name_a_pet_form_could_shorten() -> None:
    # "Humph's Secretary" opens with no given name: the lone "Humph" is Humphrey Blount's
    text = (
        "# The Governor's House\n\n"
        "Sir Humphrey Blount governs the island from the hill. Humphrey Blount owes everyone.\n"
        "Old Humph drinks madeira at noon. Old Humph has not paid the garrison since spring.\n"
        "Humph's Secretary answers his letters. Humph's Secretary takes bribes.\n"
    )
    entities = _named(_run(text))
    assert "Humph" not in entities
    assert "Humph" in entities["Humphrey Blount"].aliases


def test_a_superintendent_or_a_prefect_is_a_title_over_a_surname_not_a_name_of_two_words() -> None:
    text = (
        "# The Division\n\n"
        "Horace Gaunt commands the division from Tallow Street. Horace Gaunt dines out.\n"
        "Superintendent Gaunt signed the order. Superintendent Gaunt will not search.\n"
        "Mr Gaunt keeps a carriage. Prefect Qin rules the town. Lord Qin is afraid.\n"
        "Qin Songlin took the salt money. Qin Songlin fled at night.\n"
    )
    entities = _named(_run(text))
    assert "Superintendent Gaunt" not in entities and "Gaunt" not in entities
    assert "Superintendent Gaunt" in entities["Horace Gaunt"].aliases
    assert "Prefect Qin" not in entities


def test_a_titled_lone_word_is_the_one_person_whose_name_it_opens() -> None:
    # Chinese names are written family name first: "Doctor Su" is Su Lianhua, "Gu-shixiong"
    # (senior brother Gu) and "Senior Brother Gu" are Gu Changfeng
    text = (
        "# The Jianghu\n\n"
        "Su Lianhua is a physician; she keeps a clinic by the ferry. Su Lianhua owes no one.\n"
        "Doctor Su cured the Ox. Doctor Su is kind to beggars.\n"
        "Gu Changfeng is a swordsman of the sect; he trains at dawn. Gu Changfeng sulks.\n"
        "Senior Brother Gu lost the duel. Gu-shixiong left for the coast.\n"
    )
    entities = _named(_run(text))
    assert "Su" not in entities and "Doctor Su" in entities["Su Lianhua"].aliases
    assert "Gu" not in entities and "Senior Brother Gu" not in entities
    assert "Senior Brother Gu" in entities["Gu Changfeng"].aliases
    assert bare_name("Gu-shixiong") == "Gu" and bare_name("Li-gongzi") == "Li"


def test_a_titled_lone_word_two_names_open_stays_apart() -> None:
    text = (
        "# The Yamen\n\n"
        "Fang Zhengyi is the constable; he never sleeps. Fang Zhengyi drinks tea.\n"
        "Fang Liqing is his sister; she runs the inn. Fang Liqing laughs loudly.\n"
        "Constable Fang came at noon. Constable Fang took the ledger.\n"
    )
    entities = _named(_run(text))
    assert "Constable Fang" not in entities["Fang Zhengyi"].aliases  # two Fangs: no guess
    assert "Constable Fang" not in entities["Fang Liqing"].aliases
