"""What a store is asked to hold is checked before anything is sent (``stores.rows``), and a
store address never shows its password (``stores.uris``)."""

from __future__ import annotations

import math

import pytest

from graphrag_core.errors import ConfigError, StoreError
from graphrag_core.stores.rows import bad_number, check_parameters, checked, vector_rows
from graphrag_core.uris import check_neo4j_uri, password_of, redact


@pytest.mark.parametrize(
    "value",
    [math.nan, math.inf, -math.inf, 2**63, -(2**63) - 1, [0.1, math.nan], {"a": [1, 2**70]}],
)
def test_values_no_store_can_hold_exactly(value: object) -> None:
    assert bad_number(value) is not None


@pytest.mark.parametrize(
    "value", [0.5, -(2**63), 2**63 - 1, True, "nan", None, [0.1, 0.2], {"a": [1, "x"]}, []]
)
def test_values_a_store_holds(value: object) -> None:
    assert bad_number(value) is None


def test_check_parameters_names_the_statement_and_the_item() -> None:
    rows = [{"id": "a", "embedding": [0.1]}, {"id": "b", "embedding": [0.2, math.inf]}]
    with pytest.raises(StoreError, match=r"'entity_embeddings_set'.*'rows'.*'b'.*inf"):
        check_parameters("entity_embeddings_set", {"campaign": "c", "rows": rows})
    with pytest.raises(StoreError, match=r"'seq'.*nothing was written"):
        check_parameters("gm_decision_append", {"campaign": "c", "seq": 2**64})
    check_parameters("entities_upsert", {"campaign": "c", "rows": [{"id": "a", "props": {}}]})


def test_props_and_vectors_are_checked_by_item() -> None:
    with pytest.raises(StoreError, match=r"entity x: property 'weight' holds the number nan"):
        checked("entity x", {"weight": math.nan})
    with pytest.raises(StoreError, match=r"vector of 'x' holds the number inf"):
        vector_rows(["x"], {"x": (0.0, math.inf)}, 2)
    assert checked("entity x", {"names": ("a", "b")}) == {"names": ["a", "b"]}


def test_redact_hides_only_the_password() -> None:
    assert redact("redis://:pw@127.0.0.1:1") == "redis://:***@127.0.0.1:1"
    assert redact("redis://user:pw@host:6379/0") == "redis://user:***@host:6379/0"
    assert redact("bolt://db.example:7687") == "bolt://db.example:7687"
    assert "pw" not in redact("redis://:pw@[::1")  # malformed: shown as its scheme only


def test_password_of_finds_the_password_or_none() -> None:
    assert password_of("redis://user:pw@host:6379/0") == "pw"
    assert password_of("bolt://db.example:7687") is None
    assert password_of(None) is None
    assert password_of("redis://:pw@[::1") is None  # malformed


@pytest.mark.parametrize(
    "uri",
    ["bolt://h:7687", "bolt+s://h", "bolt+ssc://h", "neo4j://h", "neo4j+s://h", "neo4j+ssc://h"],
)
def test_bolt_schemes_are_neo4j_uris(uri: str) -> None:
    assert check_neo4j_uri(uri) == uri


@pytest.mark.parametrize("uri", ["http://h:7474", "https://h", "h:7687", "redis://h"])
def test_other_schemes_are_a_config_error_naming_the_setting(uri: str) -> None:
    with pytest.raises(ConfigError, match=r"LOREGRAPH_NEO4J_URI.*neo4j://localhost:7687"):
        check_neo4j_uri(uri)
    with pytest.raises(ConfigError, match="--to-neo4j-uri"):
        check_neo4j_uri(uri, setting="--to-neo4j-uri")


def test_the_browser_address_gets_a_hint() -> None:
    with pytest.raises(ConfigError, match="Browser"):
        check_neo4j_uri("http://localhost:7474")
