"""From a validated change set to stored ``Change`` records.

Every entity reference (id, name or alias) is resolved through the campaign's resolver; one it
does not know may then be resolved by the optional ``near`` resolver (the same words up to
extra words and plurals, of the declared type: a change set written against another extraction
of the world), and each such resolution is reported (``ResolvedChanges.resolved``). Statuses
are checked against the entity type's vocabulary (an entity typed ``Other``, whose type the
extraction did not know, against the type the update declares) and attitudes against
``allied|neutral|hostile``;
a relation that starts or ends (``change: start|end``) must be of a type of the taxonomy.
All problems are collected and raised as one ``ChangelogError`` naming each bad field, with
near-match suggestions for unknown entities. Change ids are stable: ``s<session>-r<rev>-<seq>``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Mapping
from typing import NamedTuple, get_args

from changelog.schema import ChangeSetInput, EntityUpdateInput, RelationshipUpdateInput
from graphrag_core.errors import ChangelogError
from graphrag_core.models import PARTY_ID, RELATION_TYPES, STATUS_VOCABULARY, Attitude, Change
from graphrag_core.statuses import posted_status
from graphrag_core.taxonomy import relation_key

__all__ = [
    "ATTITUDES",
    "PARTY_NAMES",
    "NearResolver",
    "ResolvedChanges",
    "content_hash",
    "resolve_changes",
    "to_changes",
]

Resolver = Callable[[str], str | None]
NearResolver = Callable[[str, str | None], str | None]
"""(text, declared entity type or None) → the one entity the text nearly names, or None."""
Suggester = Callable[[str], list[str]]


class ResolvedChanges(NamedTuple):
    """The changes of a change set, and one line per reference resolved by near match or
    checked against a declared type."""

    changes: list[Change]
    resolved: list[str]


ATTITUDES: tuple[str, ...] = get_args(Attitude)
PARTY_NAMES: frozenset[str] = frozenset(
    {PARTY_ID, "player_party", "player party", "the party", "players", "the players"}
)
"""Names that always mean the player characters' group in relationship updates."""

_VOCABULARY = {kind.lower(): statuses for kind, statuses in STATUS_VOCABULARY.items()}
_TYPE_NAMES = {kind.lower(): kind for kind in STATUS_VOCABULARY}
_PERSONS = frozenset(("pc", "npc"))


def _one_person(declared: str | None, kind: str) -> bool:
    """A PC declared for an NPC or the other way round: whether someone is played at the table
    is no fact prose states (an extraction without a name list types every person an NPC),
    and both take the same statuses, so the entity is the one meant."""
    pair = {(declared or "").lower(), kind.lower()}
    return len(pair) == 2 and pair <= _PERSONS


def content_hash(cs: ChangeSetInput) -> str:
    """SHA-256 of the parsed change set as canonical JSON: formatting, key order and JSON vs
    YAML do not change it."""
    data = cs.model_dump(mode="json", by_alias=True)
    for update in data["relationship_updates"]:  # the attitude form hashes as it always did
        if update.get("change") is None:
            update.pop("change", None)
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def to_changes(
    cs: ChangeSetInput,
    *,
    resolve: Resolver,
    suggest: Suggester,
    entity_types: Mapping[str, str],
    source: str,
    revision: int,
) -> list[Change]:
    """Resolve, validate and flatten a change set into changes, in input order."""
    return resolve_changes(
        cs,
        resolve=resolve,
        suggest=suggest,
        entity_types=entity_types,
        source=source,
        revision=revision,
    ).changes


