"""Names that a note's layout defines: table rows, bold terms and roster lines (issue 12).

A GM's crew manifest, glossary or roster names most people once; before, a name mentioned
once with no type cue was no entity, so a manifest's people were missing from the graph."""

from __future__ import annotations

import hashlib

from extraction.offline import extract
from extraction.prose_layout import layout_entries
from extraction.prose_names import common_words
from graphrag_core.models import Entity, SourceDocument

MANIFEST = """# Crew of the ore hauler

| Name | Role | Notes |
|---|---|---|
| Imani Okafor | Captain | Owns the hauler; her brother keeps the engines. |
| "Sparks" Ruiz | Comms | Smuggles medicine for the cartel. |
| Tomas Reyes | Engineer | Works for the Tannhauser Mining Company. |

**Tannhauser Mining Company** — owns every shaft on the moon.

**Allies:** Imani Okafor, Tomas Reyes

- Orla Vance — the company's quartermaster; sells suits at cost.
- Separately: the company wants the hauler back.
"""


def _entities(text: str, path: str = "lore/crew.md") -> dict[str, Entity]:
    sha = hashlib.sha256(text.encode()).hexdigest()
    doc = SourceDocument(path=path, kind="markdown", sha256=sha, text=text)
    return {e.name: e for e in extract([doc], chunk_size=1200).entities}


def _defined(text: str) -> list[tuple[str, str, str | None]]:
    entries, _ = layout_entries(text, common_words([text]))
    return [(e.span.name, e.entry, e.kind) for e in entries]


def test_a_manifest_s_people_named_once_are_entities_typed_and_described_by_their_row() -> None:
    found = _entities(MANIFEST)
    assert found["Imani Okafor"].type == "NPC"
    assert found["Imani Okafor"].description == (
        "Imani Okafor — Captain; Owns the hauler; her brother keeps the engines."
    )
    assert found["Tomas Reyes"].type == "NPC"
    assert found["Orla Vance"].type == "NPC"  # "the company's quartermaster"
    assert found["Orla Vance"].description.startswith("Orla Vance — the company's quartermaster")
    assert found["Tannhauser Mining Company"].description == (
        "Tannhauser Mining Company — owns every shaft on the moon."
    )


def test_a_nickname_in_quotes_is_an_alias_of_the_row_s_name() -> None:
    found = _entities(MANIFEST)
    assert "Sparks" in found["Sparks Ruiz"].aliases
    assert "Sparks" not in found


def test_labels_and_a_discourse_marker_before_a_colon_define_nothing() -> None:
    names = [name for name, _, _ in _defined(MANIFEST)]
    assert names == [
        "Imani Okafor", "Sparks Ruiz", "Tomas Reyes", "Tannhauser Mining Company", "Orla Vance",
    ]  # fmt: skip


def test_a_table_not_headed_by_names_defines_nothing() -> None:
    text = "| Day | Event |\n|---|---|\n| Monday | The Storm Comes |\n| Tuesday | Quiet |\n"
    assert _defined(text) == []


def test_a_row_whose_first_cell_is_no_single_name_defines_nothing() -> None:
    text = (
        "| Name | Notes |\n|---|---|\n| the night shift | tired |\n| 42 | a number |\n"
        "| Okafor and Reyes | two people |\n| Vell | the chief |\n"
    )
    assert [name for name, _, _ in _defined(text)] == ["Vell"]


def test_a_bold_label_over_a_list_of_names_defines_nothing_but_a_bold_term_with_a_colon_does() -> (
    None
):
    text = (
        "**Members:** Orla Vance, Tomas Reyes\n"
        "- **Dock Nine:** where the haulers unload their ore\n"
        "**Status:** quiet since the strike\n"
    )
    assert _defined(text) == [("Dock Nine", "where the haulers unload their ore", None)]


def test_a_roster_line_keeps_the_title_apart_and_reads_the_type_of_its_entry() -> None:
    text = "- Officer Danny Doyle — walks the harbour beat; the captain's son\n"
    entries, _ = layout_entries(text, common_words([text]))
    assert [(e.span.title, e.span.name) for e in entries] == [("Officer", "Danny Doyle")]
    assert _defined("- Mara Quill — an old smuggler who runs the bar\n") == [
        ("Mara Quill", "an old smuggler who runs the bar", "NPC")
    ]


def test_a_definition_list_s_term_is_defined_by_the_line_under_it() -> None:
    text = "Dock Nine\n: where the haulers unload their ore\n\nsome words\n: a stray colon line\n"
    assert _defined(text) == [("Dock Nine", "where the haulers unload their ore", None)]


def test_a_names_table_cut_by_a_chunk_boundary_goes_on_in_the_next_chunk() -> None:
    firsts = ["Abebe", "Brandt", "Castillo", "Dimitrov", "Eze", "Farouk"]
    names = [f"{first} {last}" for first in firsts for last in ("Kuria", "Lind", "Moss")]
    rows = "".join(f"| {name} | driller | on shift {i} |\n" for i, name in enumerate(names))
    text = "## Shift roster\n\n| Name | Job | Notes |\n|---|---|---|\n" + rows
    sha = hashlib.sha256(text.encode()).hexdigest()
    doc = SourceDocument(path="lore/roster.md", kind="markdown", sha256=sha, text=text)
    extraction = extract([doc], chunk_size=300)
    assert len(extraction.chunks) > 2  # the table is cut, between rows
    assert all(chunk.text.startswith(("|", "#")) for chunk in extraction.chunks)
    assert set(names) <= {e.name for e in extraction.entities}


def test_a_quoted_nickname_before_a_full_name_is_an_alias_and_no_part_of_the_name() -> None:
    text = (
        "# Crew\n\nImani Okafor runs the hauler.\n\n"
        '| Name | Role |\n|---|---|\n| "Cuckoo" Imani Okafor | Captain |\n'
        '| "Sparks" Ruiz | Comms |\n'
    )
    found = _entities(text)
    assert "Cuckoo Imani Okafor" not in found
    assert "Cuckoo" in found["Imani Okafor"].aliases
    assert "Sparks" in found["Sparks Ruiz"].aliases
