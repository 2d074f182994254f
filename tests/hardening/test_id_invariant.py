"""An empty or colliding entity id is an error, never a merge: a merge of a GM-only entity into
a party one would show its secret text to players."""

from __future__ import annotations

import pytest

from extraction.resolution import merge_entities
from extraction.sources import document_from_bytes
from graphrag_core.errors import ExtractionError, SourceError
from graphrag_core.models import Entity
from graphrag_core.services.ingest import check_document


def test_an_empty_id_never_merges() -> None:
    a = Entity(id="", name="!!!", type="NPC", sources=("a.md",))
    b = Entity(id="", name="???", type="NPC", sources=("b.md",))
    with pytest.raises(ExtractionError, match="empty id"):
        merge_entities([a, b])


def test_a_gm_only_entity_never_merges_into_a_party_one_of_another_name() -> None:
    public = Entity(id="x", name="The Old Mill", type="Location", sources=("a.yaml",))
    secret = Entity(
        id="x", name="Cult Hideout", type="Location", visibility="gm",
        description="The cult of the Drowned Court meets here.", sources=("b.md",),
    )  # fmt: skip
    with pytest.raises(ExtractionError, match="Cult Hideout") as caught:
        merge_entities([public, secret])
    assert "a.yaml" in str(caught.value) and "b.md" in str(caught.value)


def test_the_same_entity_defined_twice_still_merges() -> None:
    pack = Entity(id="torven", name="Torven", type="NPC", sources=("world.yaml",))
    note = Entity(
        id="torven", name="Torven", type="NPC", visibility="gm", gm_notes="a smuggler",
        sources=("Torven.md",),
    )  # fmt: skip
    (merged,) = merge_entities([pack, note])
    assert merged.sources == ("world.yaml", "Torven.md")


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("world.yaml", "entities:\n  - name: Torven\n    id: ' '\n    type: NPC\n"),
        ("vault/Torven.md", "---\ntype: NPC\nid: ' '\n---\n# Torven\n"),
    ],
)
def test_an_id_that_is_blank_is_that_files_error(path: str, text: str) -> None:
    with pytest.raises(SourceError, match="gives no id"):
        check_document(document_from_bytes(path, text.encode()))


def test_a_near_duplicate_gm_only_definition_lends_no_text_to_players() -> None:
    public = Entity(id="torven", name="Torven", type="NPC", description="A merchant.")
    secret = Entity(
        id="torven", name="Torvén", type="NPC", visibility="gm",
        description="Secretly poisons the well with nightshade each night.",
    )  # fmt: skip
    (merged,) = merge_entities([public, secret])
    assert merged.visibility == "party"
    assert merged.description == "A merchant."
    assert "nightshade" in merged.gm_notes
