"""Passages are read sentence by sentence (stated answers, focus): a hard-wrapped paragraph's
soft line breaks do not end a sentence; stops, blank lines, headings and list items do."""

from __future__ import annotations

from ranking.documents import sentences


def test_a_hard_wrapped_sentence_is_one_sentence() -> None:
    text = (
        "## The Spindle\n"
        "The Spindle is a bar. Its owner, Mara Velt, rents bunks behind the\n"
        "bar to crews between jobs.\n\n"
        "- Dex Halloran sells fuel\n"
        "- Imani Seo heals\n"
    )
    assert [" ".join(s.split()) for s in sentences(text)] == [
        "## The Spindle",
        "The Spindle is a bar.",
        "Its owner, Mara Velt, rents bunks behind the bar to crews between jobs.",
        "- Dex Halloran sells fuel",
        "- Imani Seo heals",
    ]
