"""Coverage rules of the ranker (issue 12, round 7b): a status asked of someone the question
does not name; what a place can offer; the setting among the answers; who took part in what
happened. A small frontier town of its own, not any campaign's names."""

from __future__ import annotations

from graphrag_core.config import RankingSettings
from graphrag_core.models import (
    CampaignView,
    Change,
    Chunk,
    EffectiveState,
    Entity,
    RankedResult,
    Visibility,
)
from ranking.anchors import time_marks
from ranking.asked_status import DOER, asked_statuses, status_asked, status_doers
from ranking.lexical import STOPWORDS, LexicalIndex
from ranking.lists import asks_offer, main_place
from ranking.names import NameIndex
from ranking.narrative import participants
from ranking.ranker import Ranker
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import FakeVectorStore

SETTINGS = RankingSettings()


def _entity(id_: str, name: str, type_: str, status: str, *aliases: str) -> Entity:
    return Entity(id=id_, name=name, type=type_, status=status, aliases=aliases)


def _chunk(
    id_: str, text: str, subject: str | None, *mentions: str, session: int | None = None
) -> Chunk:
    return Chunk(
        id=id_,
        source_path="sessions/x.md" if session else "lore/town.md",
        start=0,
        end=len(text),
        content_hash=id_,
        text=text,
        subject=subject,
        mentions=mentions,
        session=session,
    )


ENTITIES = (
    _entity("dry-creek", "Dry Creek", "Location", "intact", "the town"),
    _entity("jeb-harlan", "Jeb Harlan", "NPC", "alive", "Jeb"),
    _entity("kid-ramsey", "Kid Ramsey", "NPC", "alive", "the Kid", "the stable lad"),
    _entity("ada-pike", "Ada Pike", "NPC", "alive", "the widow"),
    _entity("secret-man", "Silas Crowe", "NPC", "alive", "Crowe"),
    _entity("old-mill", "the Old Mill", "Location", "intact", "the mill"),
    _entity("cutter-gang", "the Cutter Gang", "Faction", "active", "the Cutters"),
    _entity("doc-vance", "Doc Vance", "NPC", "alive", "the doctor"),
    _entity("bell-tower", "the Bell Tower", "Location", "intact"),
    _entity("grain-exchange", "the Grain Exchange", "Location", "intact"),
    _entity("palace-hotel", "the Palace Hotel", "Location", "intact"),
    _entity("livery", "Harlan's Livery", "Location", "intact"),
    _entity("stockmen", "the Stockmen's Association", "Faction", "active", "the stockmen"),
    _entity("mayor-dunn", "Mayor Dunn", "NPC", "alive"),
)

CHUNKS = (
    _chunk(
        "c-lad",
        "The stable lad Kid Ramsey brushes the horses and sleeps above the livery; the lad "
        "is still up before dawn every day.",
        "kid-ramsey",
        "kid-ramsey",
    ),
    _chunk(
        "c-jail",
        "Jeb Harlan rode with the Cutter gang until the posse took him at the ford.",
        "jeb-harlan",
        "jeb-harlan",
        session=2,
    ),
    _chunk(
        "c-mill",
        "The Old Mill grinds the valley's grain. From the mill you see the Bell Tower, the "
        "Grain Exchange and the road where Kid Ramsey waters the horses; the mill happened to "
        "be the first building in Dry Creek.",
        "old-mill",
        "old-mill",
        "bell-tower",
        "grain-exchange",
        "kid-ramsey",
        "dry-creek",
    ),
    _chunk(
        "c-fire",
        "At midnight the Cutter Gang fired the Old Mill, and Doc Vance pulled the miller out "
        "of the smoke. The town slept on.",
        None,
        "cutter-gang",
        "old-mill",
        "doc-vance",
        session=3,
    ),
    _chunk(
        "c-town",
        "Dry Creek is a cattle town on the river crossing, a town that can offer a passing "
        "party little but dust; the town grew around the Old Mill and the Bell Tower.",
        "dry-creek",
        "dry-creek",
        "old-mill",
        "bell-tower",
    ),
    _chunk(
        "c-hotel",
        "The Palace Hotel on the main street of Dry Creek rents clean rooms and beds by the night.",
        "palace-hotel",
        "palace-hotel",
        "dry-creek",
    ),
    _chunk(
        "c-livery",
        "Harlan's Livery gives stabling and fresh horses for hire.",
        "livery",
        "livery",
        "dry-creek",
    ),
    _chunk(
        "c-power",
        "Mayor Dunn sits in the Dry Creek courthouse, Ada Pike keeps the books, Doc Vance "
        "signs the certificates, and the Stockmen's Association sets the price of beef.",
        None,
        "mayor-dunn",
        "dry-creek",
        "ada-pike",
        "doc-vance",
        "stockmen",
    ),
)


