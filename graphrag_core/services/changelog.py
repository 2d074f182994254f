"""Posting a session change set: read, validate, resolve, decide (new / duplicate / amend),
store atomically, and score its impact; withdrawing one (append-only) the same way.

Deciding and storing happen under ``posting_lock``: a lock file per campaign in the data
directory, so that two posts of the same new session (two recap jobs, a retry racing the
original) never both plan revision 1 and interleave their changes; the second one sees the
first and is a duplicate or a conflict. The lock covers every process sharing the data
directory (all of them, on the embedded store); processes on other machines posting to one
FalkorDB or Neo4j server are not serialised by it."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from changelog.diff import changeset_difference
from changelog.impact import RebuildDecision, RebuildPolicy, rebuild_decision, total_impact
from changelog.normalise import content_hash, resolve_changes
from changelog.overlay import effective_changes
from changelog.posting import latest_live, plan_post
from changelog.schema import ChangeSetInput, parse_changeset, validate_changeset
from extraction.resolution import EntityResolver
from graphrag_core.errors import ChangelogConflictError, ChangelogError
from graphrag_core.input_safety import MAX_CHANGESET_BYTES, regular_file_problem
from graphrag_core.models import Change, ChangeSetRecord, Entity, Relation
from graphrag_core.ports import GraphStore


class PostResult(BaseModel):
    """What posting one change set did."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    campaign: str
    session_id: int
    revision: int
    action: Literal["duplicate", "new", "amend"]
    changes: tuple[Change, ...]
    impact: float
    cumulative_impact: float
    rebuild: RebuildDecision
    resolved: tuple[str, ...] = Field(
        default=(),
        description="References resolved by near name (\"'Garran the Eel' resolved to "
        "'garran'\"), checked against the type the change set declares, or a status posted "
        "as an obvious synonym and read as the type's own (a Creature 'destroyed' is 'dead').",
    )


ChangeSetSource = Path | str | Mapping[str, Any]
"""A change set as a file, as JSON/YAML text, or already parsed (an HTTP body)."""


def read_changeset(source: ChangeSetSource, name: str | None = None) -> tuple[ChangeSetInput, str]:
    """The validated change set and the name it is cited by (the file name, or ``name``)."""
    if isinstance(source, Path):
        name = name or source.name
        return parse_changeset(read_changeset_text(source), filename=name), name
    name = name or "changeset"
    if isinstance(source, str):
        return parse_changeset(source, filename=name), name
    return validate_changeset(source, filename=name), name


def read_changeset_text(path: Path) -> str:
    if (problem := regular_file_problem(path, MAX_CHANGESET_BYTES)) is not None:
        raise ChangelogError(f"{path}: {problem}; nothing was posted")
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ChangelogError(f"{path}: no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ChangelogError(f"{path}: cannot read the change set: {exc}") from exc


@contextmanager
def posting_lock(data_dir: Path, campaign: str) -> Iterator[None]:
    """Hold the campaign's posting lock (an exclusive ``flock``) for the block."""
    folder = data_dir / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"changelog-{campaign}.lock", "w", encoding="ascii") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def importance_by_degree(
    entities: Sequence[Entity], relations: Sequence[Relation]
) -> dict[str, float]:
    """Interim importance, 1 (isolated) to 10 (best connected), from relation degree."""
    degree = {e.id: 0 for e in entities}
    for rel in relations:
        for end in (rel.source, rel.target):
            if end in degree:
                degree[end] += 1
    top = max(degree.values(), default=0) or 1
    return {eid: 1.0 + 9.0 * d / top for eid, d in degree.items()}


