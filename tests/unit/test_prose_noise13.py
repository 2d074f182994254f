"""Words of a Cold War campaign's files, guidebook and recaps that name nothing: a redaction
marker, a weekday in the plural, a people's adjective or plural, an oath, the table's own people
and words, a guidebook's topic headings (issue: noise entities on the held-out Meridian)."""

from __future__ import annotations

from extraction.table_talk import players
from tests.unit.prose_helpers import entities_of, names_in


def test_a_word_in_capitals_in_square_brackets_is_a_marker_not_a_name() -> None:
    text = (
        "**Location:** [REDACTED], the Old Mill. The [CLASSIFIED] bits stay out. "
        "Sent to [**EXPUNGED**] by Kess Varn; the name is CENSORED."
    )
    names = names_in(text)
    for marker in ("REDACTED", "CLASSIFIED", "EXPUNGED", "CENSORED"):
        assert marker not in names
    assert "Old Mill" in names and "Kess Varn" in names


def test_a_redaction_marker_is_no_entity() -> None:
    found = entities_of(
        (
            "report.md",
            "The drop is at [REDACTED]. Orm Kessel met [REDACTED] there. "
            "Orm Kessel left by the [DELETED] road.",
        )
    )
    assert "REDACTED" not in found and "DELETED" not in found
    assert "Orm Kessel" in found


def test_a_weekday_in_the_plural_is_no_name() -> None:
    assert names_in("Thorne meets us Thursdays, sells on Saturdays, rests on Sundays.") == [
        "Thorne"
    ]
    assert names_in("Willie Mays caught it.") == ["Willie Mays"]


def test_a_peoples_plural_is_no_name() -> None:
    text = "Toni says the Russians pay late, the Hungarians early. We met two Czechs, the Swedes."
    assert names_in(text) == ["Toni"]


def test_a_peoples_adjective_after_a_preposition_or_in_a_cell_is_no_name() -> None:
    for text in (
        "Every loud thing on Austrian soil counts.",
        "It is a known Soviet-bloc toy, and it jams.",
        "Salzburg (German frontier) lies west.",
        "Papers, forgeries, Russian, bluffing.",
        "the last Austrian village before the frontier.",
        "Ilse rode on her own Austrian passport.",
        "tractor parts, cases of Georgian brandy.",
        "we spoke for Soviet ears only.",
    ):
        names = names_in(text)
        assert not {"Austrian", "Soviet", "Soviet-bloc", "German", "Russian", "Georgian"} & set(
            names
        ), (text, names)
    assert names_in("| Jo | Lucien Farrow | British, forger, Russian speaker |") == [
        "Jo",
        "Lucien Farrow",
    ]


def test_a_nickname_that_is_a_peoples_adjective_stays_a_name() -> None:
    assert names_in("Present: Dutch, Birdie, the Prof, and me.")[1] == "Dutch"
    assert names_in("We rode with Dutch to the ford.") == ["Dutch"]
    assert names_in("Dutch, the gunman, rode in.") == ["Dutch"]


def test_the_new_peoples_adjectives_are_no_names() -> None:
    text = "a Viennese accent, an Israeli pilot, a Cuban cigar, the Finnish border."
    assert names_in(text) == []


def test_a_peoples_adjective_opening_every_line_it_is_in_is_no_entity() -> None:
    found = entities_of(
        (
            "notes.md",
            "The store holds tractor parts and crates.\n\n"
            "Georgian brandy burns very well.\n\n"
            "Georgian brandy is what they drink. Sofia Lenz pours it. Sofia Lenz laughs.\n",
        )
    )
    assert "Georgian" not in found
    assert "Sofia Lenz" in found


def test_a_name_after_a_peoples_adjective_folds_into_the_longer_name() -> None:
    found = entities_of(
        (
            "notes.md",
            "The Soviet Trade Mission keeps a warehouse. Dudin heads the Soviet Trade Mission. "
            "Everyone at the Trade Mission knows Dudin. The Trade Mission closes early.\n",
        )
    )
    assert "Trade Mission" not in found
    assert "Soviet Trade Mission" in found


def test_an_oath_names_no_one() -> None:
    for text in (
        "Found. Closed. God help us.",
        "And I stood up too, God knows why.",
        "The entry for this one, thank God.",
        "Thorne said \"for God's sake don't\".",
        "Christ almighty, what a night.",
    ):
        assert names_in(text) == [] or "God" not in names_in(text), text
        assert "Christ" not in names_in(text)
    assert names_in("The Drowned God stirs. The priests of the God-King pray.") == [
        "Drowned God",
        "God-King",
    ]


