"""The game master's resolution decisions, replayed over an extraction (offline or LLM) after
every run, in ``seq`` order, so they survive every re-ingest and re-extraction.

merge: the subject's names become aliases of the target; its relations, mentions and
subjects move to the target. split: names leave the subject and form an entity of their own;
the relations and chunks whose text names a split-off name follow it (see :func:`split`).
alias_add: names become aliases of the subject. Each decision finds its entities by id, name
and type (:mod:`extraction.decision_lookup`), so a moved id does not send it to the wrong
entity; one whose entity is gone or ambiguous is skipped, with a record."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from extraction.decision_lookup import Found, locate
from extraction.offline import finish_relations
from extraction.resolution import EntityResolver, remap_ends
from extraction.slugs import normalise_name
from graphrag_core.models import Chunk, Entity, Extraction, GmDecision


def apply_decisions(
    extraction: Extraction, decisions: Sequence[GmDecision]
) -> tuple[Extraction, list[str], list[str]]:
    """The extraction with every decision applied in ``seq`` order, one record each
    (``GM decision N skipped: ...`` for those that could not be applied), and the records the
    game master must see: decisions skipped, or applied to an entity found by another id."""
    records: list[str] = []
    warnings: list[str] = []
    for decision in sorted(decisions, key=lambda d: d.seq):
        entities = {e.id: e for e in extraction.entities}
        subject = locate(entities, decision.subject, decision.subject_name, decision.subject_type)
        target = Found(decision.target)
        if decision.kind == "merge":
            target = locate(entities, decision.target, decision.target_name, decision.target_type)
        notes = [n for n in (subject.note, target.note) if n]
        head = f"GM decision {decision.seq} ({decision.kind} {decision.subject})"
        if subject.entity_id is None or target.entity_id is None:
            warnings.append(f"GM decision {decision.seq} skipped: {'; '.join(notes)}")
            records.append(warnings[-1])
            continue
        located = decision.model_copy(
            update={"subject": subject.entity_id, "target": target.entity_id}
        )
        if decision.kind == "merge" and subject.entity_id == target.entity_id:
            records.append(f"{head}: already one entity ({subject.entity_id})")
            continue
        extraction = _apply(extraction, located, entities)
        where = f" [{'; '.join(notes)}]" if notes else ""
        records.append(f"{head} applied{where}: {decision.reason or 'no reason given'}")
        if notes:
            warnings.append(records[-1])
    return extraction, records, warnings


def _apply(extraction: Extraction, decision: GmDecision, entities: dict[str, Entity]) -> Extraction:
    if decision.kind == "merge":
        return merge(extraction, decision)
    if decision.kind == "split":
        return split(extraction, decision)
    return _replace(extraction, add_aliases(entities[decision.subject], decision.names))


def add_aliases(entity: Entity, names: Sequence[str]) -> Entity:
    known = {normalise_name(n) for n in (entity.name, *entity.aliases)}
    new = [n for n in names if normalise_name(n) not in known]
    return entity.model_copy(update={"aliases": (*entity.aliases, *dict.fromkeys(new))})


def merge(extraction: Extraction, decision: GmDecision) -> Extraction:
    entities = {e.id: e for e in extraction.entities}
    gone, kept = entities.pop(decision.subject), entities[decision.target]
    kept = _absorbed(kept, gone)
    entities[kept.id] = kept
    move = {gone.id: kept.id}
    relations = [remap_ends(r, move) for r in extraction.relations]
    final, _ = finish_relations(relations, EntityResolver(entities.values()))
    chunks = tuple(
        c.model_copy(
            update={
                "mentions": tuple(sorted({move.get(m, m) for m in c.mentions})),
                "subject": move.get(c.subject, c.subject) if c.subject else None,
            }
        )
        for c in extraction.chunks
    )
    return Extraction(
        entities=tuple(sorted(entities.values(), key=lambda e: e.id)),
        relations=tuple(final),
        chunks=chunks,
    )


def _absorbed(kept: Entity, gone: Entity) -> Entity:
    """``kept`` with ``gone``'s names, notes and sources. A GM-only entity merged into a party
    one adds its names to ``gm_aliases`` and its description to ``gm_notes`` (secret)."""
    secret = gone.visibility == "gm" and kept.visibility == "party"
    notes = [kept.gm_notes, gone.gm_notes, gone.description if secret else ""]
    gm_aliases = [*kept.gm_aliases, *gone.gm_aliases]
    if secret:
        known = {normalise_name(n) for n in (kept.name, *kept.aliases, *gm_aliases)}
        gm_aliases += [n for n in (gone.name, *gone.aliases) if normalise_name(n) not in known]
    else:
        kept = add_aliases(kept, [gone.name, *gone.aliases])
    return kept.model_copy(
        update={
            "description": kept.description or ("" if secret else gone.description),
            "gm_notes": "\n\n".join(dict.fromkeys(n for n in notes if n)),
            "gm_aliases": tuple(dict.fromkeys(gm_aliases)),
            "sources": tuple(dict.fromkeys([*kept.sources, *gone.sources])),
        }
    )


def split(extraction: Extraction, decision: GmDecision) -> Extraction:
    """Names leave the subject and form an entity of their own. Evidence decides what moves:
    a relation of the subject whose chunk text or description names a split-off name moves
    to the new entity; a chunk whose text names one also mentions the new entity (and is its
    subject where it was the subject's and its heading names a split-off name). Everything
    else, and everything stated without a chunk (world packs, vault front matter), stays."""
    entities = {e.id: e for e in extraction.entities}
    subject = entities[decision.subject]
    leaving = {normalise_name(n) for n in decision.names}
    entities[subject.id] = subject.model_copy(
        update={"aliases": tuple(a for a in subject.aliases if normalise_name(a) not in leaving)}
    )
    names = list(decision.names)
    existing = entities.get(decision.target)
    if existing is not None and existing.type == subject.type:  # extracted on its own now
        entities[decision.target] = add_aliases(existing, names)
    else:
        entities[decision.target] = Entity(
            id=decision.target,
            name=names[0],
            type=subject.type,
            aliases=tuple(names[1:]),
            visibility=subject.visibility,
            sources=subject.sources,
            description=f"Split from {subject.name} by the game master.",
        )
    kept = entities[subject.id]
    names_it = _namer(decision.names, [kept.name, *kept.aliases])
    texts = {c.id: c.text for c in extraction.chunks}
    move = {subject.id: decision.target}
    relations = [
        remap_ends(r, move) if names_it(texts.get(r.chunk_id or "", "") + "\n" + r.description)
        else r
        for r in extraction.relations
    ]  # fmt: skip
    final, _ = finish_relations(relations, EntityResolver(entities.values()))
    chunks = tuple(_split_chunk(c, subject.id, decision.target, names_it)
                   for c in extraction.chunks)  # fmt: skip
    return Extraction(
        entities=tuple(sorted(entities.values(), key=lambda e: e.id)),
        relations=tuple(final),
        chunks=chunks,
    )


def _namer(names: Sequence[str], kept: Sequence[str]) -> Callable[[str], bool]:
    """Whether a text names one of ``names`` (whole words, case-insensitive) outside the
    names the subject keeps ("Torven" split off: "Torven Blackwater" does not count)."""
    leaving, staying = _words(names), _words(kept)
    return lambda text: bool(leaving.search(staying.sub(" ", text)))


def _words(names: Sequence[str]) -> re.Pattern[str]:
    found = sorted((re.escape(n.strip()) for n in names if n.strip()), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(found or ["(?!)"]) + r")\b", re.IGNORECASE)


def _split_chunk(chunk: Chunk, old: str, new: str, names_it: Callable[[str], bool]) -> Chunk:
    if not names_it(chunk.text):
        return chunk
    subject = new if chunk.subject == old and names_it(chunk.heading) else chunk.subject
    return chunk.model_copy(
        update={"mentions": tuple(sorted({*chunk.mentions, new})), "subject": subject}
    )


def _replace(extraction: Extraction, entity: Entity) -> Extraction:
    entities = [entity if e.id == entity.id else e for e in extraction.entities]
    return extraction.model_copy(update={"entities": tuple(entities)})
