"""What entity profiles change in answers, pinned on the prose-first Saltreach example (a name
list without descriptions; real embedded FalkorDB, real embedding model, ingested, built and
its five change sets posted as ``loregraph eval`` is run in docs/benchmarks.md).

Before profiles, Mother Orla's vector was made from "Mother Orla (NPC). Also known as: Orla."
alone, and a preview or ranked result offering her had an empty gist. Her profile opens
"Mother Orla tends the shrine and heals the sick for free.": her vector is closer to a
healing question than the name alone, and what an agent reads of her says who she is. (On the
ranker of round 3 the profile also brought her into the top 5 of "Who can heal our wounded?";
round 4's healing words do that without it.)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphrag_core.ports import Embedder
from graphrag_core.services.evaluation import parse_questions
from graphrag_core.services.service import LoregraphService
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SALTREACH = Path(__file__).resolve().parents[2] / "examples" / "saltreach"
QUESTIONS = """\
campaign: saltreach
questions:
  - {question: "Who can heal our wounded?", type: current_state,
     gold: [mother-orla, tidemother-shrine, tidewardens]}
"""


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: Embedder
) -> Iterator[LoregraphService]:
    data_dir = tmp_path_factory.mktemp("data")
    with open_service(Settings(data_dir=data_dir), embedder=real_embedder) as svc:
        report = svc.ingest(SALTREACH / "world", "saltreach")
        assert report.wrote and not report.failures
        svc.build("saltreach")
        for changeset in sorted((SALTREACH / "changelog").glob("*.yaml")):
            svc.post_changelog(changeset, "saltreach")
        yield svc


def test_the_healer_a_name_list_only_names_is_found_and_described(
    service: LoregraphService,
) -> None:
    question = "Who can heal our wounded?"
    report = service.evaluate(parse_questions(QUESTIONS, "profiles.yaml"))
    ranker = next(o for o in report.outcomes if o.system == "ranker")
    assert "mother-orla" in ranker.offered[:5], ranker.offered
    orla = service.entity("Mother Orla", "saltreach", as_player=True)
    assert orla.description == "" and orla.profile
    # her vector holds her profile: closer to the question than her name alone
    vector = service.store.load_vectors("saltreach", "entity")["mother-orla"]
    name_only, asked = service.embedder.embed(["Mother Orla (NPC). Also known as: Orla.", question])
    assert _cosine(vector, asked) > _cosine(name_only, asked) + 0.1
    # what an agent reads of her says who she is, from her profile
    preview = service.preview(question, "saltreach", as_player=True)
    item = next(i for i in preview.items if i.handle == "e:mother-orla")
    assert "heals the sick" in item.gist
    found = next(r for r in service.ask(question, "saltreach", as_player=True).results
                 if r.id == "mother-orla")  # fmt: skip
    assert "heals the sick" in found.text


def _cosine(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))