def test_the_referee_and_the_writer_of_a_recap_are_the_tables() -> None:
    for note, name in (
        ("Five sessions, four players, one GM (Pete). Rules: a hacked game.", "pete"),
        ("GM: Pete.", "pete"),
        ("Thanks to our GM Pete for the snacks.", "pete"),
        ("Notes kept by the table (Pete, GM).", "pete"),
        ("*(Recap written by Gav in character as Miles Ashcombe.)*", "gav"),
        ("*Written up by Pete the week after the finale, for the players.*", "pete"),
        ("This is Gav's recap of the night.", "gav"),
        ("**Table notes (Pete):** quests opened.", "pete"),
    ):
        assert players([note]) == {name}, note


def test_a_world_note_by_someone_is_not_the_tables() -> None:
    assert players(["[GM: Shed 9 is the bonded warehouse.] [GM: Teddy's player laughed.]"]) == (
        frozenset()
    )
    assert players(["A letter written by Moser lay on the desk."]) == frozenset()
    assert players(["Otto's notes are in the safe."]) == frozenset()


def test_the_names_under_a_player_column_are_the_tables() -> None:
    table = (
        "| Player | Character      | Note         |\n"
        "|--------|----------------|--------------|\n"
        "| Gav    | Miles Ashcombe | team leader  |\n"
        "| Sue    | Dorothy Kells  | radio        |\n"
        "| (Pete) | GM             | settles rows |\n"
    )
    assert players([table]) == {"gav", "sue", "pete"}


def test_the_tables_people_and_words_are_no_entities() -> None:
    found = entities_of(
        (
            "sheet.md",
            "# Campaign sheet\n\n*Five sessions, four players, one GM (Pete).*\n\n"
            "| Player | Character     |\n|--------|---------------|\n"
            "| Sue    | Dorothy Kells |\n\n"
            "Dorothy Kells works the radio. Pete let Sue roll it. Sue rolled a six.\n",
        ),
        (
            "session-01.md",
            "# Session 1\n\n*(Recap written by Gav in character as Miles Ashcombe.)*\n\n"
            "Miles Ashcombe met Dorothy Kells at the Wheel. Gav typed it. Recap ends.\n",
        ),
    )
    for table_word in ("Pete", "Sue", "Gav", "Recap"):
        assert table_word not in found
    assert "Dorothy Kells" in found and "Miles Ashcombe" in found


def test_a_heading_of_common_words_over_a_list_is_a_topic() -> None:
    found = entities_of(
        (
            "guide.md",
            "# A Pocket Guide\n\nThe guide is for visitors, and the phrases and stations are "
            "useful. A church. Three locals and a railway. Trains leave.\n\n"
            "## Useful Phrases\n\n- *Wo ist die Bahn?* — where is the train\n\n"
            "## THE LOCALS\n\n- **Otto Kranz** runs the Lindwurm.\n\n"
            "## Railway Stations\n\nTrains leave from the Westbahnhof.\n\n"
            "## Distances from Vienna\n\n| To | km |\n|---|---|\n| Nickelsdorf | 65 |\n\n"
            "## Churches\n\nTrains leave hourly.\n\n"
            "## The Red Oak Tavern\n\nA tavern by the railway, useful to locals.\n\n"
            "## The Caravanserai of the Nine Lamps\n\nA useful place for locals.\n",
        )
    )
    for topic in ("Useful Phrases", "THE LOCALS", "Railway Stations", "Distances from Vienna"):
        assert topic not in found
    assert "Churches" not in found
    assert "The Red Oak Tavern" in found
    assert "The Caravanserai of the Nine Lamps" in found


def test_a_kind_its_section_describes_stays_an_entity() -> None:
    found = entities_of(
        (
            "bestiary.md",
            "# Bestiary\n\nThe marsh is wet. The lights are pale.\n\n"
            "## Marsh Lights\n\nPale lights that hover over the marsh around the chapel.\n",
        )
    )
    assert "Marsh Lights" in found


def test_a_pronoun_of_another_tongue_is_no_name() -> None:
    names = names_in("- *Ich bin müde.* — I am tired. *Je ne sais pas*, said Vera.")
    assert "Ich" not in names and "Je" not in names
    assert "Vera" in names


def test_a_rank_two_named_people_bear_is_no_entity() -> None:
    found = entities_of(
        (
            "file.md",
            "Major Tamara Sokolova runs counter-intelligence. Major Laszlo Kertesz runs the "
            "Hungarians. The Major said no. Then the Major left. We never saw the Major again.",
        )
    )
    assert "Major" not in found
    assert "Tamara Sokolova" in found and "Laszlo Kertesz" in found
