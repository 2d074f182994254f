"""Common words the layout capitalises are no entities: a heading that labels a list or table
of other names ("## Money" over people), a document's own section ("## Preface", "##
Totals"), a participle or plural opening a sentence ("*Submitted for ...*", "Entries are
..."), a margin note's label ("*Margin: ...*")."""

from __future__ import annotations

from extraction.prose_names import heading_name
from tests.unit.test_prose_campaigns import _named, _run


def test_a_heading_over_a_list_of_other_names_is_a_label() -> None:
    text = (
        "# Who's who\n\n"
        "## Money\n\n"
        "- **Old Tamaya** (the broker) — pays us. Nervous.\n"
        "- **Seibei** (the clerk) — knows every grain.\n\n"
        "## The River Bank\n\n"
        "| House | Trade | Master |\n|---|---|---|\n"
        "| The Tamaya Storehouses | rice | Tamaya Kihei |\n"
        "| Landing of the Boatmen | barges | Tokubei |\n\n"
        "## The Red Oak Tavern\n\n"
        "A low room that smells of hops. Hob pours.\n"
    )
    found = _named(_run(text))
    assert not {"Money", "The River Bank"} & set(found)
    assert "The Red Oak Tavern" in found  # a section about one place


def test_a_document_s_own_sections_are_generic_headings() -> None:
    assert heading_name("Preface") is None
    assert heading_name("Totals") is None
    assert heading_name("The Lantern Float") == "The Lantern Float"


def test_a_participle_or_plural_opening_sentences_is_no_name() -> None:
    text = (
        "# Register\n\n"
        "*Copied by the clerks. Submitted for the inspection of the Magistrate.*\n"
        "Entries are given ward by ward. Submitted to the castle on the fifth.\n"
        "Entries were checked twice.\n"
        "Alfred to the rescue, said the clerk. Alfred to the gate, said the guard.\n"
        "Davies is not here, the boy lied. Davies was never here, he said.\n"
    )
    found = _named(_run(text))
    assert not {"Submitted", "Entries"} & set(found)
    assert {"Alfred", "Davies"} <= set(found)  # a name in "-fred" or "-ies" stays one


def test_a_margin_note_s_label_is_no_name() -> None:
    text = (
        "# Report\n\n"
        "The woman was taken at the shrine.\n\n"
        "*Margin: Hanshichi reports a fish-seller saw her.*\n\n"
        "*Margin: She is not lying about the tea.*\n"
    )
    assert "Margin" not in _named(_run(text))


def test_a_lone_word_in_emphasis_as_a_whole_sentence_is_a_sound() -> None:
    text = (
        "# The storyteller\n\n"
        "*Tap.* Honoured listeners! The river gives back what was thrown into it.\n\n"
        "*Tap.* So ends the night. *Tap.*\n\n"
        "*Kagerō* hangs on the wall. Jin polishes *Kagerō* nightly.\n"
    )
    found = _named(_run(text))
    assert "Tap" not in found
    assert "Kagerō" in found  # a name in emphasis, said something of
