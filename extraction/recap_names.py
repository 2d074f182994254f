"""Finding the campaign's known entities in a recap sentence, for the offline recap draft.

The surfaces an entity is found by, each only when it names one entity and no other:

* its name and aliases (``Copper Kettle``, ``Old Wenna``), with or without a leading "the";
* "the" + the last word of its name (``the guild`` → ``Tanners' Guild``, ``the bridge`` →
  ``Old Stone Bridge``);
* for people (NPC, PC, Deity), the first or the last word of the name (``Hob``, ``Tarrow``).

Matching ignores case, except that a one-word surface must be capitalised in the text (so the
NPC "Hope" is not found in "we lost hope"). Longer surfaces win over shorter ones. Pronouns
are not resolved: a change stated only with "him" or "it" is left to the game master.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from extraction.name_match import PERSON_TYPES, TITLES
from graphrag_core.models import PARTY_ID, Entity

_WORD = re.compile(r"[^\W\d_][\w'’-]*")


@dataclass(frozen=True)
class Found:
    """``entity`` named by ``text[start:end]``."""

    entity: Entity
    start: int
    end: int


class RecapNames:
    """The surfaces of a campaign's entities, compiled once per draft."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        known = [e for e in entities if e.id != PARTY_ID]
        owners: dict[str, set[str]] = {}
        for entity in known:
            for surface in _surfaces(entity):
                owners.setdefault(surface.casefold(), set()).add(entity.id)
        by_id = {e.id: e for e in known}
        self._entities = {
            key: by_id[next(iter(ids))] for key, ids in owners.items() if len(ids) == 1
        }
        keys = sorted(self._entities, key=len, reverse=True)
        alternation = "|".join(re.escape(k) for k in keys) or r"(?!x)x"
        self._pattern = re.compile(rf"(?<![\w'’])(?:{alternation})(?![\w’]|'\w)", re.IGNORECASE)

    def find(self, text: str) -> list[Found]:
        """The entities named in ``text``, in order."""
        found = []
        for match in self._pattern.finditer(text):
            surface = match.group(0)
            if " " not in surface and not surface[:1].isupper():
                continue
            found.append(Found(self._entities[surface.casefold()], match.start(), match.end()))
        return found


def _surfaces(entity: Entity) -> set[str]:
    names = [n.strip() for n in (entity.name, *entity.aliases, *entity.gm_aliases) if n.strip()]
    surfaces: set[str] = set()
    for name in names:
        bare = re.sub(r"^the\s+", "", name, flags=re.IGNORECASE)
        surfaces |= {name, bare, f"the {bare}"}
        surfaces |= _short_forms(bare, entity.type)
    return {s for s in surfaces if len(s) >= 3}


def _short_forms(name: str, entity_type: str) -> set[str]:
    words = [w for w in _WORD.findall(name) if w.casefold() not in TITLES]
    if len(words) < 2:
        return set()
    forms = {f"the {words[-1]}".lower()}
    if entity_type in PERSON_TYPES:
        forms |= {words[0], words[-1]}
    return forms
