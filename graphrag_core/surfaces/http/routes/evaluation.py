"""``POST /campaigns/{campaign}/eval``: ``loregraph eval`` over a question file sent in the
body (GM), as a job whose progress counts the questions and whose result is the JSON report
the CLI writes. The body is the question file's structure as JSON, or its YAML/JSON text
(as a JSON string, or raw with a YAML or text content type)."""

from __future__ import annotations

from typing import Annotated, Any

import yaml
from fastapi import APIRouter, Body
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from graphrag_core.errors import UnknownCampaignError
from graphrag_core.surfaces.http.auth import ScopeDep, ServiceDep
from graphrag_core.surfaces.http.jobs import Job, JobsDep
from ranking.eval_models import QuestionSet

router = APIRouter(tags=["evaluation"])

MAX_QUESTIONS = 2000

_EXAMPLE = {
    "questions": [
        {
            "question": "Where can the party rest?",
            "type": "current_state",
            "gold": ["lantern-rest"],
            "forbidden": ["red-oak-tavern"],
        }
    ]
}


def _invalid(loc: tuple[str | int, ...], message: str, kind: str = "value_error") -> Exception:
    return RequestValidationError([{"loc": ("body", *loc), "msg": message, "type": kind}])


def question_set(body: Any, campaign: str) -> QuestionSet:
    """The body (parsed JSON, or the raw bytes of another content type) as a question set
    for ``campaign``; a 422 naming the field otherwise."""
    if isinstance(body, bytes):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError:
            raise _invalid((), "the question file is not UTF-8 text") from None
    data: Any = body
    if isinstance(body, str):
        try:
            data = yaml.safe_load(body)
        except yaml.YAMLError as exc:
            raise _invalid((), f"not valid YAML/JSON ({exc})".replace("\n", " ")) from None
    try:
        questions = QuestionSet.model_validate(data)
    except ValidationError as exc:
        errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        raise RequestValidationError(errors) from None
    if len(questions.questions) > MAX_QUESTIONS:
        raise _invalid(("questions",), f"at most {MAX_QUESTIONS} questions in one run")
    if questions.campaign not in (None, campaign):
        raise _invalid(
            ("campaign",),
            f"the question set is for campaign {questions.campaign!r}, not {campaign!r}",
        )
    return questions


@router.post(
    "/campaigns/{campaign}/eval",
    status_code=202,
    summary="Evaluate the ranker on labelled questions (GM): a job; its result is the report",
    openapi_extra={
        "requestBody": {
            "content": {
                "application/yaml": {"schema": {"type": "string"}},
                "text/plain": {"schema": {"type": "string"}},
            }
        }
    },
)
def evaluate(
    where: ScopeDep,
    service: ServiceDep,
    jobs: JobsDep,
    body: Annotated[
        Any,
        Body(
            description="The question file (as `loregraph eval` reads it): its structure as "
            "JSON, or its YAML/JSON text.",
            examples=[_EXAMPLE],
        ),
    ],
) -> Job:
    where.require("gm")
    questions = question_set(body, where.campaign)
    if where.campaign not in service.campaigns():
        raise UnknownCampaignError(where.campaign, service.campaigns())
    return jobs.submit(
        "eval",
        where.campaign,
        lambda progress: service.evaluate(questions, where.campaign, progress),
        scoped=where.scoped,
    )
