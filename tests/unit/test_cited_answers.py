"""Checking a model's answer: every kept sentence cites a handle the context holds."""

from __future__ import annotations

from ranking.context.answer import checked_answer, render_answer, sentences

KNOWN = {"e:torven", "ch:s4-r1-1", "p:notes-md#0-ab12"}


def test_sentences_citing_known_handles_are_kept_with_them() -> None:
    checked = checked_answer(
        "Torven is dead [e:torven, ch:s4-r1-1]. See the notes [p:notes-md#0-ab12].", KNOWN
    )
    assert [(s.text, s.cites) for s in checked.sentences] == [
        ("Torven is dead.", ("e:torven", "ch:s4-r1-1")),
        ("See the notes.", ("p:notes-md#0-ab12",)),
    ]
    assert not checked.dropped
    assert render_answer(checked) == (
        "Torven is dead. [e:torven, ch:s4-r1-1] See the notes. [p:notes-md#0-ab12]"
    )


def test_a_sentence_citing_nothing_or_only_unknown_handles_is_dropped() -> None:
    checked = checked_answer(
        "Torven is dead [e:torven]. He was a dragon. He flew [e:invented]. "
        "He hid it [e:torven, e:invented].",
        KNOWN,
    )
    assert [s.cites for s in checked.sentences] == [("e:torven",), ("e:torven",)]
    assert checked.dropped == ("He was a dragon.", "He flew [e:invented].")


def test_brackets_that_are_not_handles_stay_in_the_text() -> None:
    checked = checked_answer("The sign reads [closed] today [e:torven].", KNOWN)
    assert checked.sentences[0].text == "The sign reads [closed] today."


def test_an_empty_reply_keeps_nothing() -> None:
    assert checked_answer("", KNOWN).sentences == ()
    assert sentences("One. Two! Three?") == ["One.", "Two!", "Three?"]
