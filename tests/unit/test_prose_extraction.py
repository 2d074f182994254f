"""The offline prose stages on short texts: names, types, aliases, relations, secrets."""

from __future__ import annotations

import hashlib

import pytest

from extraction.offline import extract
from extraction.prose_aliases import first_name, stated_aliases, title_aliases
from extraction.prose_names import common_words, heading_name, name_spans
from extraction.prose_types import definition_type, name_type
from graphrag_core.models import Extraction, SourceDocument

KETTLEBRIDGE = """# Kettlebridge
Kettlebridge is a mill town on the Slow River, governed by Reeve Alda Brandt from the Tollhouse.
## The Copper Kettle
The Copper Kettle is an inn with six beds. Its keeper, Hob Tarrow, serves eel pie to travellers.
## Wenna Marsh
Wenna Marsh is a gnome apothecary who sells remedies by the ford. Everyone calls her Old Wenna.
She belongs to the Millers' Compact.
"""


def _doc(text: str, path: str = "lore.md") -> SourceDocument:
    sha = hashlib.sha256(text.encode()).hexdigest()
    return SourceDocument(path=path, kind="markdown", sha256=sha, text=text)


def _run(*texts: str) -> Extraction:
    docs = [_doc(text, f"lore-{i}.md") for i, text in enumerate(texts)]
    return extract(docs, chunk_size=1200)


def test_names_drop_titles_possessives_and_common_sentence_openers() -> None:
    text = "After Hob Tarrow's wife left, Reeve Alda Brandt asked the Order of the Ember."
    spans = name_spans(text, common_words([text]))
    assert [(s.name, s.title) for s in spans] == [
        ("Hob Tarrow", ""),
        ("Alda Brandt", "Reeve"),
        ("Order of the Ember", ""),
    ]


@pytest.mark.parametrize(
    ("title", "name"),
    [("The Copper Kettle", "The Copper Kettle"), ("Hob Tarrow, Innkeeper", "Hob Tarrow"),
     ("Rumours", None), ("Session 3", None), ("GM Notes", None), ("history", None),
     ("Where to sleep", None), ("Who holds the road", None), ("Below the ground", None),
     ("On the Heights", None), ("The lower galleries", None), ("The Gods of the North", None),
     ("Beasts of the Waste", None), ("Torven the smith", "Torven"),
     ("The Night of the Drowned King", "The Night of the Drowned King"),
     ("Order of the Ember", "Order of the Ember"), ("Ludwig von Starke", "Ludwig von Starke")],
)  # fmt: skip
def test_a_heading_names_a_thing_or_not(title: str, name: str | None) -> None:
    assert heading_name(title) == name


def test_types_from_definitions_and_name_endings() -> None:
    text = "Wenna Marsh is a gnome apothecary who sells remedies."
    assert definition_type(text, 0, len("Wenna Marsh")) == "NPC"
    assert definition_type("Vell is a mill town on the river.", 0, 4) == "Location"
    assert name_type("Slow River") == "Location"
    assert name_type("Millers' Compact") == "Faction"
    assert name_type("Tollhouse") == "Location"
    assert name_type("Hob Tarrow") is None


def test_aliases_stated_by_title_and_first_name() -> None:
    text = "Everyone calls her Old Wenna."
    spans = name_spans(text, common_words([text]))
    assert [(a.alias, a.subject) for a in stated_aliases(text, spans)] == [("Old Wenna", None)]
    assert title_aliases("Alda Brandt", ["Reeve"], {"reeve": 1}) == [
        "Reeve Alda Brandt",
        "the Reeve",
    ]
    assert title_aliases("Alda Brandt", ["Reeve"], {"reeve": 2}) == ["Reeve Alda Brandt"]
    assert first_name("Alda Brandt", ["Alda Brandt", "Hob Tarrow"]) == "Alda"
    assert first_name("Alda Brandt", ["Alda Brandt", "Alda Vey"]) is None


def test_kettlebridge_becomes_a_typed_world() -> None:
    extraction = _run(KETTLEBRIDGE)
    entities = {e.name: e for e in extraction.entities}
    assert {name: e.type for name, e in entities.items()} == {
        "Kettlebridge": "Location",
        "Slow River": "Location",
        "Alda Brandt": "NPC",
        "Tollhouse": "Location",
        "The Copper Kettle": "Location",
        "Hob Tarrow": "NPC",
        "Wenna Marsh": "NPC",
        "Millers' Compact": "Faction",
    }
    assert {"the Reeve", "Alda"} <= set(entities["Alda Brandt"].aliases)
    assert "Old Wenna" in entities["Wenna Marsh"].aliases
    assert entities["The Copper Kettle"].description == "The Copper Kettle is an inn with six beds."
    for entity in entities.values():
        assert entity.description in KETTLEBRIDGE  # a contiguous quote


