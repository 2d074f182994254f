"""``benchmarks/prose_only.py`` rewrites the name list's references into the spellings a
prose-only graph knows: ids and the list's names and aliases in change sets (most sets name
their entities), never a note or a status word."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "prose_only", ROOT / "benchmarks" / "prose_only.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_change_set_naming_its_entities_is_rewritten_to_the_known_spelling() -> None:
    po = _harness()
    spellings = {
        "ezra-quill": ["Dr Ezra Quill", "Doc", "Doc Quill"],
        "calloway-gang": ["The Calloway Gang", "the Calloways", "Doc"],
    }
    names = po._by_spelling(
        spellings, {"ezra-quill": "Doc Quill", "calloway-gang": "the Calloways"}
    )
    change_set = {
        "entity_updates": [
            {"entity_id": "Dr Ezra Quill", "status": "captured", "captured_by": ["calloway-gang"],
             "note": "Dr Ezra Quill was taken by the Calloways."},
            {"entity_id": "Doc", "status": "dead"},
        ],
        "relationship_updates": [
            {"from": "The Calloway Gang", "to": "party", "new_status": "hostile"}
        ],
    }  # fmt: skip
    named = po._named(change_set, names, keys=po._REFERENCES)
    first, second = named["entity_updates"]
    assert first["entity_id"] == "Doc Quill" and first["captured_by"] == ["the Calloways"]
    assert first["note"] == "Dr Ezra Quill was taken by the Calloways."  # prose left alone
    assert second["entity_id"] == "Doc"  # two ids share "Doc": not guessed
    assert named["relationship_updates"][0]["from"] == "the Calloways"
    assert named["relationship_updates"][0]["to"] == "party"


def test_question_labels_rewrite_ids_and_keep_status_words() -> None:
    po = _harness()
    names = {"ezra-quill": "Doc Quill", "captured": "Captured Ones"}
    assert po._named(["ezra-quill", "x"], names) == ["Doc Quill", "x"]
    assert po._named({"ezra-quill": "captured"}, names) == {"Doc Quill": "captured"}
