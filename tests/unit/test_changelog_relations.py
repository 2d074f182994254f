"""Relation changes: the schema's relation form, the effective relations of a view (started,
ended, from change details and relation-typed properties), cited by their change, found by the
ranker's relation cue, and never pointing a player at a GM-only entity."""

from __future__ import annotations

import hashlib
import json

import pytest

from changelog.normalise import content_hash, to_changes
from changelog.schema import ChangeSetInput, parse_changeset
from graphrag_core.config import RankingSettings
from graphrag_core.errors import ChangelogError
from graphrag_core.models import CampaignView, Change, Chunk, Relation
from graphrag_core.services.views import build_view
from ranking.context.handles import parse_handle
from ranking.context.items import expansion
from ranking.lexical import LexicalIndex
from ranking.ranker import Ranker
from tests.fakes import HashEmbedder
from tests.unit.ranking_fakes import CAMPAIGN, CHANGES, CHUNKS, ENTITIES, FakeVectorStore

TYPES = {e.id: e.type for e in ENTITIES}
BASE = (Relation(source="river-guild", target="silver-stag-inn", type="owns"),)


def changes(text: str, session: int = 6) -> list[Change]:
    cs = parse_changeset(f"session_id: {session}\n{text}", filename="s.yaml")
    return to_changes(
        cs,
        resolve=lambda t: t if t in TYPES else None,
        suggest=lambda t: [],
        entity_types=TYPES,
        source="s.yaml",
        revision=1,
    )


def view(extra: list[Change], *, as_player: bool = False, as_of: int | None = None) -> CampaignView:
    return build_view(
        CAMPAIGN, ENTITIES, BASE, CHUNKS, [*CHANGES, *extra], as_player=as_player,
        as_of_session=as_of,
    )  # fmt: skip


def keys(v: CampaignView) -> set[tuple[str, str, str]]:
    return {(r.source, r.type, r.target) for r in v.relations}


START = """relationship_updates:
  - {from: silver-stag-inn, to: iron-hand, type: owned_by, change: start}
  - {from: river-guild, to: silver-stag-inn, type: owns, change: end}
"""


def test_a_relation_starts_and_ends_at_its_session() -> None:
    made = changes(START)
    assert [(c.field, c.new_value, c.relation_type) for c in made] == [
        ("relation", "start", "owned_by"),
        ("relation", "end", "owns"),
    ]
    now, before = view(made), view(made, as_of=5)
    assert ("silver-stag-inn", "owned_by", "iron-hand") in keys(now)
    assert ("river-guild", "owns", "silver-stag-inn") not in keys(now)
    assert keys(before) == {("river-guild", "owns", "silver-stag-inn")}
    started = next(r for r in now.relations if r.type == "owned_by")
    assert started.change_id == "s6-r1-1"


def test_an_expansion_cites_the_change_that_started_a_relation() -> None:
    inn = expansion(parse_handle("e:silver-stag-inn"), view(changes(START)), {})
    fact = next(x for x in inn.lines if x.text == "Silver Stag Inn owned_by Iron Hand")
    assert fact.cites == ("ch:s6-r1-1",)
    assert any("owned_by Iron Hand started" in x.text for x in inn.lines if x.section == "change")


def test_a_kill_detail_is_a_relation_the_ranker_follows() -> None:
    killed = changes(
        "entity_updates:\n  - {entity_id: silver-stag-inn, properties: {owned_by: iron-hand}}\n"
        "  - {entity_id: river-guild, properties: {killed_by: iron-hand}}\n"
    )
    v = view(killed)
    assert ("river-guild", "killed_by", "iron-hand") in keys(v)
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, v).as_port(), RankingSettings())
    result = ranker.rank("Who killed the River Guild?", v, LexicalIndex.build(v), k=3)
    assert "iron-hand" in [r.id for r in result.results]


