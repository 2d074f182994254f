"""Names a cyberpunk campaign's run logs, crew notes and fixer's book write with no name list:
handles beside legal names, things named "the Tortoise", keys of a shorthand, Yoruba, Chinese
and Portuguese name forms; and the words in capitals, ranks and dates that name nothing
(issue: the held-out Glasshive, prose only)."""

from __future__ import annotations

from extraction.nicknames import shortens
from extraction.prose_aliases import legend_alias
from extraction.prose_entities import sentences
from extraction.prose_names import common_words, name_spans
from extraction.prose_types import apposition_type, definition_type, entry_type
from tests.unit.prose_helpers import entities_of, names_in


def test_a_cue_noun_before_the_last_word_only_modifies_it() -> None:
    text = "Marisol Vega-Chan is a Nightglass street asset, codename HERON."
    assert definition_type(text, 0, len("Marisol Vega-Chan")) is None
    assert entry_type("crew van.") == "Item"
    assert entry_type("a river town.") == "Location"
    assert entry_type("the heir apparent.") == "NPC"  # an adjective after its noun
    assert definition_type("Orm is a smith now.", 0, 3) == "NPC"


def test_a_capitalised_word_after_an_article_is_a_name_not_a_cue() -> None:
    text = "Saint + Zed (ZeroSum, Emeka Nwosu, a Bell) pulled data."
    start = text.index("Emeka")
    assert apposition_type(text, start, start + len("Emeka Nwosu")) is None


def test_a_bracket_closes_the_phrase_of_an_entry() -> None:
    assert entry_type("destroyed (Saint).") is None


def test_one_weak_place_cue_among_many_mentions_types_nothing() -> None:
    found = entities_of(
        (
            "log.md",
            "Gran gave Saint the Tortoise. Saint jacked in on the Tortoise. "
            "She plugged the shard into the Tortoise. The Tortoise is slow.",
        )
    )
    assert found["Tortoise"].type == "Other"


def test_a_month_after_a_word_that_dates_opens_no_name() -> None:
    assert names_in("Since January BASILISK has guarded the net.") == ["BASILISK"]
    assert "Black Friday Raid" in names_in("We planned the Black Friday Raid.")


def test_a_handle_beside_the_full_name_in_brackets_is_its_alias() -> None:
    found = entities_of(
        (
            "crew.md",
            "- **Zed** (ZeroSum, Emeka Nwosu) — the Snake ate him.\n"
            "- ZeroSum (Emeka Nwosu) → DEAD.\n"
            "Zed was right about the ICE. Emeka Nwosu ran for the Bells.\n"
            "- **The Widow** (Ilse Varga, Nightglass) shot her. Nightglass came at dawn.\n"
            "Ilse Varga smiled.\n",
        )
    )
    emeka = found["Emeka Nwosu"]
    assert {"Zed", "ZeroSum"} <= set(emeka.aliases)
    assert "Zed" not in found and "ZeroSum" not in found
    assert "Nightglass" not in found["Ilse Varga"].aliases


def test_a_camel_case_handle_in_brackets_after_a_full_name_is_an_alias() -> None:
    found = entities_of(
        ("book.md", "Emeka Nwosu (ZeroSum) ran data. Emeka Nwosu owes nothing. ZeroSum left.")
    )
    assert "ZeroSum" in found["Emeka Nwosu"].aliases


def test_a_status_in_capitals_is_no_codename() -> None:
    found = entities_of(
        ("status.md", "- Naja → DESTROYED (Basilisk)\nThe deck was destroyed. Basilisk won.\n")
    )
    assert all("DESTROYED" not in (*e.aliases, *e.gm_aliases) for e in found.values())


def test_an_abbreviated_rank_ends_no_sentence_and_names_no_one() -> None:
    text = "Nightglass Division (Cmdr. Ilse Varga, WIDOW-3) is the knife. Insp. Pessoa came."
    assert len(sentences(text)) == 2
    found = entities_of(("sheet.md", text + " Cmdr. Varga waits. Ilse Varga smiles."))
    assert "Cmdr" not in found and "Insp" not in found


def test_common_words_in_capitals_are_labels_not_names() -> None:
    found = entities_of(
        (
            "trust.md",
            "## THE CREW\nthe crew is four. We are allied and hostile by turns.\n\n"
            "## STATUS LIST\n- CARAS = ALLIED\n- ORISUN = HOSTILE\n- Tallow Market → DAMAGED\n"
            "The market was damaged. the status list grows. Caras and Orisun stay.\n"
            "BASILISK ate Zed. Basilisk is ICE.\n",
        )
    )
    for label in ("THE CREW", "STATUS LIST", "ALLIED", "HOSTILE", "DAMAGED"):
        assert label not in found
    assert "basilisk" in {name.casefold() for name in found}


def test_a_yoruba_name_drops_its_opening_for_its_short_form() -> None:
    assert shortens("Seun", "Oluwaseun") and shortens("Biodun", "Abiodun")
    assert not shortens("Anna", "Hanna")
    found = entities_of(
        (
            "notes.md",
            "Dr. Oluwaseun Bamidele designed the seed. Seun is kind. Seun was sold. "
            "Oluwaseun Bamidele wept.",
        )
    )
    assert "Seun" not in found and "Seun" in found["Oluwaseun Bamidele"].aliases


def test_a_chinese_name_is_surname_first_before_a_hyphenated_given_name() -> None:
    found = entities_of(
        (
            "memo.md",
            "Vivian Tsang Mei-ling runs Special Projects. She smiled. "
            "VP Vivian Tsang signs. VP Tsang said no. Vivian Tsang Mei-ling said yes.",
        )
    )
    vivian = found["Vivian Tsang Mei-ling"]
    assert "Tsang" not in found and "Vivian Tsang" not in found
    assert "VP Tsang" in (*vivian.aliases, *vivian.gm_aliases)


def test_a_key_line_gives_its_short_form_to_the_name() -> None:
    text = "LR = Little Red."
    assert legend_alias(text, name_spans(text, common_words([text]))) == ("LR", "Little Red")
    text = "B = Bico."
    assert legend_alias(text, name_spans(text, common_words([text]))) is None
    found = entities_of(
        ("book.md", "- LR = Little Red.\nLittle Red killed Bico. Little Red laughed. LR ran.\n")
    )
    assert "LR" in found["Little Red"].aliases and "LR" not in found


def test_a_form_of_address_in_the_brackets_joins_the_full_name() -> None:
    found = entities_of(
        (
            "trust.md",
            "- **The Widow** (Ilse Varga, WIDOW-3, Ms. Gray) — Nightglass commander.\n"
            "Ms. Gray signed the visitor log. Ms. Gray left. Ilse Varga shot Mama.\n",
        )
    )
    varga = found["Ilse Varga"]
    assert "Gray" not in found
    assert {"Ms. Gray", "WIDOW-3", "Widow"} <= set(varga.aliases)
