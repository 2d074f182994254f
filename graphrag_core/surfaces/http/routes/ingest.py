"""``POST /campaigns/{campaign}/ingest``: upload source files (or zips of them) and ingest
them as a job (GM), followed by the analytics build it calls for."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Annotated

from fastapi import APIRouter, File, Query, UploadFile
from pydantic import BaseModel, ConfigDict

from graphrag_core.analytics_models import BuildReport
from graphrag_core.models import IngestReport, SourceUpload
from graphrag_core.ports import ProgressListener
from graphrag_core.services.service import LoregraphService
from graphrag_core.surfaces.http.auth import ScopeDep, ServiceDep
from graphrag_core.surfaces.http.jobs import Job, JobsDep
from graphrag_core.surfaces.http.problems import ApiError

router = APIRouter(tags=["ingest"])

MAX_BYTES = 64 * 1024 * 1024
MAX_FILES = 5000


class IngestDone(BaseModel):
    """An ingest job's result: the ingest report and the build that followed, if any."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ingest: IngestReport
    build: BuildReport | None


@router.post(
    "/campaigns/{campaign}/ingest",
    status_code=202,
    summary="Upload source files or zips and ingest them (GM): a job to poll or stream",
)
def ingest(
    where: ScopeDep,
    service: ServiceDep,
    jobs: JobsDep,
    files: Annotated[
        list[UploadFile],
        File(description="Source files (their names are their campaign paths) or .zip files."),
    ],
    build: Annotated[bool, Query(description="Rebuild the analytics afterwards.")] = True,
) -> Job:
    where.require("gm")
    uploads = list(_uploads(files))
    if not uploads:
        raise ApiError(400, "bad-request", "files: no source file in the upload")

    def work(progress: ProgressListener) -> IngestDone:
        return _ingest(service, uploads, where.campaign, progress, build)

    return jobs.submit("ingest", where.campaign, work, scoped=where.scoped)


def _ingest(
    service: LoregraphService,
    uploads: list[SourceUpload],
    campaign: str,
    progress: ProgressListener,
    build: bool,
) -> IngestDone:
    report = service.ingest_files(uploads, campaign, progress)
    done = service.build_after_ingest(report, progress) if build else None
    return IngestDone(ingest=report, build=done)


def _uploads(files: list[UploadFile]) -> Iterator[SourceUpload]:
    budget = MAX_BYTES
    count = 0
    for upload in files:
        data = upload.file.read(budget + 1)
        budget -= len(data)
        if budget < 0:
            raise ApiError(413, "too-large", f"files: the upload passes {MAX_BYTES} bytes")
        name = upload.filename or ""
        members = _unzip(name, data) if name.lower().endswith(".zip") else [(name, data)]
        for path, content in members:
            count += 1
            if count > MAX_FILES:
                raise ApiError(413, "too-large", f"files: more than {MAX_FILES} files")
            yield SourceUpload(path=_safe_path(path), data=content)


def _unzip(name: str, data: bytes) -> list[tuple[str, bytes]]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = [i for i in archive.infolist() if not i.is_dir()]
            if sum(i.file_size for i in infos) > MAX_BYTES:
                raise ApiError(413, "too-large", f"files: {name} unpacks past {MAX_BYTES} bytes")
            return [(i.filename, archive.read(i)) for i in infos]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError) as exc:
        raise ApiError(400, "bad-request", f"files: {name} is not a readable zip: {exc}") from None


def _safe_path(path: str) -> str:
    parts = PurePosixPath(path.replace("\\", "/")).parts
    if not path or path.startswith("/") or ".." in parts or not parts:
        raise ApiError(
            400, "bad-request", f"files: {path!r} is not a relative path inside the campaign"
        )
    return "/".join(parts)
