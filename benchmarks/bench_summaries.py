"""Summary cost per community: the extractive build on the SRD and the example campaign, and
the prompt a model would get per community (o200k tokens, counted offline; no model is run).

Run: ``python benchmarks/bench_summaries.py --srd $SRD`` (see bench_analytics.py for $SRD).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe_openai import get_encoding  # noqa: E402

from graphrag_core.analytics.build import build_snapshot  # noqa: E402
from graphrag_core.analytics.llm_summaries import SYSTEM, facts_prompt  # noqa: E402
from graphrag_core.analytics.runners import InProcessRunner  # noqa: E402
from graphrag_core.models import Entity, Relation  # noqa: E402
from graphrag_core.settings import AnalyticsSettings  # noqa: E402
from graphrag_core.views import build_view  # noqa: E402


def measure(name: str, entities: list[Entity], relations: list[Relation]) -> None:
    settings = AnalyticsSettings()
    gm = build_view(name, entities, relations, [], [], as_player=False)
    party = build_view(name, entities, relations, [], [], as_player=True)
    t0 = time.perf_counter()
    outcome = build_snapshot(
        gm, party, None, settings, runner=InProcessRunner(settings), built_at=""
    )
    seconds = time.perf_counter() - t0
    enc = get_encoding("o200k_base")
    gm_summaries = [s for s in outcome.snapshot.summaries if s.visibility == "gm"]
    prompts = [len(enc.encode(SYSTEM + facts_prompt(s))) for s in gm_summaries]
    communities = len(outcome.snapshot.communities)
    print(
        f"{name}: {communities} communities, {len(outcome.snapshot.summaries)} summaries, "
        f"build {seconds:.2f} s ({1000 * seconds / max(communities, 1):.2f} ms/community, "
        f"extractive); model prompt per community: mean "
        f"{sum(prompts) / max(len(prompts), 1):.0f} tokens, max {max(prompts, default=0)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--srd")
    args = parser.parse_args()
    from graphrag_core.ingesting import read_sources, run_extraction
    from graphrag_core.settings import IngestSettings

    ext = run_extraction(read_sources(ROOT / "examples/emberfall/world"), IngestSettings())
    measure("example", list(ext.entities), list(ext.relations))
    if args.srd:
        from benchmarks.srd_graph import load_srd

        measure("srd", *load_srd(Path(args.srd)))


if __name__ == "__main__":
    main()