def test_kettlebridge_relations_cite_their_sentence() -> None:
    extraction = _run(KETTLEBRIDGE)
    stated = {(r.source, r.type, r.target) for r in extraction.relations if r.evidence == "stated"}
    assert stated == {
        ("kettlebridge", "located_in", "slow-river"),
        ("kettlebridge", "ruled_by", "alda-brandt"),
        ("hob-tarrow", "owns", "the-copper-kettle"),
        ("wenna-marsh", "member_of", "millers-compact"),
    }
    member = next(r for r in extraction.relations if r.type == "member_of")
    assert member.description == "She belongs to the Millers' Compact."
    chunk = next(c for c in extraction.chunks if c.id == member.chunk_id)
    assert member.description in chunk.text


def test_co_occurrence_is_a_weaker_link_only_where_nothing_is_stated() -> None:
    extraction = _run(KETTLEBRIDGE)
    weak = {(r.source, r.target) for r in extraction.relations if r.evidence == "co_occurrence"}
    assert ("alda-brandt", "tollhouse") in weak
    assert all(r.type == "related_to" for r in extraction.relations if r.evidence != "stated")
    assert ("alda-brandt", "kettlebridge") not in weak  # ruled_by already links them


def test_hedged_wording_states_no_killing() -> None:
    text = (
        "# Notes\n\nGarrow Vey tried to kill Mirel Dunn. Garrow Vey nearly killed Mirel Dunn. "
        "Tobin Ash killed Sella Pike. Tobin Ash fled; Sella Pike was buried.\n"
    )
    killed = {(r.source, r.target) for r in _run(text).relations if r.type == "killed_by"}
    assert killed == {("sella-pike", "tobin-ash")}


def test_gm_sections_stay_secret_in_everything_derived() -> None:
    text = (
        "# Harrowgate\n\nHarrowgate is a walled town. Mira Coll keeps the gate.\n\n"
        "## GM Notes\n\nThe Pale Circle is a cult that meets under the Harrowgate chapel. "
        "The Pale Circle pays Mira Coll. Mira Coll is known as the Grey Hand.\n"
    )
    extraction = _run(text)
    entities = {e.name: e for e in extraction.entities}
    assert entities["Pale Circle"].visibility == "gm"
    assert entities["Harrowgate"].visibility == "party"
    assert "Pale Circle" not in entities["Harrowgate"].description
    assert entities["Mira Coll"].type == "NPC"
    assert "Grey Hand" in entities["Mira Coll"].gm_aliases
    assert "Grey Hand" not in entities["Mira Coll"].aliases
    secret = [r for r in extraction.relations if "pale-circle" in (r.source, r.target)]
    assert secret and all(r.visibility == "gm" for r in secret)


def test_structured_sources_keep_priority_over_prose() -> None:
    pack = "entities:\n  - {name: Wenna Marsh, type: Creature, description: A bog hag.}\n"
    docs = [
        SourceDocument(path="world.yaml", kind="worldpack", sha256="w", text=pack),
        _doc(KETTLEBRIDGE),
    ]
    entities = {e.name: e for e in extract(docs, chunk_size=1200).entities}
    assert entities["Wenna Marsh"].type == "Creature"
    assert entities["Wenna Marsh"].description == "A bog hag."
    assert sum(e.name == "Wenna Marsh" for e in entities.values()) == 1


def test_a_name_mentioned_once_without_a_type_stays_a_mention() -> None:
    extraction = _run("# Notes\n\nWe met Dorran Vail at dawn and left quickly.\n")
    assert "Dorran Vail" not in {e.name for e in extraction.entities}
    twice = _run("# Notes\n\nWe met Dorran Vail at dawn. Dorran Vail waved.\n")
    assert "Dorran Vail" in {e.name for e in twice.entities}


def test_co_occurrence_links_weigh_less_in_the_analytics_graph() -> None:
    from graphrag_core.analytics.graph_input import CO_OCCURRENCE_WEIGHT, build_graph

    extraction = _run(KETTLEBRIDGE)
    weights = {(a, b): w for a, b, w in build_graph(extraction.entities, extraction.relations)
               .weighted_edges()}  # fmt: skip
    assert weights[("alda-brandt", "tollhouse")] == CO_OCCURRENCE_WEIGHT < 1.0
    assert weights[("alda-brandt", "kettlebridge")] == 1.0


def test_a_pronoun_carries_the_previous_sentence_subject() -> None:
    text = (
        "# Session 2\n\nHob Tarrow met us at the ford. He owns the Copper Kettle. "
        "Hob Tarrow left.\n\nThe Copper Kettle is an inn.\n"
    )
    stated = {(r.source, r.type, r.target) for r in _run(text).relations if r.evidence == "stated"}
    assert stated == {("hob-tarrow", "owns", "copper-kettle")}


def test_a_name_the_world_pack_gives_with_its_title_is_not_extracted_again() -> None:
    pack = "entities:\n  - {name: Jarl Eydis Brandsdottir, type: NPC}\n"
    prose = "# Vardholm\n\nJarl Eydis Brandsdottir has sat in the Longhall for twenty winters.\n"
    docs = [
        SourceDocument(path="world.yaml", kind="worldpack", sha256="w", text=pack),
        _doc(prose),
    ]
    names = [e.name for e in extract(docs, chunk_size=1200).entities]
    assert "Eydis Brandsdottir" not in names  # the title "Jarl" kept apart, still known
    assert names.count("Jarl Eydis Brandsdottir") == 1
