"""One audience's view indexed once for the summary stage: relations by entity and the latest
effective relationship change (attitude) per pair of entities.

Built once per build and audience, so a community's relations cost a look-up per member
instead of a scan of every relation (the summary stage was quadratic without it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import get_args

from graphrag_core.models import PARTY_ID, Attitude, CampaignView, Change, Relation

ATTITUDES: frozenset[str] = frozenset(get_args(Attitude))


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Facts:
    """A :class:`CampaignView` with its relations and relationship changes indexed."""

    view: CampaignView
    relations_by_entity: dict[str, list[Relation]] = field(default_factory=dict)
    pair_changes: dict[tuple[str, str], Change] = field(default_factory=dict)
    changed_pairs_by_entity: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    entity_texts: dict[str, str] = field(default_factory=dict)
    relation_texts: dict[tuple[str, str, str], str] = field(default_factory=dict)

    @classmethod
    def of(cls, view: CampaignView) -> Facts:
        facts = cls(view)
        for r in sorted(view.relations, key=lambda r: r.key):
            facts.relations_by_entity.setdefault(r.source, []).append(r)
            if r.target != r.source:
                facts.relations_by_entity.setdefault(r.target, []).append(r)
        for change in view.changes.values():  # oldest first: the last one per pair wins
            if _is_pair_attitude(change, view):
                facts.pair_changes[pair(change.entity_id, change.target_id or "")] = change
        for a, b in sorted(facts.pair_changes):
            facts.changed_pairs_by_entity.setdefault(a, []).append((a, b))
            facts.changed_pairs_by_entity.setdefault(b, []).append((a, b))
        return facts

    def relations_within(self, members: Sequence[str]) -> list[Relation]:
        """Relations with both ends among ``members``, sorted by key."""
        inside = set(members)
        found = {
            r.key: r
            for m in members
            for r in self.relations_by_entity.get(m, ())
            if r.source in inside and r.target in inside
        }
        return [found[k] for k in sorted(found)]

    def changes_within(self, members: Sequence[str]) -> list[Change]:
        """The latest attitude change of each pair with both ends among ``members``."""
        inside = set(members)
        pairs = {
            p
            for m in members
            for p in self.changed_pairs_by_entity.get(m, ())
            if p[0] in inside and p[1] in inside
        }
        return [self.pair_changes[p] for p in sorted(pairs)]

    def pair_change(self, a: str, b: str) -> Change | None:
        return self.pair_changes.get(pair(a, b))

    def entity_json(self, entity_id: str) -> str:
        """``[entity, effective state]`` as the JSON a summary fingerprint hashes; encoded once
        per build, not once per community level holding the entity."""
        found = self.entity_texts.get(entity_id)
        if found is None:
            state = self.view.states.get(entity_id)
            entity = self.view.entities[entity_id].model_dump(mode="json")
            found = as_json([entity, None if state is None else state.model_dump(mode="json")])
            self.entity_texts[entity_id] = found
        return found

    def relation_json(self, relation: Relation) -> str:
        """The relation as the JSON a summary fingerprint hashes, encoded once per build (a
        view holds one relation per key: the store merges relations on it)."""
        key = relation.key
        found = self.relation_texts.get(key)
        if found is None:
            found = self.relation_texts[key] = as_json(relation.model_dump(mode="json"))
        return found


_ENCODER = json.JSONEncoder(sort_keys=True)  # what json.dumps(data, sort_keys=True) builds per call


def as_json(data: object) -> str:
    return _ENCODER.encode(data)


def json_list(items: Sequence[str]) -> str:
    """The list of the already encoded ``items``, byte for byte as ``json.dumps`` writes it."""
    return "[" + ", ".join(items) + "]"


def _is_pair_attitude(change: Change, view: CampaignView) -> bool:
    """A relationship change setting the attitude between two entities of the view (the
    overlay's rule: changes with the party set the entity's own attitude instead)."""
    target = change.target_id
    return (
        change.kind == "relationship"
        and change.new_value in ATTITUDES
        and target is not None
        and PARTY_ID not in (change.entity_id, target)
        and change.entity_id in view.entities
        and target in view.entities
        and change.entity_id != target
    )
