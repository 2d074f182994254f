"""The taxonomy extension: extra entity and relation types from the settings reach the offline
extractor (world packs, vault notes), the LLM schema and prompt, and schema pruning."""

from __future__ import annotations

import hashlib

import pytest

from extraction.llm_chunks import ChunkExtractor
from extraction.llm_schema import ChunkExtraction, ExtractedEntity, ExtractedRelation
from extraction.offline import extract_with_warnings
from extraction.pruning import prune
from graphrag_core.config import IngestSettings
from graphrag_core.models import Chunk, SourceDocument
from graphrag_core.settings import load_settings
from graphrag_core.taxonomy import DEFAULT_TAXONOMY, Taxonomy
from tests.fakes import ScriptedChatModel

SRD = Taxonomy.extended(["Spell", "Class", "spell"], ["Prepared By", "located_in"])
PACK = """entities:
  - name: Fireball
    type: spell
    status: unknown
    relations: [{type: prepared_by, target: Wizard}]
  - {name: Wizard, type: Class}
"""


def _doc(text: str, path: str = "pack.yaml", kind: str = "worldpack") -> SourceDocument:
    sha = hashlib.sha256(text.encode()).hexdigest()
    return SourceDocument(path=path, kind=kind, sha256=sha, text=text)  # type: ignore[arg-type]


def test_extended_taxonomy_adds_types_once_with_the_unknown_status() -> None:
    assert SRD.entity_types[-3:] == ("Spell", "Class", "Other")
    assert SRD.relation_types[-1] == "prepared_by"
    assert SRD.relation_types.count("located_in") == 1
    assert SRD.statuses_of("Spell") == ("unknown",)
    assert SRD.statuses_of("NPC")[0] == "alive"
    assert Taxonomy.extended() == DEFAULT_TAXONOMY and DEFAULT_TAXONOMY.is_default


def test_settings_read_extra_types_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOREGRAPH_INGEST__EXTRA_ENTITY_TYPES", '["Spell","Class"]')
    monkeypatch.setenv("LOREGRAPH_INGEST__EXTRA_RELATION_TYPES", '["prepared_by"]')
    taxonomy = load_settings().ingest.taxonomy()
    assert "Spell" in taxonomy.entity_types and "prepared_by" in taxonomy.relation_types


def test_settings_read_extra_types_from_toml(tmp_path: object) -> None:
    from pathlib import Path

    config = Path(str(tmp_path)) / "loregraph.toml"
    config.write_text('[ingest]\nextra_entity_types = ["Condition"]\n', "utf-8")
    assert "Condition" in load_settings(config).ingest.taxonomy().entity_types
    assert IngestSettings().taxonomy().is_default


def test_offline_world_pack_types_follow_the_taxonomy() -> None:
    default, warnings = extract_with_warnings([_doc(PACK)], chunk_size=400)
    assert {e.type for e in default.entities} == {"Other"} and len(warnings) == 3
    extended, warnings = extract_with_warnings([_doc(PACK)], chunk_size=400, taxonomy=SRD)
    assert {e.name: e.type for e in extended.entities} == {"Fireball": "Spell", "Wizard": "Class"}
    assert [r.type for r in extended.relations] == ["prepared_by"] and warnings == []


def test_vault_folder_and_front_matter_use_extra_types() -> None:
    note = _doc("---\nprepared_by: \"[[Wizard]]\"\n---\n# Fireball\n\nBoom.\n",
                "vault/spells/Fireball.md", "vault")  # fmt: skip
    wizard = _doc("---\ntype: class\n---\n# Wizard\n", "vault/Wizard.md", "vault")
    found, _ = extract_with_warnings([note, wizard], chunk_size=400, taxonomy=SRD)
    assert {e.name: e.type for e in found.entities} == {"Fireball": "Spell", "Wizard": "Class"}
    assert [r.key for r in found.relations] == [("fireball", "prepared_by", "wizard")]


def test_pruning_maps_onto_extra_types() -> None:
    found = ChunkExtraction(
        entities=[ExtractedEntity(name="Fireball", type="spells"),
                  ExtractedEntity(name="Wizard", type="Class")],
        relations=[ExtractedRelation(source="Fireball", type="prepared by", target="Wizard")],
    )  # fmt: skip
    default, _ = prune(found, "c1", lambda name: False)
    assert [e.type for e in default.entities] != ["Spell", "Class"]
    pruned, _ = prune(found, "c1", lambda name: False, SRD)
    assert [e.type for e in pruned.entities] == ["Spell", "Class"]
    assert [r.type for r in pruned.relations] == ["prepared_by"]


def test_llm_schema_and_prompt_carry_the_extra_types() -> None:
    chunk = Chunk(id="c1", source_path="a.md", start=0, end=4, text="Boom", content_hash="x")
    plain, srd = (
        ChunkExtractor(ScriptedChatModel([])),
        ChunkExtractor(ScriptedChatModel([]), taxonomy=SRD),
    )
    assert plain.schema is None  # the built-in taxonomy: the schema as before
    assert srd.schema is not None
    entity = srd.schema["$defs"]["ExtractedEntity"]["properties"]["type"]
    assert entity["enum"] == list(SRD.entity_types)
    assert (
        "Spell"
        in srd.request(chunk).messages[-1]["content"] + srd.request(chunk).messages[0]["content"]
    )
    assert plain.request(chunk).key != srd.request(chunk).key
