"""The changelog overlay: effective state at query time (changelog.overlay)."""

from __future__ import annotations

from changelog.overlay import OverlayMemo, base_states, changes_for, effective_states
from graphrag_core.models import PARTY_ID, Change, Entity

ENTITIES = {
    "torven": Entity(id="torven", name="Torven", type="NPC", status="alive"),
    "red-oak": Entity(id="red-oak", name="Red Oak", type="Location", status="intact"),
    "guild": Entity(id="guild", name="Merchants' Guild", type="Faction", status="active"),
    "mira": Entity(id="mira", name="Mira", type="NPC"),
}
ALL = ("party", "gm")
PLAYERS = ("party",)


def status(session: int, seq: int, entity: str, value: str, **kw: object) -> Change:
    revision = kw.pop("revision", 1)
    return Change.model_validate(
        {
            "id": f"s{session}-r{revision}-{seq}",
            "session_id": session,
            "revision": revision,
            "seq": seq,
            "kind": "entity_status",
            "entity_id": entity,
            "field": "status",
            "new_value": value,
            **kw,
        }
    )


def attitude(session: int, seq: int, source: str, target: str, value: str) -> Change:
    return Change(
        id=f"s{session}-r1-{seq}",
        session_id=session,
        seq=seq,
        kind="relationship",
        entity_id=source,
        target_id=target,
        relation_type="attitude",
        field="attitude",
        new_value=value,
    )


def test_entities_without_changes_keep_their_base_status() -> None:
    states = effective_states(ENTITIES, [], visibilities=ALL)
    assert states["torven"].status == "alive"
    assert not states["torven"].status_assumed
    assert states["torven"].status_change is None
    assert set(states) == set(ENTITIES)


def test_an_entity_no_source_gives_a_status_is_assumed_still_there() -> None:
    # a prose-only ingest gives no statuses: "was the inn standing in session 1?" must still say
    # intact, and a person nobody has killed is alive
    entities = {
        **ENTITIES,
        "inn": Entity(id="inn", name="The Ferry House", type="Location"),
        "feast": Entity(id="feast", name="Midsummer Feast", type="Event"),
    }
    states = effective_states(entities, [], visibilities=ALL)
    assert (states["mira"].status, states["mira"].status_assumed) == ("alive", True)
    assert (states["inn"].status, states["inn"].status_assumed) == ("intact", True)
    assert (states["feast"].status, states["feast"].status_assumed) == (None, False)
    burned = [status(2, 1, "inn", "destroyed")]
    before = effective_states(entities, burned, visibilities=ALL, as_of_session=1)["inn"]
    after = effective_states(entities, burned, visibilities=ALL, as_of_session=2)["inn"]
    assert (before.status, before.status_assumed) == ("intact", True)
    assert (after.status, after.status_assumed, after.status_change) == (
        "destroyed",
        False,
        "s2-r1-1",
    )


def test_an_untyped_entity_takes_its_assumed_status_from_a_later_change_it_may_see() -> None:
    # "Dyke-Reeve Osric Fenner" typed Other: drowned in session 3, so alive as of session 2
    entities = {**ENTITIES, "osric": Entity(id="osric", name="Reeve Osric", type="Other")}
    died = [status(3, 1, "osric", "dead")]
    as_of_2 = effective_states(entities, died, visibilities=ALL, as_of_session=2)["osric"]
    assert (as_of_2.status, as_of_2.status_assumed) == ("alive", True)
    now = effective_states(entities, died, visibilities=ALL)["osric"]
    assert (now.status, now.status_assumed) == ("dead", False)
    # a death only the GM may see tells players nothing, not even that it could die
    secret = [status(3, 1, "osric", "dead", visibility="gm")]
    players = effective_states(entities, secret, visibilities=PLAYERS, as_of_session=2)["osric"]
    assert (players.status, players.status_assumed) == (None, False)
    # an attitude change keeps the assumed status
    turned = [attitude(1, 1, "mira", PARTY_ID, "hostile")]
    mira = effective_states(ENTITIES, turned, visibilities=ALL)["mira"]
    assert (mira.status, mira.status_assumed, mira.attitude) == ("alive", True, "hostile")


def test_later_session_wins_and_records_the_change() -> None:
    changes = [status(5, 1, "torven", "dead"), status(3, 1, "torven", "captured")]
    state = effective_states(ENTITIES, changes, visibilities=ALL)["torven"]
    assert (state.status, state.status_change, state.status_session) == ("dead", "s5-r1-1", 5)
    assert state.inactive


def test_later_seq_wins_within_a_session() -> None:
    changes = [status(2, 2, "torven", "dead"), status(2, 1, "torven", "missing")]
    assert effective_states(ENTITIES, changes, visibilities=ALL)["torven"].status == "dead"


