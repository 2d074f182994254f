"""The committed OpenAPI document is the app's (fast check; the integration test compares it
with a live app on a real store too)."""

from __future__ import annotations

from graphrag_core.surfaces.http.app import build_api
from graphrag_core.surfaces.http.openapi import DOCUMENT, render


def test_docs_openapi_json_is_current() -> None:
    assert DOCUMENT.read_text(encoding="utf-8") == render(build_api().openapi()), (
        "docs/openapi.json is stale: run `make openapi`"
    )


def test_every_error_status_is_documented_as_a_problem() -> None:
    schema = build_api().openapi()
    ask = schema["paths"]["/campaigns/{campaign}/ask"]["get"]["responses"]
    for status in ("401", "403", "404", "422"):
        assert "application/problem+json" in ask[status]["content"], status
