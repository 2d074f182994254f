"""Entity profiles on real files, the real embedded FalkorDB and the real embedding model.

A name list declares Gunnhild with no description; the prose says who she is. Her profile comes
from party-visible prose only: a GM section, a sentence with a secret alias and one naming a
GM-only entity never reach it, in any player-facing output, nor her vector. A changed recap
updates her profile and her vector, and leaves the vectors of entities it does not name alone.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from graphrag_core.ports import Embedder
from graphrag_core.services.ingest import entity_embedding_text
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service

pytestmark = [pytest.mark.integration, pytest.mark.slow]

NAMES = """\
entities:
  - {id: gunnhild, name: Gunnhild Adzehand, type: NPC, aliases: [Gunnhild, the shipwright],
     gm_aliases: [the Amber Widow], status: alive}
  - {id: pale-mask, name: The Pale Mask, type: NPC, visibility: gm}
  - {id: skarn-yard, name: Skarn Shipyard, type: Location}
  - {id: kolbein, name: Harbourmaster Kolbein, type: NPC, aliases: [Kolbein]}
  - {id: tarred-gull, name: The Tarred Gull, type: Location}
  - {id: adze-woman, name: The Adze Woman, type: NPC}
"""

TOWN = """\
# Vardholm

## Skarn Shipyard

South of the piers lie the slipways of Skarn Shipyard. Gunnhild Adzehand, the best shipwright
on the coast, builds the longships there and will caulk any hull for a fair price.

The Adze Woman sings sea shanties while she caulks the hulls.

Folk whisper that the Amber Widow walks the quay at night with a lantern of bone.

Gunnhild once sold a whole hull of walrus ivory to the Pale Mask for a chest of silver.

## The Tarred Gull

The Tarred Gull pours sour ale and lets bunks to sailors for a copper.

## GM Notes

Gunnhild Adzehand smuggles cursed amber for the harbour ghosts every winter solstice.
"""

SESSION_1 = """\
# Session 1

