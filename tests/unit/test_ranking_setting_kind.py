"""The setting and the kind of answer in list questions (issue 12, round 7c): a contracted
question word ("Who's …") asks what the full one asks, so the place the question is set in
stays its setting; a hostile power is still one of the powers. A small harbour of its own,
not any campaign's names."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import CampaignView, Chunk, EffectiveState, Entity
from ranking.anchors import anchors
from ranking.lexical import LexicalIndex
from ranking.names import NameIndex
from ranking.ranker import Ranker
from ranking.wording import spelt_out
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import FakeVectorStore

SETTINGS = RankingSettings()

ENTITIES = (
    Entity(id="gulls-reach", name="Gull's Reach", type="Location", status="intact"),
    Entity(id="wren-tally", name="Wren Tally", type="NPC", status="alive"),
    Entity(id="osk-mardle", name="Osk Mardle", type="NPC", status="alive"),
    Entity(id="net-menders", name="the Net-Menders", type="Faction", status="active"),
    Entity(id="salt-lords", name="the Salt Lords", type="Faction", status="active"),
    Entity(id="tide-wardens", name="the Tide Wardens", type="Faction", status="active"),
    Entity(id="old-quay", name="the Old Quay", type="Location", status="intact"),
)

ATTITUDES = {"wren-tally": "allied", "osk-mardle": "allied", "salt-lords": "hostile"}


def _chunk(id_: str, text: str, subject: str | None, *mentions: str) -> Chunk:
    return Chunk(
        id=id_, source_path="lore/harbour.md", start=0, end=len(text), content_hash=id_,
        text=text, subject=subject, mentions=mentions,
    )  # fmt: skip


CHUNKS = (
    _chunk(
        "c-reach",
        "Gull's Reach is a harbour town of tarred sheds on the Old Quay; in Gull's Reach the "
        "tide sets the hours and Gull's Reach keeps its own side of every quarrel.",
        "gulls-reach",
        "gulls-reach",
        "old-quay",
    ),
    _chunk(
        "c-powers",
        "Three powers share Gull's Reach: the Net-Menders, who own the boats; the Tide "
        "Wardens, who keep the sea wall; and the Salt Lords, who smuggle and bleed the town.",
        None,
        "gulls-reach",
        "net-menders",
        "tide-wardens",
        "salt-lords",
    ),
    _chunk("c-wren", "Wren Tally mends nets on the Old Quay.", "wren-tally", "wren-tally"),
    _chunk("c-osk", "Osk Mardle rows the pilot boat.", "osk-mardle", "osk-mardle"),
)


def _view() -> CampaignView:
    states = {
        e.id: EffectiveState(entity_id=e.id, status=e.status, attitude=ATTITUDES.get(e.id))
        for e in ENTITIES
    }
    return CampaignView(
        campaign="harbour",
        visibilities=("gm", "party"),
        entities={e.id: e for e in ENTITIES},
        relations=(),
        chunks={c.id: c for c in CHUNKS},
        states=states,
        changes={},
    )


def _ranked(question: str, view: CampaignView) -> list[str]:
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), SETTINGS)
    result = ranker.rank(question, view, LexicalIndex.build(view), k=10)
    return [r.id if r.kind == "entity" else f"chunk:{r.id}" for r in result.results]


def test_a_contracted_question_word_is_spelt_out() -> None:
    assert spelt_out("Who's on our side in Gull's Reach?") == "Who is on our side in Gull's Reach?"
    assert spelt_out("What’s dangerous out here?") == "What is dangerous out here?"
    assert spelt_out("Who's got the key?") == "Who has got the key?"
    assert spelt_out("Who'd help us?") == "Who would help us?"
    assert spelt_out("Where'd Osk's boat go?") == "Where did Osk's boat go?"
    assert spelt_out("Who'll row?") == "Who will row?"
    assert spelt_out("Is Wren's net mended?") == "Is Wren's net mended?"  # a possessive


def test_who_s_on_our_side_in_a_place_keeps_the_place_as_its_setting() -> None:
    view = _view()
    names = NameIndex.build(view)
    for question in ("Who's on our side in Gull's Reach?", "Who is on our side in Gull's Reach?"):
        full = spelt_out(question)
        spans = names.spans(full)
        types = {e: view.entities[e].type for s in spans for e in s.ids}
        assert anchors(full, spans, types) == {"gulls-reach"}, question
        top = _ranked(question, view)[:2]
        # without the rule "who's" asked for no one: the town, named three times, led
        assert set(top) == {"wren-tally", "osk-mardle"}, (question, top)


def test_a_hostile_power_is_still_one_of_the_powers() -> None:
    top = _ranked("What are the powers of Gull's Reach?", _view())[:3]
    # without the rule the Salt Lords, hostile to the party, were demoted out of the list
    assert {"net-menders", "tide-wardens", "salt-lords"} == set(top), top
    # asked for allies, an enemy is still no answer
    assert "salt-lords" not in _ranked("Who's on our side in Gull's Reach?", _view())[:3]


def test_the_place_a_list_is_set_in_yields_to_the_list() -> None:
    question = "What are the factions of Gull's Reach?"
    view = _view()
    top = _ranked(question, view)[:4]
    # without the rule the town, named and most central, took the fourth place
    assert top[:3] == ["net-menders", "salt-lords", "tide-wardens"] and "gulls-reach" not in top
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), SETTINGS)
    index = LexicalIndex.build(view)
    scored = {i.key.id: i for i in ranker.score(question, view, index, historical=False)}
    # named and set in: its match is w.named at the list's anchor weight twice (0.6 * 0.6)
    assert scored["gulls-reach"].anchor == 1.0
    assert abs(scored["gulls-reach"].match - 0.36) < 1e-9
    # a question that asks for one answer keeps the (one answer's) anchor weight once: 0.8
    one = ranker.score("Who mends nets in Gull's Reach?", view, index, historical=False)
    assert abs(next(i for i in one if i.key.id == "gulls-reach").match - 0.8) < 1e-9