def test_a_status_change_detail_names_the_killer() -> None:
    made = [
        c.model_copy(update={"details": {"killed_by": ["iron-hand"], "note": "a knife"}})
        if c.id == "s5-r1-1"
        else c
        for c in CHANGES
    ]
    v = build_view(CAMPAIGN, ENTITIES, BASE, CHUNKS, made, as_player=False)
    assert ("torven-blackwater", "killed_by", "iron-hand") in keys(v)
    torven = expansion(parse_handle("e:torven-blackwater"), v, {})
    assert "killed_by: Iron Hand; note: a knife" in torven.header


def test_a_player_never_gets_a_relation_to_a_gm_only_entity() -> None:
    made = changes(
        "entity_updates:\n"
        "  - {entity_id: torven-blackwater, properties: {killed_by: shadow-cult}}\n"
        "relationship_updates:\n"
        "  - {from: silver-stag-inn, to: shadow-cult, type: owned_by, change: start}\n"
    )
    assert ("torven-blackwater", "killed_by", "shadow-cult") in keys(view(made))
    party = view(made, as_player=True)
    assert not any("shadow-cult" in key for key in keys(party))
    assert (
        "Cult of the Drowned"
        not in expansion(parse_handle("e:torven-blackwater"), party, {}).model_dump_json()
    )


def test_a_property_relation_replaces_the_previous_one() -> None:
    made = changes(
        "entity_updates:\n  - {entity_id: silver-stag-inn, properties: {owned_by: iron-hand}}\n"
    )
    later = changes(
        "entity_updates:\n  - {entity_id: silver-stag-inn, properties: {owned_by: river-guild}}\n",
        session=7,
    )
    owners = {r.target for r in view([*made, *later]).relations if r.type == "owned_by"}
    assert owners == {"river-guild"}


def test_a_holder_set_by_a_change_ends_the_owns_the_prose_stated_from_the_other_end() -> None:
    # BASE: the River Guild owns the Silver Stag Inn; the change says the Iron Hand holds it now
    made = changes(
        "entity_updates:\n  - {entity_id: silver-stag-inn, properties: {held_by: iron-hand}}\n"
    )
    now = keys(view(made))
    assert ("silver-stag-inn", "owned_by", "iron-hand") in now
    assert ("river-guild", "owns", "silver-stag-inn") not in now
    assert ("river-guild", "owns", "silver-stag-inn") in keys(view(made, as_of=5))  # before


@pytest.mark.parametrize(
    ("update", "message"),
    [
        ("{from: iron-hand, to: river-guild, change: start}", "needs the relation 'type'"),
        ("{from: iron-hand, to: river-guild}", "new_status: is required"),
        (
            "{from: iron-hand, to: river-guild, type: knows, change: end, new_status: hostile}",
            "post the attitude as an update of its own",
        ),
        ("{from: iron-hand, to: river-guild, type: knows, change: stop}", "'start' or 'end'"),
    ],
)
def test_the_relation_form_is_checked(update: str, message: str) -> None:
    with pytest.raises(ChangelogError, match=message):
        changes(f"relationship_updates:\n  - {update}\n")


def test_an_unknown_relation_type_lists_the_taxonomy() -> None:
    with pytest.raises(ChangelogError, match=r"'marries' is not a relation type; use one of"):
        changes("relationship_updates:\n  - {from: a, to: b, type: marries, change: start}\n")


def test_the_attitude_form_hashes_as_before() -> None:
    cs = ChangeSetInput.model_validate(
        {
            "session_id": 2,
            "relationship_updates": [{"from": "party", "to": "x", "new_status": "hostile"}],
        }
    )
    data = cs.model_dump(mode="json", by_alias=True)
    del data["relationship_updates"][0]["change"]
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert content_hash(cs) == hashlib.sha256(canonical.encode()).hexdigest()


def test_held_by_and_in_party_properties_are_relations() -> None:
    made = changes(
        "entity_updates:\n"
        "  - {entity_id: silver-stag-inn, properties: {held_by: iron-hand}}\n"
        "  - {entity_id: torven-blackwater, properties: {in_party: true}}\n"
    )
    left = changes(
        "entity_updates:\n  - {entity_id: torven-blackwater, properties: {in_party: false}}\n",
        session=7,
    )
    assert {
        ("silver-stag-inn", "owned_by", "iron-hand"),
        ("torven-blackwater", "member_of", "party"),
    } <= keys(view(made))
    assert ("torven-blackwater", "member_of", "party") not in keys(view([*made, *left]))


