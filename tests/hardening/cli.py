"""Running the CLI in-process and telling a clean refusal from a crash."""

from __future__ import annotations

import json
from dataclasses import dataclass

from typer.testing import CliRunner

from graphrag_core.surfaces.cli.app import app


@dataclass(frozen=True)
class Outcome:
    code: int
    output: str
    crashed: bool
    """True when an exception other than a clean exit escaped the command (a traceback)."""


def invoke(env: dict[str, str], *args: str) -> Outcome:
    result = CliRunner().invoke(app, list(args), env=env)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    return Outcome(result.exit_code, result.output, crashed)


def refused(outcome: Outcome, *codes: int) -> bool:
    """A clean refusal: an expected exit code, an ``error:`` line, no traceback."""
    return (
        not outcome.crashed
        and outcome.code in (codes or (1,))
        and "Traceback" not in outcome.output
        and "error" in outcome.output.lower()
    )


def changesets(env: dict[str, str], campaign: str = "cli") -> list[dict[str, object]]:
    done = invoke(env, "changelog", "list", "-c", campaign, "--json")
    assert done.code == 0, done.output
    records: list[dict[str, object]] = json.loads(done.output)
    return records
