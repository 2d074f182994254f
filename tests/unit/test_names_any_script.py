"""Names in any script get ids and matching keys of their own (issue 10, item 5).

Before the fix every name without an ASCII decomposition slugged to ``""`` and normalised to
``""``: distinct non-Latin notes merged into one entity, and a GM-only note merged into a
public one was shown to players.
"""

from __future__ import annotations

import hashlib

import pytest

from extraction.cascade import ResolutionCascade
from extraction.offline import extract
from extraction.resolution import EntityResolver
from extraction.slugs import normalise_name, slugify
from graphrag_core.models import Entity, SourceDocument

NAMES = (
    "Торвен Чёрный",  # Cyrillic
    "Мирна",
    "Йорик",
    "Иорик",  # й and и are different letters, not accents
    "Αθηνά Παρθένος",  # Greek
    "Αθηνα",
    "東京",  # CJK
    "京都",
    "محمد",  # Arabic
    "مريم",
    "Łódź",  # Latin letters without an ASCII decomposition
    "Søren",
    "Sören",
    "Café Noël",  # accented Latin
    "🐉",  # emoji
    "🔥",
    "🐉 Dragon Inn",
    "🔥 Dragon Inn",
    "Dragon Inn",
)


def test_every_name_gets_a_non_empty_stable_id() -> None:
    for name in NAMES:
        assert slugify(name), name
        assert slugify(name) == slugify(name)
        assert normalise_name(name), name


def test_different_names_never_share_an_id_or_a_key() -> None:
    assert len({slugify(name) for name in NAMES}) == len(NAMES)
    assert len({normalise_name(name) for name in NAMES}) == len(NAMES)


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Торвен Чёрный", "торвен-чёрный"),
        ("Αθηνά Παρθένος", "αθηνά-παρθένος"),
        ("Łódź", "łodz"),
        ("Café Noël", "cafe-noel"),
        ("Merchants' Guild", "merchants-guild"),
    ],
)
def test_ids_stay_readable(name: str, slug: str) -> None:
    assert slugify(name) == slug


def test_spellings_of_one_name_still_share_a_key() -> None:
    assert normalise_name("ТОРВЕН  Чёрный") == normalise_name("торвен чёрный")
    assert normalise_name("Café Noël") == normalise_name("cafe noel")
    assert slugify("Ｔｏｒｖｅｎ") == slugify("Torven")  # full-width forms fold (NFKC)


def _note(path: str, text: str) -> SourceDocument:
    sha = hashlib.sha256(text.encode()).hexdigest()
    return SourceDocument(path=path, kind="vault", sha256=sha, text=text)


PUBLIC = "---\ntype: NPC\n---\nМирна торгует рыбой у моста.\n"
SECRET = "---\ntype: NPC\nvisibility: gm\n---\nТорвен — глава тайного культа.\n"


def test_distinct_non_latin_notes_stay_distinct_and_secrets_stay_secret() -> None:
    extraction = extract(
        [_note("npcs/Мирна.md", PUBLIC), _note("npcs/Торвен.md", SECRET)], chunk_size=400
    )
    by_name = {e.name: e for e in extraction.entities}
    assert set(by_name) == {"Мирна", "Торвен"}
    assert by_name["Мирна"].id != by_name["Торвен"].id
    assert all(e.id for e in extraction.entities)
    assert by_name["Мирна"].visibility == "party"
    assert by_name["Торвен"].visibility == "gm"
    assert "культа" not in by_name["Мирна"].description
    assert "Торвен" not in by_name["Мирна"].aliases


def test_resolver_finds_each_non_latin_name() -> None:
    people = [Entity(id=slugify(n), name=n, type="NPC") for n in ("Мирна", "Торвен", "東京")]
    resolver = EntityResolver(people)
    assert resolver.resolve("Торвен") == slugify("Торвен")
    assert resolver.resolve("торвен") == slugify("Торвен")
    assert resolver.resolve("東京") == slugify("東京")
    assert resolver.resolve("Йорик") is None


def test_llm_candidates_in_other_scripts_get_their_own_ids() -> None:
    cascade = ResolutionCascade([])
    first = cascade.resolve(Entity(id="pending", name="Мирна", type="NPC"))
    second = cascade.resolve(Entity(id="pending", name="محمد", type="NPC"))
    assert first != second
    assert "entity" not in (first, second)
    renames = cascade.stable_ids()
    assert set(cascade.entities) == {renames.get(first, first), renames.get(second, second)}


def test_one_word_names_of_caseless_scripts_are_found_in_text() -> None:
    from extraction.gazetteer import Gazetteer

    people = [Entity(id="m", name="محمد", type="NPC"), Entity(id="t", name="Торвен", type="NPC")]
    found = Gazetteer(people).find_mentions("رأى محمد السوق. Торвен ждал; торвен нет.")
    assert [(m.entity_id, m.surface) for m in found] == [("m", "محمد"), ("t", "Торвен")]
