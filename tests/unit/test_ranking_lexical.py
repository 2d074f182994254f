"""BM25 over a view: exact names, normalised scores, audience-aware documents."""

from __future__ import annotations

import pytest

from graphrag_core.models import CampaignView
from ranking.documents import ItemKey, entity_document
from ranking.lexical import LexicalIndex, tokenize
from tests.unit.ranking_fakes import ENTITIES, gm_view, party_view


def test_tokenize_lowercases_and_drops_stopwords_and_question_words() -> None:
    # "party" is the asker in a question, and in every recap: it carries no topic
    assert tokenize("Where can the Party REST at the Red-Oak?") == ["rest", "red", "oak"]


def test_exact_name_is_the_best_entity_hit() -> None:
    hits = LexicalIndex.build(party_view()).search("Torven Blackwater", 5)
    entities = [hit for hit in hits if hit.key.kind == "entity"]
    assert entities[0].key == ItemKey("entity", "torven-blackwater")
    assert entities[0].score == pytest.approx(1.0)


def test_scores_are_normalised_per_kind_and_sorted() -> None:
    hits = LexicalIndex.build(party_view()).search("red oak tavern rest", 10)
    assert hits
    for kind in ("entity", "chunk"):
        scores = [hit.score for hit in hits if hit.key.kind == kind]
        assert max(scores) == pytest.approx(1.0)
        assert all(0.0 < score <= 1.0 for score in scores)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_k_limits_hits_per_kind() -> None:
    hits = LexicalIndex.build(gm_view()).search("party rest inn tavern", 1)
    assert sorted(hit.key.kind for hit in hits) == ["chunk", "entity"]


def test_gm_aliases_are_searchable_only_in_a_gm_view() -> None:
    gm_hits = LexicalIndex.build(gm_view()).search("masked lord", 5)
    assert ItemKey("entity", "torven-blackwater") in [hit.key for hit in gm_hits]
    leaky_party = party_view().model_copy(
        update={"entities": {e.id: e for e in ENTITIES if e.visibility == "party"}}
    )
    party_hits = LexicalIndex.build(leaky_party).search("masked lord", 5)
    assert party_hits == []


def test_entity_document_includes_gm_text_only_for_gm() -> None:
    torven = next(e for e in ENTITIES if e.id == "torven-blackwater")
    assert "Masked Lord" in entity_document(torven, gm=True)
    assert "Masked Lord" not in entity_document(torven, gm=False)
    assert "Secretly" not in entity_document(torven, gm=False)


def test_gm_items_of_a_party_view_are_not_indexed() -> None:
    view = party_view().model_copy(update={"chunks": gm_view().chunks})
    keys = [hit.key for hit in LexicalIndex.build(view).search("cult hideout", 10)]
    assert ItemKey("chunk", "c-secret") not in keys


def test_unknown_words_and_empty_views_give_no_hits() -> None:
    assert LexicalIndex.build(party_view()).search("xyzzy", 5) == []
    assert LexicalIndex.build(party_view()).search("where is the", 5) == []
    empty = CampaignView(
        campaign="c",
        visibilities=("party",),
        entities={},
        relations=(),
        chunks={},
        states={},
        changes={},
    )
    index = LexicalIndex.build(empty)
    assert len(index) == 0
    assert index.search("tavern", 5) == []


def test_ties_are_broken_by_id() -> None:
    hits = LexicalIndex.build(party_view()).search("mercenary company swords", 10)
    guilds = [hit for hit in hits if hit.key.id in {"iron-hand", "river-guild"}]
    assert len(guilds) == 2
    assert LexicalIndex.build(party_view()).search("mercenary company swords", 10) == hits
