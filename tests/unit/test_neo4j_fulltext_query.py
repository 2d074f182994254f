"""User text becomes a safe Lucene query for Neo4j's full-text index."""

from __future__ import annotations

from graphrag_core.stores.neo4j import lucene_any


def test_words_are_ored() -> None:
    assert lucene_any(["Torven", "tavern"]) == "Torven OR tavern"


def test_operator_words_are_searched_for_not_obeyed() -> None:
    assert lucene_any(["cats", "AND", "dogs", "NOT", "Or"]) == "cats OR and OR dogs OR not OR or"


def test_special_characters_are_escaped() -> None:
    assert lucene_any(["a+b", "c:d", "e*"]) == "a\\+b OR c\\:d OR e\\*"


def test_empty_terms_are_dropped() -> None:
    assert lucene_any([]) == ""
