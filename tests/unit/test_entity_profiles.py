"""Entity profiles: the sentences of party-visible prose that name an entity, best first."""

from __future__ import annotations

from extraction.gazetteer import Gazetteer
from extraction.markdown import unwrapped
from extraction.profiles import (
    ProfileLimits,
    clip_words,
    entity_profiles,
    needs_profile,
    sentence_score,
)
from graphrag_core.models import Chunk, Entity, Visibility

GUNNHILD = Entity(
    id="gunnhild", name="Gunnhild Adzehand", type="NPC", aliases=("Gunnhild", "the shipwright")
)
ORM = Entity(id="orm", name="Orm Gallowsson", type="NPC", gm_aliases=("the Gallows Hand",))
MASK = Entity(id="mask", name="The Pale Mask", type="NPC", visibility="gm")
YARD = Entity(
    id="yard", name="Skarn Shipyard", type="Location", description="A long description " * 8
)
ENTITIES = [GUNNHILD, ORM, MASK, YARD]


def _chunk(
    text: str,
    *,
    n: int = 0,
    path: str = "lore/town.md",
    visibility: Visibility = "party",
    session: int | None = None,
) -> Chunk:
    found = Gazetteer(ENTITIES).find_mentions(text)
    mentions = {m.entity_id for m in found if not m.gm_alias and m.entity_id != "mask"}
    return Chunk(
        id=f"{path}#{n}",
        source_path=path,
        start=n * 1000,
        end=n * 1000 + len(text),
        text=text,
        content_hash="h",
        visibility=visibility,
        mentions=tuple(sorted(mentions)),
        session=session,
    )


def _profile(*chunks: Chunk, limits: ProfileLimits | None = None) -> list[str]:
    paths = {c.source_path for c in chunks} - {"world/names.yaml"}
    profiles = entity_profiles(ENTITIES, chunks, limits or ProfileLimits(), prose_paths=paths)
    return [s.text for s in profiles["gunnhild"]]


def test_a_definition_comes_before_a_passing_mention_and_before_session_records() -> None:
    recap = _chunk(
        "The party met Gunnhild at dawn. Gunnhild hauled the hull up the slipway.",
        path="sessions/session-01.md",
        session=1,
    )
    lore = _chunk(
        "The yard is busy. Gunnhild Adzehand, the best shipwright on the coast, builds the "
        "longships.",
        n=1,
    )
    assert _profile(recap, lore) == [
        "Gunnhild Adzehand, the best shipwright on the coast, builds the longships.",
        "Gunnhild hauled the hull up the slipway.",
        "The party met Gunnhild at dawn.",
    ]


def test_an_alias_names_the_entity_and_an_appositive_elsewhere_ranks_high() -> None:
    chunk = _chunk(
        "Ships rot in the harbour. Ask the shipwright about the hull. "
        "Our host was Gunnhild Adzehand, who re-ribs hulls for a fair price."
    )
    assert _profile(chunk) == [
        "Our host was Gunnhild Adzehand, who re-ribs hulls for a fair price.",
        "Ask the shipwright about the hull.",
    ]


def test_the_cap_on_sentences_and_characters_holds() -> None:
    text = " ".join(f"Gunnhild mends hull number {i} with care today." for i in range(6))
    assert len(_profile(_chunk(text), limits=ProfileLimits(max_sentences=2))) == 2
    short = _profile(_chunk(text), limits=ProfileLimits(max_chars=100))
    assert len(" ".join(short)) <= 100 and len(short) == 2
    one = _profile(_chunk(text), limits=ProfileLimits(max_chars=30))
    assert one == [clip_words("Gunnhild mends hull number 0 with care today.", 30)]
    assert len(one[0]) <= 30 and one[0].endswith("…")
    assert _profile(_chunk(text), limits=ProfileLimits(max_sentences=0)) == []


def test_secrets_never_reach_a_profile() -> None:
    gm_section = _chunk("Gunnhild Adzehand is the Pale Mask's sister.", n=1, visibility="gm")
    names_secret_alias = _chunk("Gunnhild once sailed with the Gallows Hand to the north.", n=2)
    names_gm_entity = _chunk("Gunnhild owes the Pale Mask a great debt of silver.", n=3)
    plain = _chunk("Gunnhild keeps a forge behind the slipway.", n=4)
    assert _profile(gm_section, names_secret_alias, names_gm_entity, plain) == [
        "Gunnhild keeps a forge behind the slipway."
    ]


def test_a_gm_only_entity_and_a_described_entity_get_no_profile() -> None:
    chunk = _chunk("The Pale Mask watches Skarn Shipyard from the cliffs at night.")
    profiles = entity_profiles(ENTITIES, [chunk], ProfileLimits(), prose_paths={"lore/town.md"})
    assert "mask" not in profiles and "yard" not in profiles
    assert not needs_profile(MASK, ProfileLimits()) and needs_profile(ORM, ProfileLimits())


def test_world_pack_text_and_headings_are_not_prose() -> None:
    pack = _chunk("- {id: gunnhild, name: Gunnhild Adzehand, type: NPC}", path="world/names.yaml")
    heading = _chunk("## Gunnhild Adzehand and her yard\nGunnhild sings while she works.", n=1)
    assert _profile(pack, heading) == ["Gunnhild sings while she works."]


def test_sentence_score_reads_opening_appositive_and_verb() -> None:
    def score(text: str) -> float:
        mention = next(
            m for m in Gazetteer(ENTITIES).find_mentions(text) if m.entity_id == "gunnhild"
        )
        return sentence_score(text, 0, len(text), mention)

    assert score("Gunnhild Adzehand, the shipwright, builds boats.") == 4.0
    assert score("Gunnhild builds boats.") == 4.0
    assert score("They hired Gunnhild Adzehand, a shipwright.") == 3.0
    assert score("Gunnhild Adzehand; a name to remember.") == 2.0
    assert score("They hired Gunnhild for the job.") == 1.0


def test_a_sentence_wrapped_over_lines_is_one_sentence() -> None:
    text = "## Yard\nGunnhild Adzehand, the best shipwright\non the coast, builds boats.\n- a list"
    assert unwrapped(text) == (
        "## Yard\nGunnhild Adzehand, the best shipwright on the coast, builds boats.\n- a list"
    )
    assert _profile(_chunk(text)) == [
        "Gunnhild Adzehand, the best shipwright on the coast, builds boats."
    ]