def test_as_of_leaves_out_the_session_records_of_later_sessions() -> None:
    recap = Chunk(
        id="recap-6", source_path="sessions/6.md", start=0, end=10, content_hash="r",
        text="The Iron Hand burned the Silver Stag Inn.", session=6,
    )  # fmt: skip
    lore = CHUNKS[0]
    chunks = (*CHUNKS, recap)
    as_of_5 = build_view(
        CAMPAIGN, ENTITIES, BASE, chunks, CHANGES, as_player=False, as_of_session=5
    )
    as_of_6 = build_view(
        CAMPAIGN, ENTITIES, BASE, chunks, CHANGES, as_player=False, as_of_session=6
    )
    now = build_view(CAMPAIGN, ENTITIES, BASE, chunks, CHANGES, as_player=False)
    assert "recap-6" not in as_of_5.chunks and lore.id in as_of_5.chunks
    assert "recap-6" in as_of_6.chunks and "recap-6" in now.chunks


LEFT = """relationship_updates:
  - {from: party, to: red-oak-tavern, type: located_in, change: end}
  - {from: party, to: silver-stag-inn, type: located_in, change: start}
  - {from: river-guild, to: shadow-cult, type: allied_with, change: end}
entity_updates:
  - {entity_id: torven-blackwater, properties: {in_party: false}}
"""


def test_what_a_later_change_ends_held_until_then_in_an_as_of_view() -> None:
    left = changes(LEFT, session=6)  # only the prose ever said the party lodged at the Red Oak
    assert ("party", "located_in", "red-oak-tavern") in keys(view(left, as_of=5))
    assert ("torven-blackwater", "member_of", "party") in keys(view(left, as_of=5))
    assert ("party", "located_in", "silver-stag-inn") not in keys(view(left, as_of=5))
    now = keys(view(left))
    assert ("party", "located_in", "red-oak-tavern") not in now
    assert ("party", "located_in", "silver-stag-inn") in now
    assert ("party", "located_in", "red-oak-tavern") not in keys(view(left, as_of=6))
    # a GM-only end never reaches players
    assert ("river-guild", "allied_with", "shadow-cult") in keys(view(left, as_of=5))
    assert not any("shadow-cult" in key for key in keys(view(left, as_of=5, as_player=True)))


def test_a_relation_the_view_itself_changed_is_not_backfilled() -> None:
    moved_in = changes(
        "relationship_updates:\n"
        "  - {from: party, to: red-oak-tavern, type: located_in, change: start}\n",
        session=2,
    )
    moved_out = changes(
        "relationship_updates:\n"
        "  - {from: party, to: red-oak-tavern, type: located_in, change: end}\n",
        session=6,
    )
    # before it started in session 2 it did not hold, though session 6 ends it
    assert ("party", "located_in", "red-oak-tavern") not in keys(
        view([*moved_in, *moved_out], as_of=1)
    )
    assert ("party", "located_in", "red-oak-tavern") in keys(view([*moved_in, *moved_out], as_of=3))


def test_where_the_party_lived_as_of_a_session_is_the_lodging_a_later_change_ended() -> None:
    left = changes(
        "relationship_updates:\n"
        "  - {from: party, to: silver-stag-inn, type: located_in, change: end}\n",
        session=6,
    )
    as_of_5 = view(left, as_of=5)
    embedder = HashEmbedder()
    ranker = Ranker(embedder, FakeVectorStore(embedder, as_of_5).as_port(), RankingSettings())
    found = ranker.rank(
        "Where were we staying back then?", as_of_5, LexicalIndex.build(as_of_5), k=5
    ).results
    assert found[0].id == "silver-stag-inn" and found[0].signals["relation"] == 1.0