def resolve_changes(
    cs: ChangeSetInput,
    *,
    resolve: Resolver,
    suggest: Suggester,
    entity_types: Mapping[str, str],
    source: str,
    revision: int,
    near: NearResolver | None = None,
    guessed: Collection[str] = (),
) -> ResolvedChanges:
    """``to_changes``, with the ``near`` resolver tried for references ``resolve`` does not
    know, and the lines saying what it resolved. ``guessed``: the ids whose type the offline
    extractor guessed from prose (no list or pack declared it): an update naming one exactly
    and declaring another type is posted as that type, with a line saying so."""
    checker = _Checker(resolve, suggest, entity_types, near=near, guessed=guessed)
    entities = [
        checker.entity(update, f"entity_updates[{i}]") for i, update in enumerate(cs.entity_updates)
    ]
    pairs = [
        checker.pair(update, f"relationship_updates[{i}]")
        for i, update in enumerate(cs.relationship_updates)
    ]
    checker.raise_if_any(source)
    builder = _Builder(cs, source=source, revision=revision)
    for i, (update, entity_id) in enumerate(zip(cs.entity_updates, entities, strict=True)):
        builder.entity(update, str(entity_id), checker.statuses.get(f"entity_updates[{i}]"))
    for rel, (from_id, to_id) in zip(cs.relationship_updates, pairs, strict=True):
        builder.relationship(rel, str(from_id), str(to_id))
    return ResolvedChanges(builder.changes, checker.resolved)


class _Checker:
    """Resolves references and collects every problem before anything is raised."""

    def __init__(
        self,
        resolve: Resolver,
        suggest: Suggester,
        types: Mapping[str, str],
        relation_types: Collection[str] = RELATION_TYPES,
        *,
        near: NearResolver | None = None,
        guessed: Collection[str] = (),
    ) -> None:
        self._resolve = resolve
        self._near = near
        self._guessed = frozenset(guessed)
        self._near_found: set[str] = set()
        self.resolved: list[str] = []
        self.statuses: dict[str, str] = {}
        """Per update (``entity_updates[i]``), the status a synonym posted maps to."""
        self._suggest = suggest
        self._types = types
        self._relation_types = tuple(relation_types)
        self.problems: list[str] = []

    def ref(
        self, text: str, where: str, *, party: bool, entity_type: str | None = None
    ) -> str | None:
        if party and text.strip().lower() in PARTY_NAMES:
            return PARTY_ID
        found = self._resolve(text)
        if found is None and self._near is not None:
            found = self._near(text, entity_type)
            if found is not None:
                self._near_found.add(where)
                self.resolved.append(f"{where}: {text!r} resolved to {found!r} (near name)")
        if found is None:
            near = self._suggest(text)
            hint = f"; did you mean: {', '.join(near)}?" if near else ""
            self.problems.append(f"{where}: unknown entity {text!r}{hint}")
        return found

    def entity(self, update: EntityUpdateInput, where: str) -> str | None:
        declared = update.entity_type
        entity_id = self.ref(
            update.entity_id, f"{where}.entity_id", party=False, entity_type=declared
        )
        kind = self._types.get(entity_id) if entity_id else None
        if entity_id is None or kind is None:
            return entity_id
        if kind == "Other" and declared and declared.lower() in _TYPE_NAMES:
            kind = _TYPE_NAMES[declared.lower()]
            self.resolved.append(
                f"{where}: {entity_id!r} has no known type; its status is checked as a {kind}'s"
            )
        if self._read_wrong(entity_id, f"{where}.entity_id", declared, kind):
            self.resolved.append(
                f"{where}: {entity_id!r} was read from the prose as a {kind}; posted as the "
                f"{declared} it is declared"
            )
            kind = _TYPE_NAMES[str(declared).lower()]
        elif _one_person(update.entity_type, kind):  # a PC the extractor took for an NPC
            self.resolved.append(
                f"{where}: {entity_id!r} is a {kind} here, posted as the {update.entity_type}"
                " it is declared (a person either way)"
            )
        elif update.entity_type and update.entity_type.lower() != kind.lower():
            self.problems.append(
                f"{where}.entity_type: {entity_id!r} is a {kind}, not {update.entity_type!r}; "
                f"fix entity_type or entity_id"
            )
        allowed = _VOCABULARY.get(kind.lower())
        if update.status is not None and allowed and update.status not in allowed:
            mapped = posted_status(update.status, kind)
            if mapped is None:
                self.problems.append(
                    f"{where}.status: {update.status!r} is not a {kind} status; "
                    f"use one of {', '.join(allowed)}"
                )
            else:  # an obvious synonym, as in a source: a destroyed Creature is dead
                self.statuses[where] = mapped
                self.resolved.append(
                    f"{where}.status: {update.status!r} read as {mapped!r} "
                    f"(a {kind} is one of {', '.join(allowed)})"
                )
        return entity_id

    def _read_wrong(self, entity_id: str, where: str, declared: str | None, kind: str) -> bool:
        """Whether a declared type stands over the one the prose suggested: the entity's type
        was guessed (no list declared it), the update names it exactly (no near name) and
        declares a known type of its own ("Inspector Thomas Whitlock", read as a place)."""
        known = bool(declared) and str(declared).lower() in _TYPE_NAMES
        return (
            known
            and str(declared).lower() != kind.lower()
            and entity_id in self._guessed
            and where not in self._near_found
        )

    def pair(self, update: RelationshipUpdateInput, where: str) -> tuple[str | None, str | None]:
        from_id = self.ref(update.from_, f"{where}.from", party=True)
        to_id = self.ref(update.to, f"{where}.to", party=True)
        if from_id is not None and from_id == to_id:
            self.problems.append(f"{where}: 'from' and 'to' are both {from_id!r}; fix one")
        if update.change is not None:
            self._relation_type(update, where)
            return from_id, to_id
        for name in ("new_status", "old_status"):
            value = getattr(update, name)
            if value is not None and value not in ATTITUDES:
                self.problems.append(
                    f"{where}.{name}: {value!r} is not an attitude; use one of "
                    f"{', '.join(ATTITUDES)}"
                )
        return from_id, to_id

    def _relation_type(self, update: RelationshipUpdateInput, where: str) -> None:
        kind = relation_key(update.type or "")
        if kind not in self._relation_types:
            self.problems.append(
                f"{where}.type: {update.type!r} is not a relation type; use one of "
                f"{', '.join(self._relation_types)}"
            )

    def raise_if_any(self, source: str) -> None:
        if self.problems:
            lines = "\n".join(f"  {problem}" for problem in self.problems)
            raise ChangelogError(
                f"{source}: {len(self.problems)} problem(s) in the change set:\n{lines}\n"
                "Entities are named by id, name or alias (`loregraph entity NAME` finds them)."
            )