def _change(id_: str, session: int, entity: str, old: str, new: str, vis: Visibility) -> Change:
    return Change(
        id=id_, session_id=session, seq=1, kind="entity_status", entity_id=entity,
        field="status", old_value=old, new_value=new, source=f"sessions/{session}.md",
        visibility=vis,
    )  # fmt: skip


CHANGES = (
    _change("s2-r1-1", 2, "jeb-harlan", "alive", "captured", "party"),
    _change("s4-r1-1", 4, "jeb-harlan", "captured", "alive", "party"),
    _change("s3-r1-1", 3, "secret-man", "alive", "captured", "gm"),
)


def _view(as_of: int | None = None, *, as_player: bool = False) -> CampaignView:
    """The town as of ``as_of`` (every change up to it), for the GM or the players."""
    seen: tuple[Visibility, ...] = ("party",) if as_player else ("gm", "party")
    changes = [
        c for c in CHANGES
        if (as_of is None or c.session_id <= as_of) and c.visibility in seen
    ]  # fmt: skip
    states = {e.id: EffectiveState(entity_id=e.id, status=e.status) for e in ENTITIES}
    for change in changes:
        states[change.entity_id] = EffectiveState(
            entity_id=change.entity_id,
            status=change.new_value,
            status_change=change.id,
            status_session=change.session_id,
        )
    return CampaignView(
        campaign="frontier",
        visibilities=seen,
        entities={e.id: e for e in ENTITIES},
        relations=(),
        chunks={
            c.id: c for c in CHUNKS if as_of is None or c.session is None or c.session <= as_of
        },
        states=states,
        changes={c.id: c for c in changes},
        as_of_session=as_of,
    )


def _rank(question: str, view: CampaignView) -> list[RankedResult]:
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, view).as_port(), SETTINGS)
    return list(ranker.rank(question, view, LexicalIndex.build(view), k=10).results)


def _top(question: str, view: CampaignView, k: int = 3) -> list[str]:
    results = _rank(question, view)
    return [r.id if r.kind == "entity" else f"chunk:{r.id}" for r in results][:k]


def test_a_status_asked_of_someone_unnamed_finds_who_held_it() -> None:
    assert asked_statuses("Is the outlaw still locked up?") == {"captured"}
    assert asked_statuses("Is the bootlegger still in custody?") == {"captured"}
    assert asked_statuses("Is the Don still in irons?") == {"captured"}
    assert asked_statuses("Who can get us through without getting lost?") == frozenset()
    question = "Is the outlaw lad still locked up?"
    # "lad" and "still" match the stable lad's passage; only the prisoner was ever captured
    for as_of in (2, 3, 4):
        view = _view(as_of, as_player=True)
        assert status_asked(question, set(), view) >= {"jeb-harlan"}
        assert _top(question, view, 1) == ["jeb-harlan"], as_of
    # before his capture nothing answers by status; a question that names someone is about them
    assert status_asked(question, set(), _view(1)) == set()
    assert status_asked(question, {"kid-ramsey"}, _view(3)) == set()
    # naming only the place one is kept at still asks who is held there; what befell the
    # place itself ("burned", "missing" from it) is no status of someone unnamed
    cell = "Who's still in a cell in Dry Creek?"
    assert "jeb-harlan" in status_asked(cell, {"dry-creek"}, _view(3))
    # "Who's still …?" asks who holds the status now: not one released since (session 4)
    assert "jeb-harlan" in status_asked("Is the outlaw still locked up?", set(), _view(4))
    assert "jeb-harlan" not in status_asked(cell, {"dry-creek"}, _view(4))
    assert "jeb-harlan" not in status_asked("Who's still locked up?", set(), _view(4))
    mill = view.entities["old-mill"].model_copy(update={"status": "destroyed"})
    burned = view.model_copy(update={"entities": {**view.entities, mill.id: mill}})
    assert status_asked("What burned in Dry Creek?", set(), burned) == {"old-mill"}
    assert status_asked("What burned in Dry Creek?", {"dry-creek"}, burned) == set()
    # with where the question names it: a place after "in" or "around" is where the things
    # asked about are, in a question asking what or which
    names = NameIndex.build(burned)
    for question in ("What burned in Dry Creek?", "What's been wrecked around Dry Creek?"):
        spans = names.spans(question)
        assert status_asked(question, {"dry-creek"}, burned, spans) == {"old-mill"}, question
    stolen = "Who will buy stolen goods from us in Dry Creek?"  # "stolen" describes the goods
    assert status_asked(stolen, {"dry-creek"}, burned, names.spans(stolen)) == set()
    standing = "Is Dry Creek still standing?"  # the place is what is asked about
    assert status_asked(standing, {"dry-creek"}, burned, names.spans(standing)) == set()


