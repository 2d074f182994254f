"""Which questions are about the past (no demotion) and which about now."""

from __future__ import annotations

import pytest

from ranking.historical import is_historical


@pytest.mark.parametrize(
    "question",
    [
        "What happened at the Red Oak Tavern?",
        "Who killed Torven?",
        "How did the Iron Hand turn on us?",
        "Where was the party before the storm?",
        "Who used to run the Red Oak Tavern?",
        "Which tavern burned down?",
        "Who ruled Saltmarsh back when the war began?",
        "What was the history of the River Guild?",
        "Who rules Saltmarsh as of session 4?",
        "Who originally founded the guild?",
        "What became of the Silver Stag Inn?",
        "Where did we leave the boat last session?",
        "Who held the keep before we took it?",
        "What went down at the Bell Tower?",
        "Who sold them the address?",
        "Dr. B is out. Where was he kept?",
        "Was Dr. Kell there?",
        "Who ran the docks before the fire?",
        "Who destroyed the Red Oak Tavern?",
        "Why didn\u2019t the guard stop them?",
    ],
)
def test_past_questions_are_historical(question: str) -> None:
    assert is_historical(question)


@pytest.mark.parametrize(
    "question",
    [
        "Where can the party rest?",
        "Who rules Saltmarsh?",
        "Who rules X?",
        "Is Torven dead?",
        "Where can we hire swords?",
        "What does the Iron Hand want?",
        "Which inn is closest to the docks?",
        "Who in town is still in our corner before we clear out?",
        "Who should I talk to before I leave town?",
        "Wash caught a slug in the shoulder. Who's gonna dig it out?",
        "Is St. Agnes still open?",
        "",
    ],
)
def test_present_questions_are_not_historical(question: str) -> None:
    assert not is_historical(question)


def test_cue_words_match_whole_words_only() -> None:
    assert not is_historical("Where is the wasp nest?")  # "was" inside "wasp"
    assert not is_historical("Who is the beforehand agent?")


@pytest.mark.parametrize(
    "question",
    [
        "Who have been the big threats to us this whole arc?",
        "Who was behind the short sacks, start to finish?",
        "Which of them have been on our side all along?",
        "Who have we crossed so far?",
    ],
)
def test_the_whole_story_so_far_is_historical(question: str) -> None:
    assert is_historical(question)


def test_a_whole_that_spans_no_time_is_not_historical() -> None:
    assert not is_historical("Who holds the whole ward now?")
    assert not is_historical("Is the arc lamp still lit?")


@pytest.mark.parametrize(
    "question",
    [
        "Where did they stick Kel Bekir?",
        "Where did the guards take her?",
        "Where did the black book end up?",
        "Where did the Watch lock the smugglers up?",
    ],
)
def test_where_a_thing_was_put_is_where_it_is_now(question: str) -> None:
    assert not is_historical(question)


def test_where_a_thing_went_or_was_put_at_a_time_is_in_the_past() -> None:
    assert is_historical("Where did the margrave's silver go?")  # no verb of putting
    assert is_historical("Where did we put the boat last session?")
    assert is_historical("Where did they take him before the fire?")
    assert is_historical("Where was he put?")
