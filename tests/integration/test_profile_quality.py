"""What entity profiles change in answers, pinned on the prose-first Saltreach example (a name
list without descriptions; real embedded FalkorDB, real embedding model, ingested, built and
its five change sets posted as ``loregraph eval`` is run in docs/benchmarks.md).

Before profiles, Mother Orla's vector was made from "Mother Orla (NPC). Also known as: Orla."
alone and "Who can heal our wounded?" did not offer her in the top 5 (it offered the Gull's
Rest, Bram Holt, Port Varrow, Ilse Danner, Old Sefa); her profile opens "Mother Orla tends the
shrine and heals the sick for free.", and with it in her vector she is offered.
"""

from __future__ import annotations

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


def test_the_healer_a_name_list_only_names_is_offered_for_healing(
    service: LoregraphService,
) -> None:
    report = service.evaluate(parse_questions(QUESTIONS, "profiles.yaml"))
    ranker = next(o for o in report.outcomes if o.system == "ranker")
    assert "mother-orla" in ranker.offered[:5], ranker.offered
    orla = service.entity("Mother Orla", "saltreach", as_player=True)
    assert orla.description == "" and orla.profile
    # the ranked result's gist says who she is, from her profile
    result = service.ask("Who is Mother Orla?", "saltreach", as_player=True, k=3)
    found = next(r for r in result.results if r.id == "mother-orla")
    assert found.text and found.text in " ".join(s.text for s in orla.profile)
