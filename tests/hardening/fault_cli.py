"""The loregraph CLI with a fault planted on a write (for tests/hardening/test_faults.py).

``FAULT_ON=<statement>``: when the first transaction holding that Cypher statement is about
to be sent, ``FAULT_KILL=cli`` kills this process (``kill -9``) and ``FAULT_KILL=engine`` kills
the embedded engine (``kill -9`` of the pid in ``falkordb.pid``) and lets the write go on
against the dead engine. Without ``FAULT_ON`` it is the plain CLI."""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from pathlib import Path

from graphrag_core.stores.cypher_store import CypherStore, Statement
from graphrag_core.surfaces.cli.app import app


def _plant(statement: str, target: str) -> None:
    original = CypherStore._run

    def faulty(self: CypherStore, statements: Sequence[Statement]) -> None:
        if any(name == statement for name, _ in statements):
            if target == "cli":
                os.kill(os.getpid(), signal.SIGKILL)
            pid_file = Path(os.environ["LOREGRAPH_DATA_DIR"]) / "falkordb.pid"
            os.kill(int(pid_file.read_text().strip()), signal.SIGKILL)
        original(self, statements)

    CypherStore._run = faulty  # type: ignore[method-assign]


if __name__ == "__main__":
    if "FAULT_ON" in os.environ:
        _plant(os.environ["FAULT_ON"], os.environ.get("FAULT_KILL", "cli"))
    app(prog_name="loregraph")
