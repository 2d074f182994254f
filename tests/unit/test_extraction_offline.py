"""The offline extractor end to end, on inline sources and on the example campaign."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from extraction.offline import OfflineExtractor, extract, extract_with_warnings
from extraction.resolution import EntityResolver
from extraction.sources import discover, load_document
from graphrag_core.config import IngestSettings
from graphrag_core.models import PARTY_ID, Extraction, SourceDocument

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "emberfall" / "world"

WORLD = """
entities:
  - id: torven-blackwater
    name: Torven Blackwater
    type: NPC
    aliases: [Torven]
    gm_aliases: [The Grey Hand]
    status: alive
    description: A cloth merchant.
    relations:
      - {type: member_of, target: Merchants' Guild}
      - {type: knows, target: Nobody Known}
      - {type: hostile_to, target: players, visibility: gm}
  - name: Millbrook
    type: Location
  - name: Ashen Choir
    type: Faction
    visibility: gm
"""

GUILD = """---
type: Faction
aliases: [the Guild]
---
# Merchants' Guild

The Guild counts coin in [[Harrowgate]]. See [[Torven Blackwater]].

## GM Notes

The Grey Hand pays the Ashen Choir.
"""

LORE = """# Gazetteer

## Millbrook

Millbrook is ruled by Torven. The Grey Hand is a rumour here.
Torven is a member of the Merchants' Guild.

## Rumours

They say the grey hand walks at night.

## GM Secrets

Torven leads the Ashen Choir.
"""

Kind = Literal["markdown", "text", "vault", "worldpack"]


def _doc(path: str, kind: Kind, text: str) -> SourceDocument:
    return SourceDocument(path=path, kind=kind, sha256="x", text=text)


def _run() -> tuple[Extraction, list[str]]:
    docs = [
        _doc("lore/gazetteer.md", "markdown", LORE),
        _doc("world.yaml", "worldpack", WORLD),
        _doc("vault/Merchants' Guild.md", "vault", GUILD),
    ]
    return extract_with_warnings(docs, chunk_size=400)


def test_entities_are_merged_sorted_and_sourced() -> None:
    extraction, _ = _run()
    ids = [e.id for e in extraction.entities]
    assert ids == sorted(ids)
    assert ids == ["ashen-choir", "merchants-guild", "millbrook", PARTY_ID, "torven-blackwater"]
    torven = next(e for e in extraction.entities if e.id == "torven-blackwater")
    assert torven.status == "alive"
    millbrook = next(e for e in extraction.entities if e.id == "millbrook")
    assert millbrook.status is None
    assert millbrook.sources == ("world.yaml", "lore/gazetteer.md")


def test_relations_resolved_deduped_and_unresolved_dropped() -> None:
    extraction, warnings = _run()
    keys = {(r.source, r.type, r.target): r for r in extraction.relations}
    assert ("torven-blackwater", "member_of", "merchants-guild") in keys
    assert keys["torven-blackwater", "member_of", "merchants-guild"].chunk_id is None
    assert keys["millbrook", "ruled_by", "torven-blackwater"].chunk_id is not None
    assert keys["merchants-guild", "related_to", "torven-blackwater"].visibility == "party"
    hostile = keys["torven-blackwater", "hostile_to", PARTY_ID]
    assert (hostile.visibility, hostile.attitude) == ("gm", "hostile")
    leads = keys["torven-blackwater", "leads", "ashen-choir"]
    assert leads.visibility == "gm"
    assert not any(r.target == "Harrowgate" or r.target == "Nobody Known" for r in keys.values())
    assert len([w for w in warnings if "dropped" in w]) == 2
    assert any("'Harrowgate'" in w for w in warnings)
    assert len(keys) == len(extraction.relations)


def test_chunks_mentions_subjects_and_no_gm_alias_leak() -> None:
    extraction, _ = _run()
    by_heading = {(c.source_path, c.heading): c for c in extraction.chunks}
    rumour = by_heading["lore/gazetteer.md", "Gazetteer > Millbrook"]
    assert rumour.visibility == "party"
    assert rumour.subject == "millbrook"
    assert rumour.mentions == ("merchants-guild", "millbrook", "torven-blackwater")
    assert by_heading["lore/gazetteer.md", "Gazetteer > Rumours"].mentions == ()
    secret = by_heading["lore/gazetteer.md", "Gazetteer > GM Secrets"]
    assert secret.visibility == "gm"
    assert secret.mentions == ("ashen-choir", "torven-blackwater")
    guild_gm = by_heading["vault/Merchants' Guild.md", "Merchants' Guild > GM Notes"]
    assert guild_gm.subject == "merchants-guild"
    assert guild_gm.mentions == ("ashen-choir", "merchants-guild", "torven-blackwater")
    pack = by_heading["world.yaml", "Torven Blackwater"]
    assert (pack.subject, pack.visibility) == ("torven-blackwater", "gm")
    for chunk in extraction.chunks:
        if chunk.visibility == "party":
            assert "ashen-choir" not in chunk.mentions, chunk.id


def test_deterministic_and_settings_bound() -> None:
    docs = [_doc("world.yaml", "worldpack", WORLD), _doc("lore/g.md", "markdown", LORE)]
    first = extract(docs, chunk_size=400)
    assert first == extract(list(reversed(docs)), chunk_size=400)
    bound, _ = OfflineExtractor(IngestSettings(chunk_size=400)).extract(docs)
    assert bound == first


@pytest.mark.skipif(not EXAMPLES.is_dir(), reason="example campaign not present")
def test_example_world() -> None:
    docs = [load_document(path, EXAMPLES) for path in discover(EXAMPLES)]
    extraction, _ = extract_with_warnings(docs, chunk_size=1200)
    texts = {doc.path: doc.text for doc in docs}
    assert len(extraction.entities) >= 45
    resolver = EntityResolver(extraction.entities)
    assert resolver.resolve("Torven") == "torven-blackwater"
    entity_ids = {e.id for e in extraction.entities}
    assert all({r.source, r.target} <= entity_ids for r in extraction.relations)
    gm_notes = [e.gm_notes for e in extraction.entities if e.gm_notes]
    for chunk in extraction.chunks:
        assert texts[chunk.source_path][chunk.start : chunk.end] == chunk.text
        assert set(chunk.mentions) <= entity_ids
        if any("GM" in title.split() for title in chunk.heading.split(" > ")):
            assert chunk.visibility == "gm", chunk.id
        if chunk.visibility == "party":
            assert not any(note in chunk.text for note in gm_notes), chunk.id
    assert any(r.chunk_id for r in extraction.relations)
