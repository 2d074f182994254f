"""Discovering and loading source files, and the errors broken ones raise."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from extraction.sources import discover, load_document
from graphrag_core.errors import SourceError

PACK = "entities:\n  - name: Millbrook\n    type: Location\n"


def _write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_discover_is_sorted_recursive_and_skips_hidden(tmp_path: Path) -> None:
    for rel in ["b.md", "a/z.txt", "a/b.yaml", "README.md", ".git/x.md", "v/.obsidian/y.md"]:
        _write(tmp_path, rel, "x")
    _write(tmp_path, "image.png", b"\x89PNG")
    found = [p.relative_to(tmp_path).as_posix() for p in discover(tmp_path)]
    assert found == ["README.md", "a/b.yaml", "a/z.txt", "b.md"]


def test_discover_single_file_and_missing_root(tmp_path: Path) -> None:
    note = _write(tmp_path, "note.md", "# Hi")
    assert discover(note) == [note]
    with pytest.raises(SourceError, match="no such file"):
        discover(tmp_path / "absent")
    with pytest.raises(SourceError, match="unsupported file type"):
        discover(_write(tmp_path, "x.png", b"x"))


def test_kinds(tmp_path: Path) -> None:
    _write(tmp_path, "vault/.obsidian/app.json", "{}")
    files = {
        "vault/deep/Torven.md": "# Torven\n",
        "notes/front.md": "---\ntype: NPC\n---\n# Pip\n",
        "notes/plain.md": "# Plain\n",
        "notes/plain.txt": "text",
        "world.yml": PACK,
    }
    for rel, content in files.items():
        _write(tmp_path, rel, content)
    kinds = {rel: load_document(tmp_path / rel, tmp_path).kind for rel in files}
    assert kinds == {
        "vault/deep/Torven.md": "vault",
        "notes/front.md": "vault",
        "notes/plain.md": "markdown",
        "notes/plain.txt": "text",
        "world.yml": "worldpack",
    }


def test_document_fields(tmp_path: Path) -> None:
    raw = "# Notes\r\nCafé\r\n".encode()
    path = _write(tmp_path, "sub/dir/notes.md", raw)
    doc = load_document(path, tmp_path)
    assert doc.path == "sub/dir/notes.md"
    assert doc.sha256 == hashlib.sha256(raw).hexdigest()
    assert doc.text == "# Notes\r\nCafé\r\n"
    assert load_document(path, path).path == "notes.md"


def test_changelog_yaml_is_not_a_world_pack(tmp_path: Path) -> None:
    path = _write(tmp_path, "session-03.yaml", "session_id: 3\nchanges: []\n")
    with pytest.raises(SourceError) as caught:
        load_document(path, tmp_path)
    assert caught.value.path == "session-03.yaml"
    assert "not a world pack" in caught.value.reason
    assert "loregraph changelog post" in caught.value.reason


def test_invalid_yaml_names_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "world.yaml", "entities:\n  - name: [unclosed\n  - name: x\n")
    with pytest.raises(SourceError, match=r"world\.yaml: invalid YAML at line \d+"):
        load_document(path, tmp_path)


def test_bad_front_matter_names_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "Pip.md", "---\ntype: NPC\naliases: [Pip\n---\nBody\n")
    with pytest.raises(SourceError, match=r"Pip\.md: invalid YAML front matter at line \d"):
        load_document(path, tmp_path)
    path = _write(tmp_path, "List.md", "---\n- a\n- b\n---\nBody\n")
    with pytest.raises(SourceError, match="front matter must be a YAML mapping"):
        load_document(path, tmp_path)


def test_non_utf8_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "latin1.txt", "line one\nCaf\xe9\n".encode("latin-1"))
    with pytest.raises(SourceError) as caught:
        load_document(path, tmp_path)
    assert caught.value.path == "latin1.txt"
    assert "not UTF-8" in caught.value.reason
    assert "line 2" in caught.value.reason
