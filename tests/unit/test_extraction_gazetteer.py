"""The gazetteer: leftmost-longest mentions of known names, with the case rules."""

from __future__ import annotations

import random

from extraction.gazetteer import Gazetteer
from graphrag_core.models import Entity


def _entities() -> list[Entity]:
    return [
        Entity(id="tavern-redoak", name="Red Oak Tavern", type="Location",
               aliases=("the Red Oak", "Redoak", "oak")),
        Entity(id="red-oak", name="Red Oak", type="Location"),
        Entity(id="guild", name="Merchants' Guild", type="Faction", aliases=("Guild",)),
        Entity(id="torven", name="Torven Blackwater", type="NPC", aliases=("Torven",),
               gm_aliases=("The Ledger Man",)),
        Entity(id="dr", name="Dr. Quill", type="NPC"),
    ]  # fmt: skip


def _found(text: str) -> list[tuple[str, str]]:
    return [(m.entity_id, m.surface) for m in Gazetteer(_entities()).find_mentions(text)]


def test_longest_match_first_and_no_match_inside_a_longer_one() -> None:
    assert _found("We met at red oak tavern, not at Red Oak.") == [
        ("tavern-redoak", "red oak tavern"),
        ("red-oak", "Red Oak"),
    ]


def test_name_beats_alias_for_the_same_words() -> None:
    # "Red Oak" is both red-oak's name and (after dropping "the") tavern-redoak's alias
    assert _found("Red Oak") == [("red-oak", "Red Oak")]


def test_one_word_forms_are_case_sensitive_and_capitalised() -> None:
    assert _found("Redoak, redoak, an oak, the Guild and the guild.") == [
        ("tavern-redoak", "Redoak"),
        ("guild", "Guild"),
    ]


def test_word_boundaries_and_gaps() -> None:
    assert _found("Torvenson and Torven's cart") == [("torven", "Torven")]
    assert _found("the Merchants Guild and Merchants’ Guild") == [
        ("guild", "Merchants Guild"),
        ("guild", "Merchants’ Guild"),
    ]
    assert _found("Merchants. Guild") == [("guild", "Guild")]
    assert _found("ask Dr. Quill") == [("dr", "Dr. Quill")]


def test_offsets_and_gm_alias_flag() -> None:
    text = "They call him the ledger man; Torven Blackwater smiles."
    mentions = Gazetteer(_entities()).find_mentions(text)
    assert [(m.entity_id, m.gm_alias) for m in mentions] == [("torven", True), ("torven", False)]
    assert all(text[m.start : m.end] == m.surface for m in mentions)


def test_scans_a_megabyte_with_a_thousand_names() -> None:
    rng = random.Random(7)
    syllables = ["ka", "lo", "mir", "dun", "vel", "tha", "rin", "gor", "sel", "bra"]

    def word() -> str:
        return "".join(rng.choice(syllables) for _ in range(3)).capitalize()

    entities = [
        Entity(id=f"e{i}", name=f"{word()} {word()}", type="NPC", aliases=(word(),))
        for i in range(1000)
    ]
    names = [e.name for e in entities]
    filler = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and", "then"]
    parts: list[str] = []
    size = 0
    while size < 1_000_000:
        parts.append(rng.choice(names) if rng.random() < 0.05 else rng.choice(filler))
        size += len(parts[-1]) + 1
    text = " ".join(parts)
    mentions = Gazetteer(entities).find_mentions(text)
    assert len(mentions) > 5000
    assert all(text[m.start : m.end] == m.surface for m in mentions)
    assert {m.entity_id for m in mentions} <= {e.id for e in entities}
    # speed is measured in benchmarks/ (offline ingest), never asserted in a test


def _garrison() -> list[Entity]:
    return [
        Entity(id="mawle", name="Thomas Mawle", type="NPC", aliases=("Colonel Mawle",)),
        Entity(id="tench", name="Silas Tench", type="NPC", aliases=("Captain Tench",)),
        Entity(id="mott", name="Ezekiel Mott", type="NPC", aliases=("Captain Mott",)),
        Entity(id="fort", name="Fort Royal", type="Location", aliases=("the Colonel's house",)),
        Entity(id="pell", name="Josiah Pell", type="NPC", aliases=("Commodore Pell",),
               visibility="gm"),
        Entity(id="vane", name="Ana Vane", type="NPC", gm_aliases=("Governor Vane",)),
        Entity(id="reeve", name="Alda Brandt", type="NPC", aliases=("Reeve Alda", "the Reeve")),
    ]  # fmt: skip


def _titled(text: str) -> list[tuple[str, str, bool]]:
    return [
        (m.entity_id, m.surface, m.gm_alias) for m in Gazetteer(_garrison()).find_mentions(text)
    ]


def test_the_title_one_entity_bears_is_a_mention_of_it_as_capitalised() -> None:
    assert _titled("The Colonel rode out; the Colonel's men stayed; the colonel of foot.") == [
        ("mawle", "The Colonel", False),
        ("mawle", "the Colonel", False),
    ]


def test_a_title_two_entities_bear_is_nobodys() -> None:
    assert _titled("the Captain laughed at Captain Mott") == [("mott", "Captain Mott", False)]


def test_a_longer_form_beats_the_title_and_so_does_a_name_after_it() -> None:
    assert _titled("We dined at the Colonel's house.") == [("fort", "the Colonel's house", False)]
    assert _titled("the Colonel Mawle, the Colonel Smith, the Colonel. Smith") == [
        ("mawle", "Colonel Mawle", False),
        ("mawle", "the Colonel", False),
    ]


def test_the_title_of_a_gm_only_bearer_or_a_gm_alias_is_a_gm_form() -> None:
    assert _titled("the Commodore and the Governor") == [
        ("pell", "the Commodore", True),
        ("vane", "the Governor", True),
    ]


def test_a_title_that_is_an_alias_whole_stays_that_alias() -> None:
    assert _titled("the Reeve and the reeve") == [
        ("reeve", "the Reeve", False),
        ("reeve", "the reeve", False),
    ]
