"""Capitalised words of the game table that name nothing in the world: clock times and
weekday abbreviations of a pasted chat log, the GM's handle as its poster, episode titles of
sessions, labels of a GM's prep sheet, verbs of a move log, category cells of a table (round 11,
after the Vesper run)."""

from __future__ import annotations

import pytest

from extraction.prose_names import heading_name
from extraction.table_talk import episode_titles, gm_speakers, players
from tests.unit.prose_helpers import entities_of, names_in


def test_clock_halves_and_weekday_abbreviations_are_never_names() -> None:
    text = (
        "**[Sat 9:02 PM] Osric Vane:** we left at 2:10 AM. On Wed the ferry ran late. "
        "By Oct 12 the toll had doubled."
    )
    assert names_in(text) == ["Osric Vane"]


def test_a_short_day_that_is_also_a_name_goes_only_beside_a_number() -> None:
    assert names_in("[Sun 10:15 PM] the bell rang. Jan Kowalczyk rang it.") == ["Jan Kowalczyk"]
    assert names_in("Later Jan said nothing. Then Jan left.") == ["Jan", "Jan"]


def test_an_adverb_opening_a_recap_is_no_name() -> None:
    text = "Previously on HARROW LANE... Eventually the ferry docks. Marta Quill waits."
    assert "Previously" not in names_in(text)
    assert "Eventually" not in names_in(text)
    assert "Marta Quill" in names_in(text)


def test_a_verb_before_an_article_opening_a_move_is_no_name() -> None:
    text = "**Tobin — Investigate a Mystery (10+).** Protect an innocent, he said. Tobin nods."
    names = names_in(text)
    assert "Investigate" not in names and "Protect" not in names
    assert names.count("Tobin") == 2


def test_a_common_word_in_the_possessive_opening_a_sentence_is_no_name() -> None:
    text = "The countdown ticks. Countdown's at dusk now, and Ilse Varga knows it."
    assert names_in(text) == ["Ilse Varga"]


def test_a_prep_sheet_label_is_no_entity() -> None:
    found = entities_of(
        (
            "lore/case.md",
            "# The Drowned Bell\n\n*My prep sheet. Premise, threats, stakes.*\n\n"
            "**Premise:** A bell rings under the harbour at low tide.\n\n"
            "**Hook —** Ada Mirren's boy went out to find it.\n\n"
            "Ada Mirren runs the chandlery. Ada Mirren wants her boy back.\n",
        )
    )
    assert "Premise" not in found and "Hook" not in found
    assert "Ada Mirren" in found


def test_a_one_word_episode_title_is_no_entity() -> None:
    found = entities_of(
        (
            "lore/clock.md",
            "# The Tide Clock\n\n- **Lowtide:** the harbour empties.\n"
            "- **Slack:** the wreck shows.\n",
        ),
        (
            "sessions/session-02.md",
            '# Session 2 — "Lowtide"\n\nWe found Ada Mirren at the pier. Clock is at Lowtide. '
            "Next week: Slack. Ada Mirren said nothing.\n",
        ),
        (
            "sessions/session-03.md",
            '# Session 3 — "Slack"\n\nAda Mirren rowed out. The clock stands at Slack.\n',
        ),
    )
    assert "Lowtide" not in found and "Slack" not in found
    assert "Ada Mirren" in found


def test_an_episode_named_for_someone_written_as_someone_keeps_them() -> None:
    found = entities_of(
        (
            "sessions/session-04.md",
            '# Session 4 — "Marguerite"\n\nWe met Marguerite at the mill. Marguerite\'s boat '
            "was gone, and Marguerite wept.\n",
        )
    )
    assert "Marguerite" in found


