"""The index check behind ``migrate`` and ``doctor``: what a database holds against what the
migrations create — by name, state and vector dimension."""

from __future__ import annotations

from graphrag_core.stores.schema import (
    EXPECTED_INDEXES,
    MIGRATIONS,
    FoundIndex,
    SchemaHints,
    check_indexes,
    index_problems,
)

HINTS = SchemaHints(drop=lambda spec: f"DROP INDEX {spec.name}", fresh_store="another database")


def _neo4j_like(dimension: int = 384, **states: str) -> list[FoundIndex]:
    """Every expected index as Neo4j lists it (named), at ``dimension``."""
    return [
        FoundIndex(
            spec.name, spec.label, spec.kind, spec.properties, states.get(spec.name, "ONLINE"),
            dimension if spec.kind == "vector" else None,
        )
        for spec in EXPECTED_INDEXES
    ]  # fmt: skip


def test_every_migration_has_one_index_and_names_are_unique() -> None:
    assert len(set(MIGRATIONS)) == len(MIGRATIONS) == len(EXPECTED_INDEXES)
    assert len({spec.name for spec in EXPECTED_INDEXES}) == len(EXPECTED_INDEXES)
    assert len({spec.key for spec in EXPECTED_INDEXES}) == len(EXPECTED_INDEXES)
    assert {"ExtractionCache:key", "GmDecision:key", "Migration:key"} <= {
        spec.key for spec in EXPECTED_INDEXES
    }


def test_all_present_online_and_of_the_right_dimension() -> None:
    check = check_indexes(_neo4j_like(), 384)
    assert (check.missing, check.not_online, check.wrong_dimension) == ((), (), ())
    assert not check.blocking and index_problems(check, 384, HINTS) == []


def test_an_index_under_another_name_does_not_count() -> None:
    """A user's own vector index on :Chunk(embedding) is not loregraph's chunk_embedding."""
    found = [
        i if i.name != "chunk_embedding" else FoundIndex("theirs", *_rest(i)) for i in _neo4j_like()
    ]
    check = check_indexes(found, 384)
    assert [spec.name for spec in check.missing] == ["chunk_embedding"] and check.blocking


def _rest(index: FoundIndex) -> tuple[str, str, tuple[str, ...], str, int | None]:
    return index.label, index.kind, index.properties, index.state, index.dimension


def test_a_range_index_is_no_constraint_on_neo4j() -> None:
    found = [
        FoundIndex(i.name, i.label, "range", *_rest(i)[2:]) if i.name == "entity_key" else i
        for i in _neo4j_like()
    ]
    assert [spec.name for spec in check_indexes(found, 384).missing] == ["entity_key"]


def test_falkordb_indexes_have_no_names_and_keys_are_range_indexes() -> None:
    found = [
        FoundIndex(None, spec.label, "range" if spec.kind == "key" else spec.kind,
                   (*spec.properties, "extra"), "ONLINE", 384 if spec.kind == "vector" else None)
        for spec in EXPECTED_INDEXES
    ]  # fmt: skip
    assert not check_indexes(found, 384, key_kind="range").blocking
    assert check_indexes(found, 384).missing  # without key_kind, a range is no key


def test_states_other_than_online_are_reported_and_failed_blocks() -> None:
    check = check_indexes(_neo4j_like(entity_embedding="POPULATING", chunk_text="FAILED"), 384)
    assert {(spec.name, state) for spec, state in check.not_online} == {
        ("entity_embedding", "POPULATING"), ("chunk_text", "FAILED"),
    }  # fmt: skip
    assert [spec.name for spec in check.failed] == ["chunk_text"] and check.blocking
    problems = index_problems(check, 384, HINTS)
    assert any("POPULATING" in p and "wait" in p for p in problems)
    assert any("FAILED" in p and "DROP INDEX chunk_text" in p for p in problems)
    assert not check_indexes(_neo4j_like(entity_embedding="POPULATING"), 384).blocking


def test_a_vector_index_of_another_dimension_blocks_with_what_to_do() -> None:
    check = check_indexes(_neo4j_like(dimension=32), 384)
    assert {spec.name for spec, found in check.wrong_dimension if found == 32} == {
        "entity_embedding", "chunk_embedding", "community_summary_embedding",
    }  # fmt: skip
    assert check.blocking
    [problem] = index_problems(check, 384, HINTS)
    assert "32" in problem and "384" in problem and "another database" in problem
    assert "DROP INDEX entity_embedding" in problem and "migration_entity_vector_index" in problem
