"""Re-rank a question set under several weight settings, ranker only: nP@5, MRR@10,
hallucination rate and as-of accuracy per setting (how the presets were tuned on Emberfall).

Run where `loregraph where` shows the store holding the campaign (e.g. after ``loregraph demo``)::

    python benchmarks/tune_weights.py benchmarks/questions/emberfall.yaml \\
        '[{}, {"w": {"type": 0.2}}, {"r": {"relevance_floor": 0.0}}]'

Each setting: ``w`` overrides the weights of every preset, ``r`` other ranking settings.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graphrag_core.config import RankingSettings, WeightOverrides  # noqa: E402
from graphrag_core.services.evaluation import parse_questions  # noqa: E402
from graphrag_core.settings import load_settings  # noqa: E402
from graphrag_core.wiring import open_service  # noqa: E402
from ranking.baselines import ranker_offers  # noqa: E402
from ranking.evaluation import Run, figures  # noqa: E402
from ranking.ranker import Ranker  # noqa: E402


def main() -> None:
    path, grid = Path(sys.argv[1]), json.loads(sys.argv[2])
    questions = parse_questions(path.read_text(encoding="utf-8"), str(path))
    campaign = questions.campaign or "default"
    with open_service(load_settings()) as service:
        for setting in grid:
            weights = WeightOverrides(**setting.get("w", {}))
            ranking = RankingSettings(
                current_state=weights, historical=weights, lore=weights, **setting.get("r", {})
            )
            ranker = Ranker(service.embedder, service.store, ranking)
            pairs = []
            for q in questions.questions:
                indexed = service.view(campaign, as_player=q.as_player, as_of_session=q.as_of)
                historical = None if q.as_of is None else True
                result = ranker.rank(
                    q.question, indexed.view, indexed.lexical, historical=historical,
                    inputs=indexed.inputs,
                )  # fmt: skip
                pairs.append((q, Run(ranker_offers(result, indexed.view), 0.0)))
            f = figures(pairs)
            print(setting, f"nP@5 {f.np_at_5:.3f}", f"MRR@10 {f.mrr_at_10:.3f}",
                  f"halluc. {f.hallucination_rate}", f"as-of {f.as_of_accuracy}")  # fmt: skip


if __name__ == "__main__":
    main()
