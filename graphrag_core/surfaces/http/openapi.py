"""The committed OpenAPI document, ``docs/openapi.json``: ``python -m
graphrag_core.surfaces.http.openapi`` rewrites it (``make openapi``); a test checks that it
matches the live app's schema."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from graphrag_core.surfaces.http.app import build_api

DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "openapi.json"


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else DOCUMENT
    target.write_text(render(build_api().openapi()), encoding="utf-8")
    print(f"wrote {target}")  # noqa: T201 (a command's one line of output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