def test_the_gm_handle_posting_in_a_chat_log_is_no_entity() -> None:
    found = entities_of(
        (
            "sessions/session-03.md",
            "# Session 3\n\n*Pasted from our chat. Narrator's post first.*\n\n"
            "**[Thu 11:52 PM] Narrator:** You wake at the inn. Osric Vane is gone.\n\n"
            "**[Thu 11:54 PM] Narrator:** The Narrator rolls for weather.\n\n"
            "**[Thu 11:58 PM] Osric Vane:** I left a note at the mill.\n\n"
            "**[Fri 12:02 AM] tamsin_k:** Osric Vane is lying.\n",
        )
    )
    assert "Narrator" not in found
    assert "Osric Vane" in found  # a character may post too
    for noise in ("Thu", "Fri", "PM", "AM"):
        assert noise not in found


def test_table_talk_finds_episode_titles_and_gm_posters() -> None:
    headings = ['Session 3 — "Sunrise"', 'Campaign > Episode 4: "The Long Night"', "Session 5"]
    assert episode_titles(headings) == {"sunrise", "long night"}  # normalised: no "the"
    log = "**[9:02 PM] Keeper:** hi\n[21:03] Wren Hollis: hello\n[21:04] DM: ok\n"
    assert gm_speakers([log]) == {"keeper", "dm"}


def test_a_category_cell_of_a_table_is_no_entity() -> None:
    found = entities_of(
        (
            "lore/threats.md",
            "# Threats\n\n| Threat | Type | Notes |\n|---|---|---|\n"
            "| The Pale Court | Schemers (noble) | Lady Orsa Venn leads it. |\n"
            "| Saltbone Crew | Schemers who can be bought | Cheap. |\n"
            "| Mother Gull | Beast | Nests on the Spire. |\n"
            "| Brannoc Hale | Owner, the Gilded Skiff | Rope from the Gilded Skiff. |\n",
        )
    )
    assert "Schemers" not in found and "Owner" not in found
    assert "Saltbone Crew" in found
    assert "Gilded Skiff" in found  # after the category: still read


@pytest.mark.parametrize(
    "title", ['Mystery: "The Lantern Man" (season one)', 'Case: "The Drowned Bell"']
)
def test_a_kind_of_note_over_its_quoted_title_names_no_kind(title: str) -> None:
    assert heading_name(title) is None


def test_the_players_a_note_says_play_the_characters_are_no_entities() -> None:
    note = (
        "*Nobody wrote a recap, so Jo pasted the argument in. Dana plays Clem, Marcus plays "
        "Amos.*\n\n**Marcus** 09:12\nAmos says the mine is cursed.\n\n**Dana** 09:13\n"
        "Clem says Amos drinks too much.\n\nLater Vane plays Sugden like a fiddle. Vane left."
    )
    assert players([note]) == {"dana", "marcus"}  # one "plays" alone is the world's: Vane
    assert players(["Clem Dawes (played by Dana) rides point."]) == {"dana"}
    found = entities_of(("sessions/session-04.md", note))
    assert "Dana" not in found and "Marcus" not in found
    assert "Clem" in found and "Vane" in found


def test_a_roster_giving_each_characters_player_in_brackets_names_players() -> None:
    roster = (
        "## Us\n\n"
        "- **Nell Barrow** (Sam) — the cartographer. Keeps the maps.\n\n"
        '- **Hob Tarrow, "the Ox"** (Kit) — the muscle.\n'
        "- **Wes Dunbar** (me, Priya) — the one who writes these notes.\n"
    )
    assert players([roster]) == {"sam", "kit", "priya"}
    # one bracketed word alone may be an alias; an office in brackets is no player
    assert players(["- **Hob Tarrow** (Hobby) keeps the inn.\n"]) == set()
    assert players(["- **Ada Ness** (Innkeeper)\n- **Tom Hall** (Captain)\n"]) == set()
    nicknames = "- **Margaret Dorsey** (Maggie) — landlady\n- **Robert Hale** (Bob) — smith\n"
    assert players([nicknames]) == set()  # short forms of the names: nicknames, no players
    found = entities_of(("lore/whos-who.md", roster + "\nSam says Nell never sleeps.\n"))
    assert "Sam" not in found and "Nell Barrow" in found
