"""The offline prose stages on faults found by scoring whole prose campaigns against their name
lists (``benchmarks/bench_prose_extraction.py --names``): types, epithets, aliases, topics."""

from __future__ import annotations

import hashlib

import pytest

from extraction.offline import extract
from extraction.prose_types import (
    apposition_type,
    definition_type,
    name_type,
    title_type,
    weak_type,
)
from graphrag_core.models import Entity, Extraction, SourceDocument


def _run(*texts: str) -> Extraction:
    docs = [
        SourceDocument(
            path=f"lore-{i}.md",
            kind="markdown",
            sha256=hashlib.sha256(text.encode()).hexdigest(),
            text=text,
        )
        for i, text in enumerate(texts)
    ]
    return extract(docs, chunk_size=1200)


def _named(extraction: Extraction) -> dict[str, Entity]:
    return {e.name: e for e in extraction.entities}


@pytest.mark.parametrize(
    ("name", "kind"),
    [("Black Tide Smugglers", "Faction"), ("The Tide Sisters", "Faction"),
     ("The Sun Guard", "Faction"), ("Tollguard", "Faction"), ("Port Varrow", "Location"),
     ("Mount Sorrow", "Location"), ("Tamra Oasis", "Location"), ("Skarn Shipyard", "Location"),
     ("Pearl of Tides", "Item"), ("Gannet Rock", "Location"), ("Hob Tarrow", None),
     ("Smuggler", None)],
)  # fmt: skip
def test_a_name_head_types_groups_places_and_things(name: str, kind: str | None) -> None:
    assert name_type(name) == kind


def test_a_definition_reads_past_shape_nouns_and_plural_verbs() -> None:
    ring = "Tamra Oasis is a ring of palms around a green pool."
    assert definition_type(ring, 0, len("Tamra Oasis")) is None  # no ring: the head decides
    band = "The Black Gull Company is a band of pirates."
    assert definition_type(band, 0, len("The Black Gull Company")) == "Faction"
    many = "The Tidewardens are the priests and guardians of the Tidemother."
    assert definition_type(many, 0, len("The Tidewardens")) == "Faction"
    one = "Orla is the priestess of the shrine."
    assert definition_type(one, 0, len("Orla")) == "NPC"


def test_apposition_reads_adjectives_and_hyphenated_roles() -> None:
    thin = "Orm Gallowsson, a thin and careful man, is her steward."
    assert apposition_type(thin, 0, len("Orm Gallowsson")) == "NPC"
    wolf = "Older is Hrimulf, the wolf-god of winter."
    assert apposition_type(wolf, wolf.index("Hrimulf"), wolf.index(",")) == "Deity"
    guide = "We hired Teodor Lasch, the goat-guide, at the foot of the road."
    assert apposition_type(guide, 9, 21) == "NPC"
    assert apposition_type("Nessa Quill, a cartographer, sells charts.", 0, 11) == "NPC"


def test_titles_and_weak_cues() -> None:
    assert title_type("Saint") == "Deity"
    assert title_type("Prior") == "NPC"
    who = "Its guildmistress is Tove Ironline, who lost a hand to a harpoon line."
    at = who.index("Tove")
    assert weak_type(who, at, at + len("Tove Ironline")) == "NPC"
    into = "The party rode into Duneveil at dusk."
    at = into.index("Duneveil")
    assert weak_type(into, at, at + len("Duneveil")) == "Location"
    hand = "The knife was in Orm's hand."
    at = hand.index("Orm")
    assert weak_type(hand, at, at + 3) is None


def test_prose_campaign_types_people_groups_places_and_saints() -> None:
    text = (
        "# The Gap\n\n"
        "Travellers pray to Saint Odila before the climb. Saint Odila carried a lamp.\n"
        "Prior Benedikt rules the brothers. Prior Benedikt was not seen for days.\n"
        "Kaspar Iselin, the farrier, runs the yard. Kaspar Iselin gave us crampons.\n"
        "The Tollguard keeps the gate. The Tollguard met us with crossbows.\n"
        "We rode into Caldergap at dusk and slept in Caldergap that night.\n"
        "Jory Flint waved. Jory Flint left.\n"
    )
    types = {name: e.type for name, e in _named(_run(text)).items()}
    assert types["Odila"] == "Deity"
    assert types["Benedikt"] == "NPC"
    assert types["Kaspar Iselin"] == "NPC"
    assert types["Tollguard"] == "Faction"
    assert types["Caldergap"] == "Location"
    assert types["Jory Flint"] == "Other"  # no cue: unsure, so no guess
