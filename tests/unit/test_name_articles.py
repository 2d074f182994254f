"""A name or alias with a lower-case foreign article ("il Magnifico", "el Hambriento") is known
without it too: the prose's "the Magnifico" folds into the listed man, and a question's "the
Magnifico" names him. Every text is written for these tests (a Renaissance wool town)."""

from __future__ import annotations

import pytest

from extraction.resolution import EntityResolver
from graphrag_core.articles import without_article
from graphrag_core.models import CampaignView, Entity
from ranking.names import NameIndex
from tests.unit.test_prose_folds import _with_list


@pytest.mark.parametrize(
    ("name", "bare"),
    [
        ("il Magnifico", "Magnifico"),
        ("lo Zoppo", "Zoppo"),
        ("el Hambriento", "Hambriento"),
        ("l'Orbo", "Orbo"),
        ("der Alte", "Alte"),
        ("La Paz", None),  # a capitalised article is part of the name
        ("il magnifico", None),  # no name after it
        ("Magnifico", None),
        ("la", None),
    ],
)
def test_a_lower_case_foreign_article_drops(name: str, bare: str | None) -> None:
    assert without_article(name) == bare


PEOPLE = [
    Entity(id="lapo", name="Lapo Ridolfi", type="NPC", aliases=("il Magnifico",)),
    Entity(id="bindo", name="Bindo Cerchi", type="NPC", aliases=("lo Zoppo",)),
    Entity(id="nanni", name="Nanni Strozzi", type="NPC", aliases=("il Moro",)),
    Entity(id="moro", name="Moro", type="NPC"),  # someone else is called Moro outright
]


def test_the_resolver_knows_the_name_without_its_article() -> None:
    resolver = EntityResolver(PEOPLE)
    assert resolver.resolve("the Magnifico") == "lapo"
    assert resolver.resolve("Zoppo") == "bindo"
    assert resolver.resolve("Moro") == "moro"  # a name as written wins


def test_a_question_names_him_without_the_article() -> None:
    view = CampaignView(
        campaign="c",
        visibilities=("gm", "party"),
        entities={e.id: e for e in PEOPLE},
        relations=(),
        chunks={},
        states={},
        changes={},
    )
    names = NameIndex.build(view)
    assert names.find("Where's the Magnifico holed up now?") == {"lapo"}
    assert names.find("Is Moro still in town?") == {"moro"}


_LIST = """entities:
  - {id: lapo, name: Lapo di Cosimo Ridolfi, type: NPC, aliases: [il Magnifico, Messer Lapo]}
  - {id: palazzo, name: Palazzo Ridolfi, type: Location}
"""

_NOTES = """# The wool town

- The Magnifico keeps his court at Palazzo Ridolfi. Everyone fears the Magnifico.
- The Magnifico pays the dyers late, and the Magnifico never forgets a debt.
"""


def test_the_prose_name_without_the_article_folds_into_the_listed_man() -> None:
    entities = {e.id: e for e in _with_list(_LIST, _NOTES).entities}
    assert not any(e.name == "Magnifico" for e in entities.values())
    assert set(entities) == {"lapo", "palazzo"}