def post_changeset(
    store: GraphStore,
    campaign: str,
    changeset: ChangeSetInput,
    source: str,
    *,
    resolver: EntityResolver,
    entities: Sequence[Entity],
    relations: Sequence[Relation],
    policy: RebuildPolicy,
    now: datetime,
    amend: bool = False,
    importance: Mapping[str, float] | None = None,
    since_session: int = 0,
) -> PostResult:
    """Post one change set. ``importance`` (the analytics' composite importance, when a build
    exists) replaces the degree-based interim one; impact accumulates over the sessions after
    ``since_session`` (the last rebuild)."""
    digest = content_hash(changeset)
    existing = store.load_changesets(campaign)
    try:
        plan = plan_post(existing, changeset.session_id, digest, amend=amend)
    except ChangelogConflictError as exc:
        raise _conflict(store, campaign, changeset, source, resolver, entities, existing) from exc
    if importance is None:
        importance = importance_by_degree(entities, relations)
    changes: list[Change] = []
    resolved: list[str] = []
    if plan.writes:
        changes, resolved = _changes(changeset, source, resolver, entities, plan.revision)
        record = ChangeSetRecord(
            session_id=changeset.session_id,
            revision=plan.revision,
            content_hash=digest,
            source=source,
            posted_at=now.isoformat(),
            title=changeset.title,
            change_count=len(changes),
        )
        store.append_changeset(campaign, record, changes)
    return _result(
        store,
        campaign,
        plan.action,
        changeset.session_id,
        plan.revision,
        changes,
        importance,
        policy,
        since_session,
    ).model_copy(update={"resolved": tuple(resolved)})


def _changes(
    changeset: ChangeSetInput,
    source: str,
    resolver: EntityResolver,
    entities: Sequence[Entity],
    revision: int,
) -> tuple[list[Change], list[str]]:
    """The change set's changes, and the references it resolved by near name."""
    return resolve_changes(
        changeset,
        resolve=resolver.resolve,
        suggest=resolver.suggest,
        entity_types={e.id: e.type for e in entities},
        source=source,
        revision=revision,
        near=resolver.resolve_near,
        guessed={e.id for e in entities if _typed_by_guess(e)},
    )


_DECLARING = (".yaml", ".yml", ".json", ".toml")
"""Sources that declare an entity's type (a name list, a world pack); prose only suggests it."""


def _typed_by_guess(entity: Entity) -> bool:
    """Whether the entity's type is the offline extractor's guess: no status was declared for
    it and it comes from prose alone (no name list or world pack names it)."""
    return entity.status is None and not any(
        source.lower().endswith(_DECLARING) for source in entity.sources
    )


def _conflict(
    store: GraphStore,
    campaign: str,
    changeset: ChangeSetInput,
    source: str,
    resolver: EntityResolver,
    entities: Sequence[Entity],
    existing: Sequence[ChangeSetRecord],
) -> ChangelogConflictError:
    """The conflict, saying what differs from the stored live revision; the plain one when
    the posted change set does not resolve (its own errors come first once amended)."""
    stored = latest_live(existing, changeset.session_id)
    assert stored is not None  # a conflict needs a live revision
    try:
        posted, _ = _changes(changeset, source, resolver, entities, stored.revision + 1)
    except ChangelogError as exc:
        return ChangelogConflictError(
            f"session {changeset.session_id} was already posted with different content "
            f"(revision {stored.revision}, {stored.source}); the posted one does not resolve "
            f"either: {str(exc).splitlines()[0]}"
        )
    names = {e.id: e.name for e in entities}
    difference = changeset_difference(stored, store.load_changes(campaign), posted, names)
    return ChangelogConflictError(difference.message(), difference)


def _result(
    store: GraphStore,
    campaign: str,
    action: Literal["duplicate", "new", "amend"],
    session_id: int,
    revision: int,
    changes: Sequence[Change],
    importance: Mapping[str, float],
    policy: RebuildPolicy,
    since_session: int = 0,
) -> PostResult:
    in_effect = effective_changes(
        store.load_changes(campaign),
        visibilities=("gm", "party"),
        records=store.load_changesets(campaign),
    )
    cumulative, sessions = accumulated(in_effect, importance, since_session)
    return PostResult(
        campaign=campaign,
        session_id=session_id,
        revision=revision,
        action=action,
        changes=tuple(changes),
        impact=total_impact(changes, importance),
        cumulative_impact=cumulative,
        rebuild=rebuild_decision(cumulative, sessions, policy),
    )


def accumulated(
    in_effect: Sequence[Change], importance: Mapping[str, float], since_session: int
) -> tuple[float, int]:
    """The impact of the changes in effect after ``since_session`` (the last rebuild), and how
    many sessions they span."""
    since = [c for c in in_effect if c.session_id > since_session]
    return total_impact(since, importance), len({c.session_id for c in since})