Harbourmaster Kolbein met the party at the quay and waved away the mooring fee. Gunnhild
hauled the cracked hull onto her slipway and promised a sound boat.
"""

SESSION_2 = "# Session 2\n\nGunnhild Adzehand launched the mended whaler at dawn.\n"
SESSION_2_CHANGED = (
    "# Session 2\n\nGunnhild Adzehand launched the mended whaler at dawn.\n\n"
    "Gunnhild Adzehand, who now teaches the party to splice rope, joined them on the pier.\n"
)
GM_SECTION = ("cursed amber", "solstice", "harbour ghosts")
SECRETS = (*GM_SECTION, "Amber Widow", "lantern of bone", "Pale Mask", "ivory")
"""Never in a profile: the GM section, the sentence with a secret alias and the one naming a
GM-only entity (the last two are party text a player may read as a passage, never as what the
profile says Gunnhild is)."""


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder
) -> Iterator[LoregraphService]:
    with open_service(
        Settings(data_dir=tmp_path_factory.mktemp("data")), embedder=real_embedder
    ) as svc:
        yield svc


@pytest.fixture(scope="module")
def world(service: LoregraphService, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("holm") / "world"
    (root / "lore").mkdir(parents=True)
    (root / "sessions").mkdir()
    (root / "names.yaml").write_text(NAMES)
    (root / "lore" / "town.md").write_text(TOWN)
    (root / "sessions" / "session-01.md").write_text(SESSION_1)
    (root / "sessions" / "session-02.md").write_text(SESSION_2)
    report = service.ingest(root, "holm")
    assert report.wrote and not report.failures
    return root


def _texts(
    service: LoregraphService, *, as_player: bool, as_of_session: int | None = None
) -> list[str]:
    view = service.entity("Gunnhild", "holm", as_player=as_player, as_of_session=as_of_session)
    return [s.text for s in view.profile]


def test_the_profile_says_who_a_name_list_entity_is_from_the_prose_best_first(
    service: LoregraphService, world: Path
) -> None:
    texts = _texts(service, as_player=True)
    assert texts[0].startswith("Gunnhild Adzehand, the best shipwright on the coast")
    assert any("hauled the cracked hull" in t for t in texts)
    view = service.entity("Gunnhild", "holm", as_player=True)
    assert view.description == ""  # the authored description stays as written: empty
    assert all(s.source_path in view.sources for s in view.profile)
    # an as-of view holds no later session's record, so neither does the profile it shows
    assert not any("launched" in t for t in _texts(service, as_player=True, as_of_session=1))
    assert any("launched" in t for t in _texts(service, as_player=True))


def test_no_secret_reaches_a_profile_a_player_output_or_the_vector(
    service: LoregraphService, world: Path
) -> None:
    for as_player in (True, False):  # profiles are party-only: the GM's is the same
        assert not any(s in t for t in _texts(service, as_player=as_player) for s in SECRETS)
    questions = ("Who can repair our ship?", "Who is Gunnhild?", "Who smuggles amber?")
    outputs: list[BaseModel] = [service.entity("Gunnhild", "holm", as_player=True)]
    for question in questions:
        outputs.append(service.ask(question, "holm", as_player=True))
        preview = service.preview(question, "holm", as_player=True)
        outputs.append(preview)
        handles = [item.handle for item in preview.items]
        outputs.append(service.expand(handles, "holm", budget=4000, as_player=True))
        outputs.append(service.context(question, "holm", budget=4000, as_player=True))
    dumped = json.dumps([o.model_dump(mode="json") for o in outputs])
    assert "Adzehand, the best shipwright" in dumped  # the profile did reach the outputs
    leaked = [s for s in GM_SECTION if s.casefold() in dumped.casefold()]
    assert not leaked, f"GM-only text reached a player: {leaked}"
    # the vector a player's search compares with is made from that same party-only text
    stored = {e.id: e for e in service.store.load_entities("holm")}
    text = entity_embedding_text(stored["gunnhild"])
    assert "best shipwright" in text and not any(s in text for s in SECRETS)
    vector = service.store.load_vectors("holm", "entity")["gunnhild"]
    assert _cosine(vector, service.embedder.embed([text])[0]) > 0.999
    assert stored["pale-mask"].profile == ()


def test_a_changed_recap_updates_the_profiles_and_vectors_it_names_and_only_those(
    service: LoregraphService, world: Path
) -> None:
    before = service.store.load_vectors("holm", "entity")
    (world / "sessions" / "session-02.md").write_text(SESSION_2_CHANGED)
    report = service.ingest(world, "holm")
    assert report.changed == ("sessions/session-02.md",)
    assert any("splice rope" in t for t in _texts(service, as_player=True))
    after = service.store.load_vectors("holm", "entity")
    assert _cosine(before["gunnhild"], after["gunnhild"]) < 0.9999
    for untouched in ("kolbein", "tarred-gull", "skarn-yard"):
        assert after[untouched] == before[untouched]
    # one changed chunk and one entity embedded again, nothing else
    assert report.embedded == 2
    # a single-file ingest of the recap, back as it was, reads the kept lore and names list
    (world / "sessions" / "session-02.md").write_text(SESSION_2)
    single = service.ingest(world / "sessions" / "session-02.md", "holm")
    assert single.changed == ("sessions/session-02.md",) and single.embedded == 2
    texts = _texts(service, as_player=True)
    assert not any("splice rope" in t for t in texts)
    assert texts[0].startswith("Gunnhild Adzehand, the best shipwright on the coast")


def _cosine(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def test_a_gm_decision_reads_the_profiles_again_and_a_merged_secret_stays_out(
    service: LoregraphService, world: Path
) -> None:
    """Merging the Adze Woman into Gunnhild brings the sentence about her into Gunnhild's
    profile (and vector) at once; merging the GM-only Pale Mask makes its names her secret
    aliases, and the sentence naming it stays out of her profile and of her vector's text."""
    assert not any("sea shanties" in t for t in _texts(service, as_player=True))
    service.decide("holm", "merge", "The Adze Woman", target="Gunnhild")
    assert any("sea shanties" in t for t in _texts(service, as_player=True))
    service.decide("holm", "merge", "The Pale Mask", target="Gunnhild")
    stored = {e.id: e for e in service.store.load_entities("holm")}
    assert "pale-mask" not in stored and "The Pale Mask" in stored["gunnhild"].gm_aliases
    for as_player in (True, False):
        texts = _texts(service, as_player=as_player)
        assert texts and not any(s in t for t in texts for s in SECRETS)
    text = entity_embedding_text(stored["gunnhild"])
    vector = service.store.load_vectors("holm", "entity")["gunnhild"]
    assert _cosine(vector, service.embedder.embed([text])[0]) > 0.999