def test_a_status_asked_in_a_phrase_or_about_now() -> None:
    assert asked_statuses("Who's behind bars right now?") == {"captured"}
    assert asked_statuses("Who's done a runner and never turned up again?") == {"missing", "lost"}
    assert asked_statuses("What got smashed up on the quay?") == {"destroyed", "damaged"}
    assert asked_statuses("Which bars on the quay are open late?") == frozenset()  # no phrase
    assert asked_statuses("Who torched the mill?") == frozenset()  # asks the doer
    # "right now" asks who holds it now, as "still" does: not the prisoner released since
    assert "jeb-harlan" in status_asked("Who's behind bars?", set(), _view(4))
    assert "jeb-harlan" not in status_asked("Who's behind bars right now?", set(), _view(4))
    assert "jeb-harlan" in status_asked("Who's behind bars right now?", set(), _view(3))


def test_a_status_asked_reads_only_what_the_players_may_see() -> None:
    question = "Who is locked up in the jail?"
    assert "secret-man" in status_asked(question, set(), _view(3))
    assert "secret-man" not in status_asked(question, set(), _view(3, as_player=True))
    assert "secret-man" not in _top(question, _view(3, as_player=True), 5)


def test_a_narrative_question_lifts_who_took_part_in_the_session_records() -> None:
    question = "What happened to the mill?"
    view = _view(3)
    names = NameIndex.build(view, ignore=STOPWORDS)
    took = participants(question, {"old-mill"}, view, names)
    assert took == {"cutter-gang": 1.0, "doc-vance": 1.0}  # one recap sentence each
    top = _top(question, view, 4)
    assert top[0] == "old-mill" and {"cutter-gang", "doc-vance"} <= set(top), top
    # a question about now, or one that names nothing, tells no story
    assert participants("What is the mill?", {"old-mill"}, view, names) == {}
    assert participants("What happened here?", set(), view, names) == {}
    # an as-of view before the fire holds no record of it
    assert participants(question, {"old-mill"}, _view(2), names) == {}


def test_a_change_whose_note_names_the_place_asked_about_took_part_with_its_doers() -> None:
    killed = Change(
        id="s3-r1-9", session_id=3, seq=9, kind="entity_status", entity_id="jeb-harlan",
        field="status", new_value="dead", details={
            "killed_by": ["ada-pike"], "note": "Shot on the steps of the Bell Tower."},
    )  # fmt: skip
    view = _view(3)
    view = view.model_copy(update={"changes": {**view.changes, killed.id: killed}})
    names = NameIndex.build(view, ignore=STOPWORDS)
    took = participants("What went down at the Bell Tower?", {"bell-tower"}, view, names)
    assert took["jeb-harlan"] == 1.0 and took["ada-pike"] == 1.0
    assert "jeb-harlan" not in participants(
        "What went down at the Grain Exchange?", {"grain-exchange"}, view, names
    )  # the note names another place


def test_a_question_after_a_named_ones_status_finds_who_did_it() -> None:
    killed = Change(
        id="s3-r1-9", session_id=3, seq=9, kind="entity_status", entity_id="jeb-harlan",
        field="status", new_value="dead", details={"killed_by": ["Ada Pike"], "note": "Shot."},
    )  # fmt: skip
    view = _view(3)
    view = view.model_copy(update={"changes": {**view.changes, killed.id: killed}})
    assert status_doers("Is Jeb still kicking?", {"jeb-harlan"}, view) == {"ada-pike"}
    assert status_doers("Who is Jeb?", {"jeb-harlan"}, view) == set()  # asks no status
    assert status_doers("Is Jeb still kicking?", set(), view) == set()  # names no one
    assert status_doers("Where have they got Jeb now he's dead?", {"jeb-harlan"}, view) == set()
    found = {r.id: r for r in _rank("Is Jeb still kicking?", view)}
    assert found["ada-pike"].signals["relation"] == DOER
    ids = list(found)
    assert ids.index("jeb-harlan") < ids.index("ada-pike")


