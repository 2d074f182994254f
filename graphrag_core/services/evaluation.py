"""The ``loregraph eval`` use case: run labelled questions through the ranker and, on the
same questions and the same view, through a semantic-only and a BM25-only baseline; score all
three with :mod:`ranking.evaluation`.

Each question is asked once untimed before the timed runs, so every latency is a warm one
(views, indexes and the embedding model loaded), as the ``ask`` of a running service is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import yaml
from pydantic import ValidationError

from extraction.resolution import EntityResolver
from graphrag_core.errors import SourceError
from graphrag_core.ports import NullProgress, ProgressListener
from graphrag_core.statuses import posted_status
from ranking.baselines import chunk_offers, lexical_chunks, ranker_offers, semantic_chunks
from ranking.eval_models import EvalQuestion, EvalReport, Offer, QuestionSet
from ranking.evaluation import Run, outcome, ratios, system_report

if TYPE_CHECKING:
    from graphrag_core.services.service import LoregraphService

RANKER, SEMANTIC, LEXICAL = "ranker", "semantic-only", "bm25-only"


def parse_questions(text: str, name: str) -> QuestionSet:
    """A question file's text (YAML, of which JSON is a subset) as a question set; a clear
    one-line error naming ``name`` when it cannot be used."""
    try:
        return QuestionSet.model_validate(yaml.safe_load(text))
    except yaml.YAMLError as exc:
        raise SourceError(name, f"not valid YAML/JSON ({exc})".replace("\n", " ")) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SourceError(name, f"{where}: {first['msg']} (see docs/benchmarks.md)") from None


def resolve_labels(
    service: LoregraphService, questions: QuestionSet, campaign: str
) -> tuple[QuestionSet, tuple[str, ...]]:
    """The question set with every label (gold, forbidden, ``expect_status`` key) as the id of
    the entity it names in the campaign — by id, name, alias or a near name, as ``loregraph
    entity`` and changelog posting resolve them — so a file labelled by names ("The Lantern
    Hospice") scores like one labelled by ids, and every expected status as a change set's
    would be read for that entity's type; the labels that name nothing, in order."""
    view = service.view(campaign, as_player=False, as_of_session=None).view
    resolver = EntityResolver(list(view.entities.values()))
    unresolved: dict[str, None] = {}

    def one(label: str) -> str:
        found = resolver.resolve(label) or resolver.resolve_near(label)
        if found is None:
            unresolved[label] = None
        return found or label

    def status_of(entity_id: str, status: str) -> str:
        """The expected status as ``changelog post`` reads it for the entity's type (a
        Creature "destroyed" is ``dead``); as written when it means nothing there."""
        entity = view.entities.get(entity_id)
        read = posted_status(status, entity.type) if entity is not None else None
        return read or status

    resolved = tuple(
        q.model_copy(
            update={
                "gold": tuple(dict.fromkeys(one(g) for g in q.gold)),
                "forbidden": tuple(dict.fromkeys(one(f) for f in q.forbidden)),
                "expect_status": {
                    (e := one(k)): status_of(e, v) for k, v in q.expect_status.items()
                },
            }
        )
        for q in questions.questions
    )
    return questions.model_copy(update={"questions": resolved}), tuple(unresolved)


def _timed(system: Callable[[], tuple[Offer, ...]]) -> Run:
    started = time.perf_counter()
    offers = system()
    return Run(offers, time.perf_counter() - started)


def _systems(
    service: LoregraphService, q: EvalQuestion, campaign: str
) -> dict[str, Callable[[], tuple[Offer, ...]]]:
    indexed = service.view(campaign, as_player=q.as_player, as_of_session=q.as_of)
    view = indexed.view

    def ranker() -> tuple[Offer, ...]:
        result = service.ask(
            q.question, campaign, as_player=q.as_player, as_of_session=q.as_of, k=10
        )
        return ranker_offers(result, view)

    def semantic() -> tuple[Offer, ...]:
        return chunk_offers(
            view, semantic_chunks(q.question, view, service.embedder, service.store)
        )

    def lexical() -> tuple[Offer, ...]:
        return chunk_offers(view, lexical_chunks(q.question, view, indexed.lexical))

    return {RANKER: ranker, SEMANTIC: semantic, LEXICAL: lexical}


def evaluate(
    service: LoregraphService,
    questions: QuestionSet,
    campaign: str,
    progress: ProgressListener | None = None,
) -> EvalReport:
    """The report of the three systems; ``progress`` counts the questions done."""
    progress = progress or NullProgress()
    questions, unresolved = resolve_labels(service, questions, campaign)
    runs: dict[str, list[tuple[EvalQuestion, Run]]] = {RANKER: [], SEMANTIC: [], LEXICAL: []}
    progress.start("questions", len(questions.questions))
    for q in questions.questions:
        for name, system in _systems(service, q, campaign).items():
            system()  # warm: views, indexes, model
            runs[name].append((q, _timed(system)))
        progress.advance("questions")
    progress.finish("questions")
    reports = {name: system_report(name, pairs) for name, pairs in runs.items()}
    return EvalReport(
        campaign=campaign,
        systems=tuple(reports.values()),
        ratios={name: ratios(reports[RANKER], reports[name]) for name in (SEMANTIC, LEXICAL)},
        outcomes=tuple(outcome(n, q, r) for n, pairs in runs.items() for q, r in pairs),
        unresolved=unresolved,
    )
