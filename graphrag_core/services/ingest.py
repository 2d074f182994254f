"""Ingest: read sources, extract, diff against the store, embed what is new, write atomically.

Stages, left to right:

1. ``read_sources``  – discover files under the path and load them, with paths relative to
   the campaign's root (``campaign_root``: a single file keeps its stored path); a broken file
   is recorded by name and reason, and its previously ingested content is kept (nothing is
   lost: its entities stay *known*, so relations and mentions aimed at them survive).
2. ``classify``      – compare SHA-256 with the store: added / changed / unchanged / removed,
   and ``recovered`` (failed last time, read now: extracted again).
3. ``extract``       – the offline extractor over the readable documents, resolving against the
   ``known_entities`` of the sources it does not read.
4. ``with_profiles`` – each entity with an empty or short description gets its derived
   profile: the best sentences of the party-visible prose naming it
   (:mod:`extraction.profiles`), from the chunks this run extracted and those it keeps; a
   kept entity whose profile the new prose changes is upserted too.
5. ``plan_delta``    – what to upsert and remove so the store matches the extraction.
6. ``embed``         – only texts the store does not already have a vector for (an entity's
   text holds its profile, so a changed profile is embedded again, an unchanged one is not).
7. ``apply``         – one atomic write (:meth:`GraphStore.apply_delta`).

Re-ingesting unchanged sources stops after stage 2 and writes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TypeVar

from extraction.offline import extract
from extraction.profiles import ProfileLimits, entity_profiles
from extraction.sources import discover, document_from_bytes, load_document, printable
from extraction.vault import parse_note
from extraction.worldpack import parse_worldpack
from graphrag_core.config import IngestSettings
from graphrag_core.errors import SourceError
from graphrag_core.models import (
    Chunk,
    Entity,
    Extraction,
    GraphDelta,
    Relation,
    SourceDocument,
    SourceRecord,
    SourceUpload,
)
from graphrag_core.ports import Embedder, GraphStore, NullProgress, ProgressListener

logger = logging.getLogger(__name__)

K = TypeVar("K")
V = TypeVar("V")


@dataclass
class SourceScan:
    """The result of reading the sources of one ingest run."""

    root: Path
    documents: list[SourceDocument] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)
    scope_is_whole_campaign: bool = True


@dataclass(frozen=True)
class Classification:
    added: tuple[str, ...]
    changed: tuple[str, ...]
    unchanged: tuple[str, ...]
    removed: tuple[str, ...]

    pending_llm: int = 0
    recovered: tuple[str, ...] = ()
    """Unchanged files that failed the last time they were read: extract them again."""
    outdated: tuple[str, ...] = ()
    """Unchanged files another extractor, or another version of this one, read last
    (:mod:`extraction.version`): extract them again."""
    extractor: str = ""
    """The extractor of this run, recorded on every source it writes."""

    @property
    def dirty(self) -> bool:
        return bool(
            self.added
            or self.changed
            or self.removed
            or self.pending_llm
            or self.recovered
            or self.outdated
        )

    def with_pending_llm(self, chunks: int) -> Classification:
        """The same, with ``chunks`` prose chunks still lacking an LLM extraction."""
        return replace(self, pending_llm=chunks)


def campaign_root(path: Path, stored: Collection[str], roots: Iterable[Path] = ()) -> Path:
    """The folder that campaign-relative paths start from: ``path`` itself for a folder; for a
    file, the folder that gives it the path of the stored source it is (the longest stored path
    that ends its absolute path), else the newest earlier ingest root holding it, else its own
    folder."""
    path = path.resolve()
    if path.is_dir():
        return path
    text = path.as_posix()
    matches = [p for p in stored if text.endswith("/" + p)]
    if matches:
        return path.parents[len(PurePosixPath(max(matches, key=len)).parts) - 1]
    for root in roots:
        if path.is_relative_to(root.resolve()):
            return root.resolve()
    return path.parent


def read_sources(
    path: Path, progress: ProgressListener | None = None, *, root: Path | None = None
) -> SourceScan:
    """Load every file under ``path`` (a folder, or one file), with paths relative to
    ``root`` (default: the folder, or the file's folder; see ``campaign_root``)."""
    progress = progress or NullProgress()
    path = path.resolve()
    if not path.exists():
        raise SourceError(str(path), "no such file or folder")
    root = (root or (path if path.is_dir() else path.parent)).resolve()
    scan = SourceScan(root=root, scope_is_whole_campaign=path.is_dir())
    files = discover(path)
    progress.start("read", len(files))
    for file in files:
        try:
            scan.documents.append(check_document(load_document(file, root)))
        except SourceError as exc:
            scan.failures[printable(_relative(file, root))] = exc.reason
            logger.info("skipping %s: %s", printable(exc.path), exc.reason)  # the report names it
        progress.advance("read")
    progress.finish("read")
    return scan


def read_uploads(
    files: Sequence[SourceUpload], root: Path, progress: ProgressListener | None = None
) -> SourceScan:
    """The scan of uploaded files (bytes with their campaign paths), as ``read_sources``
    gives for files on disk; an upload adds or updates its files only, like a single-file
    ingest. A path that is absolute or climbs out (``..``) is that file's failure."""
    progress = progress or NullProgress()
    scan = SourceScan(root=root, scope_is_whole_campaign=False)
    progress.start("read", len(files))
    for upload in files:
        try:
            rel = _upload_path(upload.path)
            scan.documents.append(check_document(document_from_bytes(rel, upload.data)))
        except SourceError as exc:
            scan.failures[upload.path] = exc.reason
            logger.info("skipping %s: %s", exc.path, exc.reason)
        progress.advance("read")
    progress.finish("read")
    return scan


def _upload_path(path: str) -> str:
    parts = PurePosixPath(path.replace("\\", "/")).parts
    if not parts or parts[0] == "/" or ".." in parts or any(p.startswith(".") for p in parts):
        raise SourceError(
            path, "an uploaded file needs a relative campaign path without '..' or hidden parts"
        )
    return "/".join(parts)


def check_document(doc: SourceDocument) -> SourceDocument:
    """Parse a structured document once up front, so a broken one fails here, alone,
    instead of failing the whole extraction."""
    if doc.kind == "worldpack":
        parse_worldpack(doc)
    elif doc.kind == "vault":
        parse_note(doc)
    return doc


def classify(
    scan: SourceScan,
    stored: Mapping[str, SourceRecord],
    failed_before: Collection[str] = (),
    extractor: str = "",
) -> Classification:
    """Added / changed / unchanged / removed against the store; an unchanged file in
    ``failed_before`` (it failed the last time it was read) is also ``recovered``, and one
    another ``extractor`` read (:mod:`extraction.version`) is ``outdated``; an empty
    ``extractor`` compares contents only."""
    present = {d.path: d.sha256 for d in scan.documents}
    added = sorted(p for p in present if p not in stored)
    changed = sorted(p for p in present if p in stored and stored[p].sha256 != present[p])
    same = sorted(p for p in present if p in stored and stored[p].sha256 == present[p])
    outdated = [p for p in same if extractor and stored[p].extractor != extractor]
    unchanged = [p for p in same if p not in outdated]
    removed: list[str] = []
    if scan.scope_is_whole_campaign:
        removed = sorted(p for p in stored if p not in present and p not in scan.failures)
    recovered = tuple(p for p in unchanged if p in failed_before)
    return Classification(
        tuple(added),
        tuple(changed),
        tuple(unchanged),
        tuple(removed),
        recovered=recovered,
        outdated=tuple(outdated),
        extractor=extractor,
    )


def protected_paths(scan: SourceScan, stored: Mapping[str, SourceRecord]) -> frozenset[str]:
    """Stored sources this run must not touch: broken files (keep their last good content)
    and, for a single-file ingest, every other source of the campaign."""
    keep = {p for p in scan.failures if p in stored}
    if not scan.scope_is_whole_campaign:
        present = {d.path for d in scan.documents}
        keep |= {p for p in stored if p not in present}
    return frozenset(keep)


def known_entities(
    stored: StoredState, keep: frozenset[str]
) -> tuple[list[Entity], frozenset[str]]:
    """The stored entities of the sources this run keeps as they are (``keep``, see
    ``protected_paths``), which the extraction must resolve against; and which of those
    sources define entities (world packs, vault notes)."""
    known = [e for e in stored.entities.values() if _kept(e.sources, keep)]
    defining = frozenset(p for p in keep if stored.sources[p].kind in ("worldpack", "vault"))
    return known, defining


def run_extraction(scan: SourceScan, settings: IngestSettings) -> Extraction:
    return extract(scan.documents, chunk_size=settings.chunk_size, overlap=settings.chunk_overlap)


def _relative(file: Path, root: Path) -> str:
    try:
        return file.resolve().relative_to(root).as_posix()
    except ValueError:
        return file.name


# ------------------------------------------------------------------ delta planning


@dataclass(frozen=True)
class StoredState:
    entities: dict[str, Entity]
    relations: dict[tuple[str, str, str], Relation]
    chunks: dict[str, Chunk]
    sources: dict[str, SourceRecord]


def load_stored(store: GraphStore, campaign: str) -> StoredState:
    return StoredState(
        entities={e.id: e for e in store.load_entities(campaign)},
        relations={r.key: r for r in store.load_relations(campaign)},
        chunks={c.id: c for c in store.load_chunks(campaign)},
        sources=store.load_sources(campaign),
    )


def entity_embedding_text(entity: Entity) -> str:
    """The player-safe text an entity is embedded by (never GM notes or secret aliases): its
    name, type, aliases, description and derived profile (party-visible prose only)."""
    aliases = f" Also known as: {', '.join(entity.aliases)}." if entity.aliases else ""
    text = f"{entity.name} ({entity.type}).{aliases} {entity.description}".strip()
    profile = " ".join(s.text for s in entity.profile)
    return f"{text} {profile}" if profile else text


def profile_limits(settings: IngestSettings) -> ProfileLimits:
    return ProfileLimits(
        max_sentences=settings.profile_sentences,
        max_chars=settings.profile_chars,
        below_description_chars=settings.profile_below_description_chars,
    )


def with_profiles(
    extraction: Extraction,
    stored: StoredState,
    scan: SourceScan,
    keep: frozenset[str],
    settings: IngestSettings,
) -> Extraction:
    """The extraction with every entity's derived profile (see :mod:`extraction.profiles`),
    read from the chunks it extracted and the stored chunks of the sources in ``keep``; a
    kept entity (one the store keeps as it is) whose profile changes joins its entities, so
    the delta updates it and its vector."""
    extracted = {e.id for e in extraction.entities}
    kept = [e for e in stored.entities.values() if e.id not in extracted and _kept(e.sources, keep)]
    kinds = {p: r.kind for p, r in stored.sources.items() if p in keep}
    kinds.update({d.path: d.kind for d in scan.documents})
    chunks = [*extraction.chunks, *(c for c in stored.chunks.values() if c.source_path in keep)]
    return profiled(extraction, kept, chunks, kinds, settings)


def profiled(
    extraction: Extraction,
    kept: Sequence[Entity],
    chunks: Sequence[Chunk],
    kinds: Mapping[str, str],
    settings: IngestSettings,
) -> Extraction:
    """``extraction`` with the profiles of its entities, read from ``chunks`` (``kinds``: each
    source's kind; a world pack is not prose); each of the ``kept`` entities whose profile
    changes is added to its entities."""
    profiles = entity_profiles(
        [*extraction.entities, *kept],
        chunks,
        profile_limits(settings),
        prose_paths={path for path, kind in kinds.items() if kind != "worldpack"},
    )

    def with_profile(entity: Entity) -> Entity:
        return entity.model_copy(update={"profile": profiles.get(entity.id, ())})

    entities = [with_profile(e) for e in extraction.entities]
    entities += [new for e in kept if (new := with_profile(e)) != e]
    return extraction.model_copy(update={"entities": tuple(sorted(entities, key=lambda e: e.id))})


def chunk_embedding_text(chunk: Chunk) -> str:
    return f"{chunk.heading}\n{chunk.text}" if chunk.heading else chunk.text


def plan_delta(
    extraction: Extraction,
    stored: StoredState,
    scan: SourceScan,
    classification: Classification,
    keep: frozenset[str],
) -> GraphDelta:
    """Upserts and removals that make the store match the extraction (vectors come later);
    the sources in ``keep`` (see ``protected_paths``) stay as they are."""
    new_entities = {e.id: e for e in extraction.entities}
    new_chunks = {c.id: c for c in extraction.chunks}
    new_relations = {r.key: r for r in extraction.relations}
    return GraphDelta(
        sources_upsert=_source_records(scan, classification, extraction.chunks),
        sources_removed=classification.removed,
        entities_upsert=_changed(new_entities, stored.entities),
        entities_removed=_gone(stored.entities, new_entities, lambda e: _kept(e.sources, keep)),
        chunks_upsert=_changed(new_chunks, stored.chunks),
        chunks_removed=_gone(stored.chunks, new_chunks, lambda c: c.source_path in keep),
        relations_upsert=_changed(new_relations, stored.relations),
        relations_removed=_gone(stored.relations, new_relations, lambda r: r.source_path in keep),
    )


def _kept(sources: Sequence[str], keep: frozenset[str]) -> bool:
    return any(s in keep for s in sources)


def _changed(new: Mapping[K, V], old: Mapping[K, V]) -> tuple[V, ...]:
    """Values that are new or differ from what is stored, in key order."""
    return tuple(v for k, v in sorted(new.items(), key=lambda kv: str(kv[0])) if old.get(k) != v)


def _gone(old: Mapping[K, V], new: Mapping[K, V], protected: Callable[[V], bool]) -> tuple[K, ...]:
    """Stored keys the extraction no longer has, except protected ones."""
    return tuple(sorted((k for k, v in old.items() if k not in new and not protected(v)), key=str))


def _source_records(
    scan: SourceScan, classification: Classification, chunks: Sequence[Chunk]
) -> tuple[SourceRecord, ...]:
    touched = {*classification.added, *classification.changed, *classification.outdated}
    counts: dict[str, int] = {}
    for chunk in chunks:
        counts[chunk.source_path] = counts.get(chunk.source_path, 0) + 1
    return tuple(
        SourceRecord(
            path=d.path,
            sha256=d.sha256,
            kind=d.kind,
            chunk_count=counts.get(d.path, 0),
            extractor=classification.extractor,
        )
        for d in scan.documents
        if d.path in touched
    )


def texts_to_embed(delta: GraphDelta, stored: StoredState) -> dict[str, str]:
    """Ids of upserted items whose embedding text is new or changed, with that text."""
    texts: dict[str, str] = {}
    for entity in delta.entities_upsert:
        old = stored.entities.get(entity.id)
        text = entity_embedding_text(entity)
        if old is None or entity_embedding_text(old) != text:
            texts[entity.id] = text
    for chunk in delta.chunks_upsert:
        old_chunk = stored.chunks.get(chunk.id)
        text = chunk_embedding_text(chunk)
        if old_chunk is None or chunk_embedding_text(old_chunk) != text:
            texts[chunk.id] = text
    return texts


def embed_texts(
    texts: Mapping[str, str],
    embedder: Embedder,
    progress: ProgressListener,
    batch_size: int = 64,
) -> dict[str, tuple[float, ...]]:
    """Embed in slabs of several batches (the embedder sorts each slab by length, so less
    padding), reporting progress per slab."""
    ids = sorted(texts, key=lambda i: (len(texts[i]), i))
    vectors: dict[str, tuple[float, ...]] = {}
    progress.start("embed", len(ids))
    slab = batch_size * 8
    for start in range(0, len(ids), slab):
        batch = ids[start : start + slab]
        for item_id, vector in zip(batch, embedder.embed([texts[i] for i in batch]), strict=True):
            vectors[item_id] = vector
        progress.advance("embed", len(batch))
    progress.finish("embed")
    return vectors
