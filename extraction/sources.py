"""Finding and reading source files.

``discover`` lists the ingestible files under a root (or the root itself when it is a file);
``load_document`` reads one into a ``SourceDocument`` and decides its kind:

- ``worldpack``: a YAML file with a top-level ``entities`` list;
- ``vault``: a Markdown note inside an Obsidian vault (a folder, up to the root, holding a
  ``.obsidian`` directory) or any Markdown file opening with YAML front matter;
- ``markdown``: any other Markdown file;
- ``text``: a ``.txt`` file;
- ``pdf``: a text PDF (``extraction.pdf``: pages and headings kept; a scan is an error);
- ``epub``: an EPUB book (``extraction.epub``: chapters in reading order, headings kept).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

import yaml

from extraction.epub import load_epub
from extraction.frontmatter import has_front_matter, split_front_matter, yaml_error_reason
from extraction.pdf import load_pdf
from graphrag_core.errors import SourceError
from graphrag_core.input_safety import (
    MAX_SOURCE_BYTES,
    bad_character,
    load_yaml,
    regular_file_problem,
    value_problem,
)
from graphrag_core.models import SourceDocument

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
YAML_SUFFIXES = frozenset({".yaml", ".yml"})
SUPPORTED_SUFFIXES = MARKDOWN_SUFFIXES | YAML_SUFFIXES | {".txt", ".pdf", ".epub"}

Kind = Literal["markdown", "text", "vault", "worldpack", "pdf", "epub"]


def discover(root: Path) -> list[Path]:
    """The ingestible files under ``root``, sorted by relative path; hidden folders and files
    (``.obsidian``, ``.git``, ...) are skipped. A file root yields itself."""
    if root.is_file():
        if root.suffix.lower() not in SUPPORTED_SUFFIXES:
            raise SourceError(str(root), _unsupported())
        return [root]
    if not root.is_dir():
        raise SourceError(str(root), "no such file or folder")
    found = [
        path
        for path in root.rglob("*")
        if path.is_file()
        and path.suffix.lower() in SUPPORTED_SUFFIXES
        and not any(part.startswith(".") for part in path.relative_to(root).parts)
    ]
    return sorted(found, key=lambda path: path.relative_to(root).as_posix())


def relative_path(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` with ``/`` separators (the file name for a file root)."""
    if root.is_file() or path == root:
        return path.name
    return path.relative_to(root).as_posix()


def load_document(path: Path, root: Path) -> SourceDocument:
    """Read one source file; raise ``SourceError`` naming it when it cannot be used."""
    rel = relative_path(path, root)
    _check_name(rel)
    if root.is_dir() and not path.resolve().is_relative_to(root.resolve()):
        target = printable(str(path.resolve()))
        raise SourceError(rel, f"skipped: a symbolic link out of the ingest root (to {target})")
    if (problem := regular_file_problem(path, MAX_SOURCE_BYTES)) is not None:
        raise SourceError(rel, problem)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(rel, f"cannot read the file: {exc.strerror or exc}") from exc
    in_vault = path.suffix.lower() in MARKDOWN_SUFFIXES and _in_vault(path, root)
    return document_from_bytes(rel, raw, in_vault=in_vault)


def document_from_bytes(rel: str, raw: bytes, *, in_vault: bool = False) -> SourceDocument:
    """A source from its bytes (a file read from disk, or uploaded): ``rel`` is its campaign
    path, whose suffix decides how it is read; ``in_vault``: a Markdown note of a vault."""
    _check_name(rel)
    if len(raw) > MAX_SOURCE_BYTES:
        raise SourceError(rel, f"{len(raw):,} bytes; the limit is {MAX_SOURCE_BYTES:,} bytes")
    digest = hashlib.sha256(raw).hexdigest()
    suffix = Path(rel).suffix.lower()
    if suffix == ".pdf":
        return _storable(load_pdf(raw, rel, digest))
    if suffix == ".epub":
        return _storable(load_epub(raw, rel, digest))
    text = _decode(raw, rel)
    _storable_text(text, rel)
    kind = _kind(rel, text, in_vault)
    return SourceDocument(path=rel, kind=kind, sha256=digest, text=text)


def _storable(doc: SourceDocument) -> SourceDocument:
    _storable_text(doc.text, doc.path)
    return doc


def _storable_text(text: str, rel: str) -> None:
    """A text holding a NUL (or, from a PDF or EPUB, a lone surrogate) is that file's error:
    no store can hold it, and one bad file must not fail the whole ingest's write."""
    if (bad := bad_character(text)) is not None:
        raise SourceError(rel, f"holds {bad}; remove it (the file was not ingested)")


def _decode(raw: bytes, rel: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        bad = raw[exc.start : exc.start + 1].hex()
        reason = f"not UTF-8 text (byte 0x{bad} at line {line}); save the file as UTF-8"
        raise SourceError(rel, reason) from exc


def _kind(rel: str, text: str, in_vault: bool) -> Kind:
    suffix = Path(rel).suffix.lower()
    if suffix in YAML_SUFFIXES:
        check_worldpack(text, rel)
        return "worldpack"
    if suffix in MARKDOWN_SUFFIXES:
        if has_front_matter(text):
            split_front_matter(text, rel)  # raises on invalid front matter
            return "vault"
        return "vault" if in_vault else "markdown"
    if suffix == ".txt":
        return "text"
    raise SourceError(rel, _unsupported())


def check_worldpack(text: str, rel: str) -> None:
    """Raise ``SourceError`` unless ``text`` is YAML with a top-level ``entities`` list."""
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        raise SourceError(rel, yaml_error_reason(exc)) from exc
    if (problem := value_problem(data)) is not None:
        raise SourceError(rel, problem)
    if not (isinstance(data, dict) and isinstance(data.get("entities"), list)):
        reason = (
            "not a world pack (no top-level 'entities' list); changelogs are posted with "
            "`loregraph changelog post`"
        )
        raise SourceError(rel, reason)


_MAX_PATH_CHARS = 1024


def _check_name(rel: str) -> None:
    if len(rel) > _MAX_PATH_CHARS:
        shown = f"{printable(rel[:40])}…"
        raise SourceError(shown, f"a path of {len(rel):,} characters; the limit is 1,024")
    if bad_character(rel) is not None:
        raise SourceError(printable(rel), "the file name is not valid UTF-8; rename the file")


def printable(text: str) -> str:
    """``text`` with undecodable bytes of a file name (lone surrogates) as ``\\xff``."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate not from a file name's bytes (U+D800)
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _in_vault(path: Path, root: Path) -> bool:
    """Whether a folder from the file's own up to ``root`` holds a ``.obsidian`` directory."""
    stop = root.resolve() if root.is_dir() else path.resolve().parent
    for folder in path.resolve().parents:
        if (folder / ".obsidian").is_dir():
            return True
        if folder == stop:
            return False
    return False


def _unsupported() -> str:
    suffixes = ", ".join(sorted(SUPPORTED_SUFFIXES))
    return f"unsupported file type; loregraph reads {suffixes}"
