"""Things asked by their owner ("Torven's boat", "Torven's men", "Torven's dock friend"), by the
place a person is tied to ("the tavern man"), by their place ("our digs on Kelp Row"), killings
and kin asked in slang: :mod:`ranking.referents` and :mod:`ranking.cues` on a hand-built graph."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import CampaignView, Entity, Relation
from ranking.cues import question_cues
from ranking.graph import EffectiveGraph
from ranking.lexical import LexicalIndex
from ranking.names import NameIndex
from ranking.ranker import Ranker
from ranking.referents import referents
from ranking.wording import spelt_out
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import FakeVectorStore, gm_view, party_view

_MORE = (
    Entity(id="gull", name="The Gull", type="Item", aliases=("the grey skiff",)),
    Entity(id="ore-hauler", name="Ore Hauler Nine", type="Item", aliases=("Torven's hauler",)),
    Entity(id="mags", name="Mags Orrin", type="NPC", description="A clerk at the harbour docks."),
    Entity(id="pell", name="Pell Dray", type="NPC", description="A fisherman."),
    Entity(id="nib", name="Nib Carrow", type="NPC", description="Pours ale all night."),
    Entity(id="kelp-row", name="Kelp Row", type="Location", description="A street."),
    Entity(id="gannets", name="Gannet House", type="Location", description="A boarding house."),
    Entity(id="cutters", name="The Cutters", type="Faction", description="Arsonists."),
    Entity(id="danny", name="Danny Vell", type="NPC", aliases=("Danny",)),
    Entity(id="old-vell", name="Captain Orm Vell", type="NPC", aliases=("Cap Vell",)),
)
_RELATIONS = (
    Relation(source="gull", target="torven-blackwater", type="owned_by"),
    Relation(source="iron-hand", target="torven-blackwater", type="serves"),
    Relation(source="mags", target="torven-blackwater", type="knows"),
    Relation(source="pell", target="torven-blackwater", type="knows"),
    Relation(source="nib", target="red-oak-tavern", type="works_for"),
    Relation(source="gannets", target="kelp-row", type="located_in"),
    Relation(source="gannets", target="cutters", type="destroyed_by"),
    Relation(source="old-vell", target="danny", type="parent_of"),
    Relation(source="old-vell", target="cutters", type="killed_by"),
)


def _view() -> CampaignView:
    view = party_view()
    entities = {**view.entities, **{e.id: e for e in _MORE}}
    return view.model_copy(update={"entities": entities, "relations": _RELATIONS})


def _ranked(question: str, view: CampaignView | None = None) -> list[str]:
    view = view or _view()
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), RankingSettings())
    found = ranker.rank(spelt_out(question), view, LexicalIndex.build(view), k=10).results
    return [r.id for r in found]


def _things(question: str) -> dict[str, float]:
    view = _view()
    return referents(question, view, NameIndex.build(view), EffectiveGraph.build(view)).things


def test_an_owned_thing_is_what_its_head_noun_or_its_group_fits() -> None:
    assert _things("Can we borrow Torven's boat for the night?") == {"gull": 1.0}
    assert _ranked("Can we borrow Torven's hauler?")[0] == "ore-hauler"  # an alias names it
    assert _ranked("Can we borrow Torven's boat for the night?")[0] == "gull"
    assert _things("Can we borrow Torven's wagon?") == {}  # nothing of his fits


def test_someone_s_people_are_a_faction_tied_to_him_and_a_friend_fits_every_modifier() -> None:
    assert _things("Should we ask Torven's men for help?") == {"iron-hand": 1.0}
    assert _ranked("Should we hire Torven's men for the job?")[0] == "iron-hand"
    assert _things("Is Torven's docks friend still around?") == {"mags": 1.0}
    assert set(_things("Is Torven's friend still around?")) == {"mags", "pell"}


def test_a_kin_noun_after_a_possessive_is_left_to_the_kinship_cue() -> None:
    assert _things("Is Torven's kid brother still kicking?") == {}
    assert _things("Who is Torven's old man?") == {}


def test_the_place_man_is_the_person_tied_to_the_place_not_the_place() -> None:
    assert _things("Is the Red Oak Tavern man still around?") == {"nib": 1.0}
    ranked = _ranked("Is the Red Oak Tavern man still around?")
    assert ranked.index("nib") < ranked.index("red-oak-tavern")


def test_a_thing_on_a_place_stands_in_for_the_place_a_relation_starts_from() -> None:
    view = _view()
    found = referents(
        "Who torched our digs on Kelp Row?", view, NameIndex.build(view), EffectiveGraph.build(view)
    )
    assert found.stand_ins == {"gannets"}
    assert _ranked("Who torched our digs on Kelp Row?")[0] == "cutters"


def test_slang_killings_ask_for_the_killer_and_motion_or_captivity_ask_no_relation() -> None:
    for question in ("Who did in Cap Vell?", "Who whacked Cap Vell?", "Who rubbed out Cap Vell?"):
        assert question_cues(question).relation_types == {"killed_by"}, question
        assert _ranked(question)[0] == "cutters", question
    assert question_cues("Who did it in the keep?").relation_types == set()
    assert question_cues("Can we run out past the rocks?").relation_types == set()
    assert question_cues("Who runs the docks?").relation_types >= {"leads"}
    assert question_cues("Is the clerk still being held by the cult?").relation_types == set()
    assert question_cues("Who holds the keep?").relation_types >= {"ruled_by"}


def test_kin_asked_in_slang_reads_the_parent_edge() -> None:
    assert question_cues("Whose boy is Danny?").relation_types == {"parent_of"}
    assert _ranked("Whose boy is Danny?")[0] == "old-vell"


def test_the_last_word_of_one_name_alone_names_it_and_of_two_names_none() -> None:
    assert _things("Is the tavern out by the docks still open?") == {"red-oak-tavern": 0.7}
    assert _things("Is the guild still hiring?") == {"river-guild": 0.7}
    twin = Entity(id="thieves-guild", name="Thieves Guild", type="Faction")
    view = _view()
    view = view.model_copy(update={"entities": {**view.entities, twin.id: twin}})
    found = referents(
        "Is the guild still hiring?", view, NameIndex.build(view), EffectiveGraph.build(view)
    )
    assert found.things == {}
    assert _things("Who runs the Silver Stag Inn?") == {}  # named whole, not by its head


def test_a_kin_noun_after_a_possessive_is_no_one_word_name_and_names_its_kinship() -> None:
    nun = Entity(id="sister-agna", name="Sister Agna", type="NPC", aliases=("the Sister",))
    view = _view()
    view = view.model_copy(update={"entities": {**view.entities, nun.id: nun}})
    names = NameIndex.build(view)
    for question in ("Who is Torven's big sister?", "Who is Torven's sister?"):
        found = {e for s in names.spans(question, possessive=True) for e in s.ids}
        assert found == {"torven-blackwater"}, question
    assert "sister-agna" in names.find("Can the Sister help us?")
    assert question_cues("Who is Torven's big sister?").kin_nouns == {"sister"}
    assert question_cues("Who is Torven's father?").kin_nouns == set()


def test_a_player_never_gets_a_gm_only_thing_by_its_owner() -> None:
    tie = Relation(source="shadow-cult", target="torven-blackwater", type="serves")
    for view, expected in ((gm_view(), {"shadow-cult"}), (party_view(), set())):
        view = view.model_copy(update={"relations": (tie,)})
        found = referents(
            "Are Torven's people still around?",
            view,
            NameIndex.build(view),
            EffectiveGraph.build(view),
        )
        assert set(found.things) == expected


def test_killing_verbs_of_other_genres_ask_for_the_killer() -> None:
    for question in ("Who spaced Cap Vell?", "Who vented Cap Vell?", "Who took Cap Vell down?"):
        assert question_cues(question).relation_types == {"killed_by"}, question
        assert _ranked(question)[0] == "cutters", question
    # a title before a name is no relation cue: "Chief" asks for no leader
    assert question_cues("Who spaced Chief Vell?").relation_types == {"killed_by"}
    assert question_cues("Who is the chief of the watch?").relation_types >= {"leads"}
    assert question_cues("Who got the loot?").relation_types == set()


def test_what_got_someone_s_kin_asks_for_the_kin_s_killer() -> None:
    assert question_cues("What got Danny's dad?").relation_types == {"killed_by", "parent_of"}
    assert _ranked("What got Danny's dad?")[0] == "cutters"
    assert _ranked("Who killed Danny's dad?")[0] == "cutters"
    # "got" with no name after it asks nothing of a killing
    assert question_cues("What got stolen from Danny?").relation_types == set()


def test_a_thing_named_by_its_last_word_after_an_adjective_is_where_a_relation_starts() -> None:
    assert _things("Who torched the old house?") == {"gannets": 0.7}
    assert _ranked("Who torched the old house?")[0] == "cutters"
    assert _things("Who torched the red house?") == {}  # only a few adjectives stand between


def test_our_and_the_last_word_of_a_name_name_it() -> None:
    assert _things("Who torched our house?") == {"gannets": 0.7}
    assert _ranked("Who torched our house?")[0] == "cutters"


def test_his_thing_after_one_named_person_is_that_person_s_thing() -> None:
    found = referents(
        spelt_out("Let's get Torven to lend us his boat behind the mill."),
        _view(),
        NameIndex.build(_view()),
        EffectiveGraph.build(_view()),
    )
    assert found.things == {"gull": 1.0}
    assert found.modifiers == set()  # Torven stays what is asked about
    assert _things("Torven sold his father's boat.") == {}  # the father's, not his
    assert _things("Ask him about his boat.") == {}  # no one named before "his"
    assert _things("Can we borrow Torven's boat behind the mill?") == {"gull": 1.0}
