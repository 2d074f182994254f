"""The offline recap draft: stated deaths, destructions, disappearances and betrayals of known
entities are proposed, each quoting its sentence; hedged wording never is."""

from __future__ import annotations

import pytest
import yaml

from changelog.schema import parse_changeset
from extraction.recap_offline import draft_offline, sentences
from graphrag_core.models import Entity

ENTITIES = [
    Entity(id="copper-kettle", name="The Copper Kettle", type="Location"),
    Entity(id="hob", name="Hob Tarrow", type="NPC"),
    Entity(id="wenna", name="Wenna Marsh", type="NPC", aliases=("Old Wenna",)),
    Entity(id="guild", name="Tanners' Guild", type="Faction"),
    Entity(id="bridge", name="Old Stone Bridge", type="Location"),
    Entity(id="alda", name="Alda Brandt", type="NPC", aliases=("the Reeve",)),
    Entity(id="kestrel", name="Kestrel", type="PC"),
    Entity(id="dace", name="Dace Rook", type="NPC"),
    Entity(id="marta", name="Marta Hollis", type="NPC"),
    Entity(id="ledger", name="Salt Ledger", type="Item"),
    Entity(id="will", name="Will Fenn", type="NPC"),
    Entity(id="red-oak", name="Red Oak", type="Faction"),
]


def _proposed(text: str) -> list[tuple[str, str]]:
    sets = draft_offline(text, session=4, entities=ENTITIES).changeset
    found = [(u["entity_id"], u["status"]) for u in sets["entity_updates"]]
    return found + [(u["from"], u["new_status"]) for u in sets["relationship_updates"]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We burned the Copper Kettle to the ground.", ("copper-kettle", "destroyed")),
        ("The Copper Kettle burned down overnight.", ("copper-kettle", "destroyed")),
        ("Hob Tarrow was slain by Kestrel on the stairs.", ("hob", "dead")),
        ("Old Wenna died in her sleep.", ("wenna", "dead")),
        ("Kestrel killed Dace Rook.", ("dace", "dead")),
        ("In the end we killed Dace.", ("dace", "dead")),
        ("Hob Tarrow, the innkeeper, was killed by bandits.", ("hob", "dead")),
        ("The guild turned on us.", ("guild", "hostile")),
        ("The Reeve betrayed us to the bandits.", ("alda", "hostile")),
        ("The bridge collapsed under the cart.", ("bridge", "destroyed")),
        ("Marta fled into the marsh.", ("marta", "missing")),
        ("Wenna vanished before dawn.", ("wenna", "missing")),
        ("The Salt Ledger was lost in the river.", ("ledger", "lost")),
        ("Will Fenn died at the ford.", ("will", "dead")),
        ("Torven tried to flee, and Kestrel killed Hob.", ("hob", "dead")),
    ],
)
def test_a_stated_change_is_proposed(text: str, expected: tuple[str, str]) -> None:
    assert _proposed(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "Dace tried to kill Marta, but Kestrel pulled her away.",
        "Hob barely survived the fire.",
        "Wenna was wounded in the fight.",
        "Hob nearly died.",
        "Alda was left for dead but crawled home.",
        "If Hob dies, the guild will fall.",
        "Dace threatened to burn the Copper Kettle.",
        "Dace threatened to burn the Copper Kettle to the ground.",
        "The guild might turn on us.",
        "Marta stabbed Dace Rook, who barely survived.",
        "Hob was killed, or so the rumour went.",
        "Kestrel almost killed Dace Rook.",
        "The bridge nearly collapsed under the cart.",
        "Hob did not die.",
        "Dace Rook was struck down but survived.",
        "Kestrel killed him.",
        "The Copper Kettle was saved from the fire.",
        "Kestrel spoke with Hob about the guild.",
    ],
)
def test_hedged_or_unstated_wording_proposes_nothing(text: str) -> None:
    assert _proposed(text) == []


