"""Words of a Weird West campaign's diary, telegrams and posters that name no one: a bare title,
a day over a section, a people's adjective, a telegram in capitals, a common compound opening
a sentence (issue: extraction noise on Brimstone)."""

from __future__ import annotations

import hashlib

from extraction.offline import extract
from extraction.prose_names import common_words, heading_name, name_spans, title_only
from graphrag_core.models import Entity, SourceDocument


def _names(text: str) -> list[str]:
    return [s.name for s in name_spans(text, common_words([text]))]


def _entities(text: str) -> dict[str, Entity]:
    sha = hashlib.sha256(text.encode()).hexdigest()
    doc = SourceDocument(path="session-03.md", kind="markdown", sha256=sha, text=text)
    return {e.name: e for e in extract([doc], chunk_size=1200).entities}


def test_titles_alone_name_no_one() -> None:
    for name in ("Mr", "Esq", "Hon", "Padre", "Señora", "Acting Marshal", "Superintendent"):
        assert title_only(name), name
    for name in ("Town Marshal", "Marshal of Brimstone", "Ezra Quill", "Dr Quill"):
        assert not title_only(name), name


def test_a_bare_title_is_no_entity() -> None:
    text = (
        "The Padre said the Latin after, and the Reverend preached. The Padre was tired.\n\n"
        "Sir, I have the honour to be, Sir, your servant. The Superintendent signed it. "
        "The Superintendent left."
    )
    found = _entities(text)
    for word in ("Padre", "Reverend", "Sir", "Superintendent", "Latin"):
        assert word not in found


def test_an_abbreviated_title_stays_with_its_name() -> None:
    text = "They had carried off a Dr. Quill to physic their leader. Dr. Quill was chained."
    found = _entities(text)
    assert "Dr" not in found
    assert "Quill" in found and "Dr Quill" in found["Quill"].aliases


def test_a_peoples_adjective_is_no_name() -> None:
    text = "He rode a Mexican saddle and spoke Latin and German, with a Chinese laundry near."
    assert _names(text) == []


def test_a_telegram_in_capitals_is_read_as_prose() -> None:
    text = (
        "Nobody signs the commission.\n\n"
        "AM TO T VILLANUEVA COMMISSION UNDER CONSIDERATION STOP CONTINUE ACTING MARSHAL "
        "PENDING STOP NO WARRANT WITHOUT GRAND JURY STOP"
    )
    names = _names(text)
    assert not any(len(n.split()) > 6 for n in names)
    assert "COMMISSION" not in " ".join(names)


def test_a_long_run_of_capitals_is_no_name() -> None:
    assert _names("They wired: SABLE VOLLMER HOBBS QUILL TEAGUE VANE CRANE KESSLER ASH.") == []


def test_a_weekday_heading_names_no_one() -> None:
    assert heading_name("Friday: the last day before") is None
    assert heading_name("Saturday") is None
    assert heading_name("Black Friday Raid") == "Black Friday Raid"


def test_a_common_compound_opening_a_sentence_is_no_name() -> None:
    assert _names("In-game, Sept. 24 to Oct. 2, the town burned.") == []
    assert _names("One-Eye Crake rode in.") == ["One-Eye Crake"]


def test_a_peoples_adjective_in_the_possessive_is_a_nickname() -> None:
    assert _names("We needed something bigger than Dutch's revolver.") == ["Dutch"]
    assert _names("Dutch tore his forearm open, so we took Dutch to the doctor.") == [
        "Dutch",
        "Dutch",
    ]
    assert _names("He hired two Chinese cooks who spoke Spanish.") == []


def test_a_series_word_in_capitals_is_no_name() -> None:
    assert _names("**ACT ONE.** Monday. You're in the back booth.") == []


def test_a_note_in_capitals_makes_no_name_of_its_pronouns_and_verbs() -> None:
    note = "> DOC IS BORROWD. FOLOW AND HE DIES. HE COMES BACK WHEN JACK IS WELL. — C."
    assert not any(" IS " in f" {n} " or n.startswith("HE ") for n in _names(note))
    assert "IS BORROWD" not in _names("DOC IS BORROWD.")  # a sentence of its own
    assert _names("WANTED: RED JACK CALLOWAY") == ["RED JACK CALLOWAY"]


def test_a_title_that_is_someones_nickname_stays_an_entity() -> None:
    text = (
        "*Present: Dutch, Birdie, the Prof, and me.*\n\n"
        "The Prof had a letter from the curator. We asked the Prof about it, and the Prof "
        "said nothing. Mr Hale waved. Sir, said Mr Hale. Sir, I said."
    )
    found = _entities(text)
    assert "Prof" in found  # only ever "the Prof": a person known so
    assert "Sir" not in found and "Mr" not in found  # forms of address name no one


def test_a_pronoun_alone_at_the_end_of_a_quoted_line_is_read_without_failing() -> None:
    text = (
        "## The Coffee-House\n\n"
        "> [GM, later, different pencil: Otto dies in session 2. Agnes keeps the place open. She\n"
        "> knows exactly what the third rod is for.]\n"
    )
    found = _entities(text)  # raised "substring not found" on the bare "She"
    assert "The Coffee-House" in found