class _Builder:
    """Numbers changes in input order and fills in the set-wide defaults."""

    def __init__(self, cs: ChangeSetInput, *, source: str, revision: int) -> None:
        self._cs = cs
        self._source = source
        self._revision = revision
        self.changes: list[Change] = []

    def entity(self, update: EntityUpdateInput, entity_id: str, status: str | None) -> None:
        if update.status is not None:
            self._add(update, "entity_status", entity_id, "status", status or update.status)
        for name, value in update.properties.items():
            self._add(update, "entity_property", entity_id, name, value)

    def relationship(self, rel: RelationshipUpdateInput, from_id: str, to_id: str) -> None:
        if rel.change is not None:
            self._add(
                rel,
                "relationship",
                from_id,
                "relation",
                rel.change,
                target_id=to_id,
                relation_type=relation_key(rel.type or ""),
            )
            return
        self._add(
            rel,
            "relationship",
            from_id,
            "attitude",
            str(rel.new_status),
            target_id=to_id,
            relation_type=rel.type or "attitude",
            old_value=rel.old_status,
        )

    def _add(
        self,
        update: EntityUpdateInput | RelationshipUpdateInput,
        kind: str,
        entity_id: str,
        field: str,
        value: str,
        **extra: str | None,
    ) -> None:
        seq = len(self.changes) + 1
        session = self._cs.session_id
        self.changes.append(
            Change.model_validate(
                {
                    "id": f"s{session}-r{self._revision}-{seq}",
                    "session_id": session,
                    "revision": self._revision,
                    "seq": seq,
                    "kind": kind,
                    "entity_id": entity_id,
                    "field": field,
                    "new_value": value,
                    "details": update.details,
                    "source": self._source,
                    "visibility": update.visibility or self._cs.visibility,
                    **extra,
                }
            )
        )