def test_a_change_must_fit_the_entity_type() -> None:
    assert _proposed("The Copper Kettle died a little that night.") == []
    assert _proposed("Hob collapsed at the bar.") == []


def test_each_proposal_quotes_its_sentence_and_the_draft_is_postable() -> None:
    text = "# Session 4\n\nWe met the Reeve. Old Wenna died at noon.\n\n- The bridge collapsed."
    draft = draft_offline(text, session=4, entities=ENTITIES)
    updates = draft.changeset["entity_updates"]
    assert [u["quote"] for u in updates] == ["Old Wenna died at noon.", "The bridge collapsed."]
    assert all(u["quote"] in text for u in updates)
    parsed = parse_changeset(yaml.safe_dump(draft.changeset), filename="draft.yaml")
    assert parsed.session_id == 4 and len(parsed.entity_updates) == 2


def test_the_same_change_twice_is_proposed_once() -> None:
    assert _proposed("Hob died. Later we learned Hob died of the poison.") == [("hob", "dead")]


def test_a_hedged_statement_is_listed_as_skipped() -> None:
    draft = draft_offline("Hob nearly died.", session=4, entities=ENTITIES)
    assert draft.proposed == 0 and "hedged ('nearly')" in draft.skipped[0]


def test_sentences_split_at_ends_paragraphs_and_list_items() -> None:
    text = "# Session 4\nHob rested. Wenna sang!\n\n- Dace fled\n- Marta\nwandered off."
    assert list(sentences(text)) == [
        "Hob rested.", "Wenna sang!", "Dace fled", "Marta\nwandered off.",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "The barge of the Red Oak sank.",
        "The Ashen Hand burned the Copper Kettle stables to the ground.",
        "Hob's dog died.",
        "Kestrel killed Hob's hound.",
        "The Copper Kettle cellar collapsed.",
    ],
)
def test_a_name_inside_a_longer_noun_phrase_is_not_what_changed(text: str) -> None:
    assert _proposed(text) == []


def test_arrests_and_rescues_and_broken_factions() -> None:
    assert _proposed("Captain Holt arrested Dace Rook for smuggling.") == [("dace", "captured")]
    assert _proposed("We broke Dace Rook out of the cells.") == [("dace", "alive")]
    assert _proposed("The guild was broken.") == [("guild", "disbanded")]
    assert _proposed("The guild now treats the party as outlaws.") == [("guild", "hostile")]


def test_a_time_or_a_conjunction_after_the_verb_is_no_object() -> None:
    assert _proposed("The Copper Kettle burned down the same night.") == [
        ("copper-kettle", "destroyed")
    ]
    assert _proposed("The guild was broken and its last members fled.") == [("guild", "disbanded")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The next morning Hob Tarrow was found dead in the alley.", ("hob", "dead")),
        ("Wenna Marsh is officially missing.", ("wenna", "missing")),
        ("When we came back the Salt Ledger was gone.", ("ledger", "lost")),
        ("We captured Dace Rook alive and took him to the Reeve.", ("dace", "captured")),
    ],
)
def test_wording_found_in_the_example_recaps(text: str, expected: tuple[str, str]) -> None:
    assert _proposed(text) == [expected]


def test_a_change_stated_in_gm_notes_is_proposed_gm_only() -> None:
    text = "# Session 5\nHob Tarrow left town.\n\n## GM Notes\n\nHob Tarrow is dead. Wenna died."
    entities = [*ENTITIES, Entity(id="oona", name="Sister Oona", type="NPC", visibility="gm")]
    draft = draft_offline(text + "\n\n## Later\nSister Oona died.", session=5, entities=entities)
    updates = {u["entity_id"]: u.get("visibility") for u in draft.changeset["entity_updates"]}
    assert updates == {"hob": "gm", "wenna": "gm", "oona": "gm"}
    public = draft_offline("# Session 5\nHob Tarrow died.", session=5, entities=ENTITIES)
    assert "visibility" not in public.changeset["entity_updates"][0]