def test_as_of_session_ignores_later_changes() -> None:
    changes = [status(3, 1, "torven", "captured"), status(5, 1, "torven", "dead")]
    states = effective_states(ENTITIES, changes, visibilities=ALL, as_of_session=4)
    assert states["torven"].status == "captured"
    early = effective_states(ENTITIES, changes, visibilities=ALL, as_of_session=2)
    assert early["torven"].status == "alive"


def test_gm_change_is_hidden_from_players() -> None:
    changes = [status(3, 1, "torven", "missing"), status(4, 1, "torven", "dead", visibility="gm")]
    assert effective_states(ENTITIES, changes, visibilities=PLAYERS)["torven"].status == "missing"
    assert effective_states(ENTITIES, changes, visibilities=ALL)["torven"].status == "dead"


def test_later_revision_supersedes_the_whole_session() -> None:
    changes = [
        status(6, 1, "torven", "dead"),
        status(6, 2, "red-oak", "destroyed"),
        status(6, 1, "red-oak", "damaged", revision=2),
    ]
    states = effective_states(ENTITIES, changes, visibilities=ALL)
    assert states["torven"].status == "alive"
    assert (states["red-oak"].status, states["red-oak"].status_change) == ("damaged", "s6-r2-1")


def test_gm_only_revision_still_supersedes_for_players() -> None:
    changes = [
        status(6, 1, "torven", "dead"),
        status(6, 1, "torven", "missing", revision=2, visibility="gm"),
    ]
    assert effective_states(ENTITIES, changes, visibilities=PLAYERS)["torven"].status == "alive"


def test_attitude_toward_the_party_in_both_directions() -> None:
    changes = [
        attitude(2, 1, PARTY_ID, "guild", "hostile"),
        attitude(2, 2, "torven", PARTY_ID, "allied"),
    ]
    states = effective_states(ENTITIES, changes, visibilities=ALL)
    assert (states["guild"].attitude, states["guild"].attitude_change) == ("hostile", "s2-r1-1")
    assert states["guild"].inactive
    assert states["torven"].attitude == "allied"
    assert states["red-oak"].attitude is None


def test_other_pairs_set_relation_attitudes_on_both_ends() -> None:
    changes = [
        attitude(2, 1, "torven", "guild", "hostile"),
        attitude(2, 2, "mira", "ghost", "allied"),
    ]
    states = effective_states(ENTITIES, changes, visibilities=ALL)
    assert states["torven"].relation_attitudes == {"guild": "hostile"}
    assert states["guild"].relation_attitudes == {"torven": "hostile"}
    assert states["mira"].relation_attitudes == {}
    assert "ghost" not in states


def test_properties_accumulate_and_later_values_win() -> None:
    changes = [
        Change(
            id="s1-r1-1",
            session_id=1,
            seq=1,
            kind="entity_property",
            entity_id="red-oak",
            field="owner",
            new_value="Aldric",
        ),
        Change(
            id="s2-r1-1",
            session_id=2,
            seq=1,
            kind="entity_property",
            entity_id="red-oak",
            field="owner",
            new_value="Mira",
        ),
        Change(
            id="s2-r1-2",
            session_id=2,
            seq=2,
            kind="entity_property",
            entity_id="red-oak",
            field="floors",
            new_value="1",
        ),
    ]
    state = effective_states(ENTITIES, changes, visibilities=ALL)["red-oak"]
    assert state.properties == {"owner": "Mira", "floors": "1"}
    assert state.status == "intact"


def test_precomputed_base_gives_the_same_states() -> None:
    changes = [status(3, 1, "torven", "dead"), attitude(3, 2, PARTY_ID, "guild", "hostile")]
    base = base_states(ENTITIES)
    with_base = effective_states(ENTITIES, changes, visibilities=ALL, base=base)
    assert with_base == effective_states(ENTITIES, changes, visibilities=ALL)
    assert base["torven"].status == "alive"


def test_memo_matches_and_is_keyed_by_audience_and_session() -> None:
    changes = [status(3, 1, "torven", "missing"), status(4, 1, "torven", "dead", visibility="gm")]
    memo = OverlayMemo(ENTITIES, changes)
    assert memo.states(visibilities=ALL)["torven"].status == "dead"
    assert memo.states(visibilities=PLAYERS)["torven"].status == "missing"
    assert memo.states(visibilities=ALL, as_of_session=2)["torven"].status == "alive"
    memo.states(visibilities=ALL).clear()
    assert len(memo.states(visibilities=ALL)) == len(ENTITIES)


def test_changes_for_lists_visible_effective_changes_newest_first() -> None:
    changes = [
        status(1, 1, "torven", "captured"),
        attitude(2, 1, PARTY_ID, "torven", "allied"),
        status(3, 1, "torven", "dead", visibility="gm"),
        status(3, 2, "guild", "disbanded"),
    ]
    mine = changes_for("torven", changes, visibilities=PLAYERS)
    assert [c.id for c in mine] == ["s2-r1-1", "s1-r1-1"]
    assert changes_for("torven", changes, visibilities=ALL)[0].id == "s3-r1-1"
