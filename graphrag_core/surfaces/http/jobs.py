"""Long work (ingest, build, eval) as jobs: one worker thread runs them in order; their progress,
result or problem can be polled (``GET /jobs/{id}``) or streamed as server-sent events
(``GET /jobs/{id}/events``). Jobs live in memory; the newest :data:`KEEP` are kept."""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from graphrag_core.errors import LoregraphError
from graphrag_core.ports import ProgressListener
from graphrag_core.surfaces.http.auth import Caller, CallerDep
from graphrag_core.surfaces.http.problems import ApiError, Problem, problem_of, scoped_problem

logger = logging.getLogger(__name__)

KEEP = 200
STREAM_LIMIT_S = 3600.0


class TaskProgress(BaseModel):
    model_config = ConfigDict(extra="forbid")

    done: int = 0
    total: int | None = None
    finished: bool = False


class Job(BaseModel):
    """A job's state; ``result`` is the finished work's report, ``problem`` its failure."""

    model_config = ConfigDict(extra="forbid")

    id: str
    kind: str = Field(description="ingest, build or eval")
    campaign: str
    status: Literal["queued", "running", "done", "failed"] = "queued"
    tasks: dict[str, TaskProgress] = Field(default_factory=dict)
    result: dict[str, Any] | None = None
    problem: Problem | None = None
    created_at: str
    finished_at: str | None = None

    @property
    def over(self) -> bool:
        return self.status in ("done", "failed")


class _Progress(ProgressListener):
    def __init__(self, job: Job, lock: threading.Lock) -> None:
        self._job, self._lock = job, lock

    def start(self, task: str, total: int | None) -> None:
        with self._lock:
            self._job.tasks[task] = TaskProgress(total=total)

    def advance(self, task: str, n: int = 1) -> None:
        with self._lock:
            self._job.tasks.setdefault(task, TaskProgress()).done += n

    def finish(self, task: str) -> None:
        with self._lock:
            self._job.tasks.setdefault(task, TaskProgress()).finished = True


Work = Callable[[ProgressListener], BaseModel | None]


class Jobs:
    """The job queue of one server."""

    def __init__(self) -> None:
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="loregraph-job")

    def submit(self, kind: str, campaign: str, work: Work, *, scoped: bool = False) -> Job:
        """Queue ``work``; ``scoped``: its caller holds a key (failures name no other
        campaign)."""
        job = Job(id=uuid.uuid4().hex, kind=kind, campaign=campaign, created_at=_now())
        with self._lock:
            self._jobs[job.id] = job
            while len(self._jobs) > KEEP:
                self._jobs.popitem(last=False)
        self._pool.submit(self._run, job, work, scoped)
        return self.get(job.id, campaign)

    def _run(self, job: Job, work: Work, scoped: bool) -> None:
        with self._lock:
            job.status = "running"
        try:
            report = work(_Progress(job, self._lock))
        except LoregraphError as exc:
            self._end(job, "failed", problem=scoped_problem(exc, scoped))
        except Exception as exc:  # a bug: logged, and reported on the job, never lost
            logger.exception("job %s (%s) failed", job.id, job.kind)
            self._end(job, "failed", problem=problem_of(LoregraphError(f"unexpected {exc!r}")))
        else:
            result = report.model_dump(mode="json") if report is not None else None
            self._end(job, "done", result=result)

    def _end(self, job: Job, status: Literal["done", "failed"], **update: Any) -> None:
        with self._lock:
            job.status = status
            job.finished_at = _now()
            for key, value in update.items():
                setattr(job, key, value)

    def get(self, job_id: str, campaign: str | None) -> Job:
        """A copy of the job; 404 when there is none (or it belongs to another campaign)."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or (campaign is not None and job.campaign != campaign):
                raise ApiError(404, "unknown-job", f"no job {job_id!r}")
            return job.model_copy(deep=True)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def jobs_of(request: Request) -> Jobs:
    jobs: Jobs = request.app.state.jobs
    return jobs


JobsDep = Annotated[Jobs, Depends(jobs_of)]


def _gm_only(who: Caller) -> None:
    """Jobs are the GM's: their reports name every source file, GM-only ones too."""
    if who.role != "gm":
        raise ApiError(403, "forbidden", f"a {who.role} key may not do this (needs a gm key)")


router = APIRouter(tags=["jobs"])


@router.get("/jobs/{job_id}", response_model=Job, summary="A job's progress and result")
def get_job(job_id: str, who: CallerDep, jobs: JobsDep) -> Job:
    _gm_only(who)
    return jobs.get(job_id, who.campaign)


@router.get(
    "/jobs/{job_id}/events",
    summary="A job's progress as server-sent events (event: progress ..., then event: end)",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def job_events(job_id: str, who: CallerDep, jobs: JobsDep) -> StreamingResponse:
    _gm_only(who)
    jobs.get(job_id, who.campaign)  # 404 before the stream starts
    return StreamingResponse(_events(jobs, job_id, who.campaign), media_type="text/event-stream")


async def _events(jobs: Jobs, job_id: str, campaign: str | None) -> AsyncIterator[str]:
    last = ""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STREAM_LIMIT_S
    while loop.time() < deadline:
        job = jobs.get(job_id, campaign)
        data = job.model_dump_json()
        if data != last:
            last = data
            yield f"event: {'end' if job.over else 'progress'}\ndata: {data}\n\n"
        if job.over:
            return
        await asyncio.sleep(0.1)
