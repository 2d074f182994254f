"""Ingest time with entity profiles: each example world into a fresh store, then a re-ingest of
one changed recap, in process, with the real embedding model warm and no analytics build.

Run it with the code before and after a change (alternate the runs on a shared machine) and
compare; ``--profile-sentences 0`` turns profiles off in the same code. Also prints the cost of
the profile stage alone (``with_profiles`` over the extraction, best of 5).

    PYTHONPATH=. python benchmarks/bench_profile_ingest.py [--runs 2] [--profile-sentences N]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from extraction.offline import extract
from graphrag_core.config import IngestSettings
from graphrag_core.providers.sentence_transformers import SentenceTransformerEmbedder
from graphrag_core.services.ingest import StoredState, read_sources, with_profiles
from graphrag_core.settings import Settings
from graphrag_core.wiring import open_service

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = ("emberfall", "saltreach", "duneveil", "vardholm")
RECAP_TAIL = "\n\nThe party rested a day and mended their gear.\n"


def ingest_times(
    campaign: str, embedder: SentenceTransformerEmbedder, ingest: IngestSettings
) -> tuple[float, float, int]:
    """Seconds to ingest the world into a fresh store, seconds to ingest it again after one
    recap changed, and the texts the first ingest embedded."""
    work = Path(tempfile.mkdtemp(prefix="bench-profiles-"))
    try:
        world = work / "world"
        shutil.copytree(ROOT / "examples" / campaign / "world", world)
        with open_service(
            Settings(data_dir=work / "data", ingest=ingest), embedder=embedder
        ) as svc:
            start = time.perf_counter()
            report = svc.ingest(world, campaign)
            first = time.perf_counter() - start
            recap = sorted((world / "sessions").glob("*.md"))[0]
            recap.write_text(recap.read_text(encoding="utf-8") + RECAP_TAIL, encoding="utf-8")
            start = time.perf_counter()
            svc.ingest(world, campaign)
            again = time.perf_counter() - start
        return first, again, report.embedded
    finally:
        shutil.rmtree(work)


def profile_stage_ms(campaign: str, ingest: IngestSettings) -> float:
    scan = read_sources(ROOT / "examples" / campaign / "world")
    extraction = extract(scan.documents, chunk_size=ingest.chunk_size)
    empty = StoredState({}, {}, {}, {})
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        with_profiles(extraction, empty, scan, frozenset(), ingest)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--profile-sentences", type=int, default=None)
    args = parser.parse_args()
    ingest = IngestSettings()
    if args.profile_sentences is not None:
        ingest = ingest.model_copy(update={"profile_sentences": args.profile_sentences})
    embedder = SentenceTransformerEmbedder()
    embedder.embed(["warm up"])
    for campaign in CAMPAIGNS:
        runs = [ingest_times(campaign, embedder, ingest) for _ in range(args.runs)]
        print(
            f"{campaign}: ingest {min(r[0] for r in runs):.2f} s (embedded {runs[0][2]}), "
            f"re-ingest of a changed recap {min(r[1] for r in runs):.2f} s, "
            f"profile stage {profile_stage_ms(campaign, ingest):.0f} ms"
        )


if __name__ == "__main__":
    main()
