"""Questions in colloquial English: slang for lodging, healing, a drink, friends and enemies,
the powers, kin; and a place noun after "in" that is the question's setting, not its answer."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import Relation
from ranking.cues import PERSON_TYPES, lexical_query, question_cues
from ranking.lexical import LexicalIndex
from ranking.lists import list_cues
from ranking.ranker import Ranker
from ranking.wording import spelt_out
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import FakeVectorStore, party_view


def _added(question: str) -> set[str]:
    """The words the lexical query adds to the (spelt-out) question."""
    asked = spelt_out(question)
    return set(lexical_query(asked)[len(asked) :].split())


def test_crashing_somewhere_is_lodging_only_when_the_asker_sleeps() -> None:
    assert "rooms" in _added("Where can we crash tonight now we're back in town?")
    assert "rooms" in _added("Where can I kip?")
    assert "rooms" not in _added("Where did the airship crash?")
    assert "rooms" in _added("Where's everybody bunking these days?")
    assert "rooms" in _added("Where are we crashing now that the motel's gone?")
    assert "rooms" not in _added("Where is the Judge's buggy crashing through?")


def test_sewing_and_patching_up_someone_ask_for_a_healer_not_a_smith() -> None:
    assert "healer" in _added("Dutch caught a slug in the shoulder. Who'll sew him up?")
    patched = _added("Who can patch him up?")
    assert "healer" in patched and "repairs" not in patched
    assert "repairs" in _added("Who can patch the hull?")
    assert "repairs" in _added("Our wagon's making a noise. Who can fix it?")


def test_a_thirsty_crew_asks_where_to_drink_and_slang_gets_its_plain_word() -> None:
    assert {"bar", "tavern"} <= _added("Where's a thirsty crew get a real drink around here?")
    assert "tavern" not in _added("Who poisoned the Baron's drink?")  # no "where"
    assert {"liquor", "close"} <= _added("Who do we talk to to get the booze boats shut down?")


def test_idioms_for_the_party_s_friends_and_enemies() -> None:
    for question in (
        "Who's got our backs in town?",
        "Who's in our corner?",
        "Who will stand with us?",
    ):
        assert question_cues(spelt_out(question)).attitude == "allied", question
    for question in (
        "Who'd still like to see us at the bottom of the harbour?",
        "Who wants us six feet under?",
        "Who's gunning for us?",
        "Who has it in for us?",
        "Who's turned on us over the campaign?",
        "Who sold us out to the Commodore?",
    ):
        assert question_cues(spelt_out(question)).attitude == "hostile", question
    assert question_cues("Who stabbed the Baron in the back?").attitude is None
    assert question_cues("Who turned on the lights?").attitude is None


def test_old_man_and_a_modified_kin_noun_ask_along_the_kinship() -> None:
    assert question_cues(spelt_out("Who's Evie's old man?")).relation_types == {"parent_of"}
    assert question_cues("Who is the old man on the pier?").relation_types == set()
    brother = question_cues("Is Lucky's kid brother still kicking?").relation_types
    assert brother == {"related_to"}  # a brother, not Lucky's kid
    assert question_cues("Who is Mira's little sister?").relation_types == {"related_to"}
    assert question_cues("Whose kid is Tam?").relation_types == {"parent_of"}


def test_a_place_noun_after_in_is_the_setting_and_big_players_are_the_powers() -> None:
    question = "Who are the big players in this town?"
    cues = list_cues(question, question_cues(question))
    assert cues.answer_types == PERSON_TYPES and cues.list_types == {"Faction"}
    assert "Location" in question_cues("Which tavern in the city sells ale?").answer_types
    assert "Location" not in question_cues("Who lives in the castle?").answer_types
    spots = question_cues("What are the main spots along the waterfront?")
    assert spots.list_types == {"Location"}


def test_the_big_players_rank_the_factions_above_the_places() -> None:
    view = party_view()
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    found = ranker.rank(
        "Who are the big players in this town?", view, LexicalIndex.build(view), k=10
    )
    types = [view.entities[r.id].type for r in found.results if r.id in view.entities]
    assert types[:2] == ["Faction", "Faction"], types


def test_a_name_owning_a_kin_noun_is_the_setting_of_the_kinship_asked() -> None:
    kin = Relation(source="river-guild", target="torven-blackwater", type="related_to")
    view = party_view().model_copy(update={"relations": (kin,)})
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    for question in ("Who's Torven's sister?", "Who is Torven's big sister?"):
        found = ranker.rank(spelt_out(question), view, LexicalIndex.build(view), k=10).results
        signals = {r.id: r.signals for r in found}
        assert signals["torven-blackwater"]["anchor"] == 1.0, question  # not the answer
        assert signals["river-guild"]["relation"] == 1.0, question
        assert [r.id for r in found].index("river-guild") == 0, question


def test_a_name_told_before_the_question_is_its_setting_not_its_answer() -> None:
    view = party_view()
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())

    def signals(question: str) -> dict[str, dict[str, float]]:
        found = ranker.rank(spelt_out(question), view, LexicalIndex.build(view), k=10).results
        return {r.id: r.signals for r in found}

    told = signals("Torven caught a knife in the ribs. Who'll sew him up?")
    assert told["torven-blackwater"]["anchor"] == 1.0
    assert told["torven-blackwater"]["named"] == 1.0  # still named, never hidden
    asked_again = signals("Torven is back in port. Who is Torven?")
    assert not asked_again["torven-blackwater"].get("anchor")
    assert not signals("Who is Torven?")["torven-blackwater"].get("anchor")