def test_what_a_place_can_offer_is_the_places_in_it_that_serve() -> None:
    assert asks_offer("What can Dry Creek offer a posse riding through?")
    assert not asks_offer("Who can offer us a bed?") and not asks_offer("What is Dry Creek?")
    assert not asks_offer("What do we have on the Cutter Gang?")
    view = _view()
    for question in (
        "What can Dry Creek offer a posse riding through?",
        "What can the settlement offer a posse riding through?",  # names no place
    ):
        top = _top(question, view, 3)  # without the rule: neither in the top 6
        assert {"palace-hotel", "livery"} <= set(top), (question, top)
    assert main_place(view) == "dry-creek"


def test_who_holds_power_asks_for_the_factions_too() -> None:
    top = _top("Who holds power in Dry Creek?", _view(), 3)
    assert "stockmen" in top, top  # without the rule: a list of the people in the passage


def test_who_a_change_names_as_the_doer_took_the_whole_part_in_the_story() -> None:
    """The recaps put Jeb beside the hotel twice and never name who burned it; the change
    that destroyed it says the Cutters did: they are as much the story as anyone."""
    hotel_fire = Change(
        id="s3-r1-9", session_id=3, seq=9, kind="entity_status", entity_id="palace-hotel",
        field="status", old_value="intact", new_value="destroyed", source="sessions/3.md",
        details={"destroyed_by": ["cutter-gang"], "note": "Burned to the ground."},
    )  # fmt: skip
    recap = _chunk(
        "c-hotel-night",
        "Jeb Harlan drank at the Palace Hotel. Jeb Harlan left the Palace Hotel at ten.",
        None,
        "jeb-harlan",
        "palace-hotel",
        session=3,
    )
    view = _view(3)
    view = view.model_copy(
        update={
            "changes": {**view.changes, hotel_fire.id: hotel_fire},
            "chunks": {**view.chunks, recap.id: recap},
        }
    )
    names = NameIndex.build(view, ignore=STOPWORDS)
    took = participants("How did the Palace Hotel burn down?", {"palace-hotel"}, view, names)
    assert took["cutter-gang"] == 1.0 and took["jeb-harlan"] == 1.0, took


def test_whoever_the_note_of_a_named_ones_own_change_names_took_part() -> None:
    freed = Change(
        id="s4-r1-9", session_id=4, seq=9, kind="entity_status", entity_id="jeb-harlan",
        field="status", new_value="alive",
        details={"note": "Ada Pike picked the lock of his cell at the Grain Exchange."},
    )  # fmt: skip
    view = _view(4)
    view = view.model_copy(update={"changes": {**view.changes, freed.id: freed}})
    names = NameIndex.build(view, ignore=STOPWORDS)
    took = participants("How did Jeb get out of the cells?", {"jeb-harlan"}, view, names)
    assert took["ada-pike"] == 1.0 and took["grain-exchange"] == 1.0
    assert "ada-pike" not in participants(
        "How did the Bell Tower burn?", {"bell-tower"}, view, names
    )


def test_a_name_after_a_word_of_time_dates_a_status_question_and_is_no_answer() -> None:
    view = _view(3)
    fair = Entity(id="harvest-fair", name="the Harvest Fair", type="Event", aliases=("the Fair",))
    dated = view.model_copy(update={"entities": {**view.entities, fair.id: fair}})
    question = "Who's been locked up since the Harvest Fair?"
    names = NameIndex.build(dated, ignore=STOPWORDS)
    spans = names.spans(question)
    assert time_marks(question, spans) == {"harvest-fair"}
    # the fair only says when: the question still asks who has been captured, named or not
    held = status_asked(question, {"harvest-fair"} - time_marks(question, spans), dated)
    assert "jeb-harlan" in held
    assert set(_top(question, dated, 2)) == {"jeb-harlan", "secret-man"}  # both captured


def test_idioms_of_death_and_sinking_ask_for_the_status() -> None:
    assert asked_statuses("Who's six feet under since the raid?") == {"dead"}
    assert asked_statuses("Which of them got drowned in the flood?") == {"dead"}
    assert asked_statuses("Which ships are on the bottom now?") == {"destroyed", "damaged"}
    assert asked_statuses("Was the brig scuttled?") >= {"destroyed"}
    assert asked_statuses("Who is on the bottom rung of the guild?") == set()  # no phrase
