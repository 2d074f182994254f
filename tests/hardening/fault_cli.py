"""The loregraph CLI with a fault planted on a write (for tests/hardening/test_faults.py).
Test-only: nothing in the package imports it, and without ``FAULT_*`` variables it is the plain
CLI.

Which write: ``FAULT_AT=N`` is the N-th write transaction this process sends (every write goes
through ``CypherStore._run``: migrations, content, Source rows, change sets, analytics);
``FAULT_ON=<statement>`` is the first transaction holding that Cypher statement.

When: ``FAULT_WHEN=before`` (default) as it is about to be sent; ``after`` once the engine has
acknowledged it; ``during`` ``FAULT_DELAY_MS`` milliseconds after it starts being sent, from a
timer thread, while the transaction is on the wire or being run.

What: ``FAULT_KILL=cli`` is ``kill -9`` of this process; ``FAULT_KILL=engine`` is ``kill -9`` of
the embedded engine (the pid in ``falkordb.pid``), and the command goes on against the dead
engine.

``FAULT_AFTER_MS=T`` (alone or with the above): a timer kills the target ``T`` ms after the
faults are planted, wherever the command is then (reading, parsing, embedding, writing).

``FAULT_LOG=FILE``: one line per write transaction the engine acknowledged, its statement
names, so the test knows which writes were acknowledged before the fault.

``--serve``: a fork server for many trials. It imports the CLI and loads the embedding model
once, then reads one JSON line per run on stdin (``args``, ``env``, ``out``: a file for the
run's stdout and stderr) and forks a child that is the CLI process of that run (faults planted
from ``env``); it answers one JSON line per run, ``{"code": <exit code, -9 when killed>}``. Each
run is still its own process, killed for real; only the start-up (~5 s of imports and model
loading on a busy machine) is shared.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import traceback
from collections.abc import Sequence
from pathlib import Path

from graphrag_core.stores.cypher_store import CypherStore, Statement
from graphrag_core.surfaces.cli.app import app


def _kill(target: str) -> None:
    if target == "cli":
        os.kill(os.getpid(), signal.SIGKILL)
    pid_file = Path(os.environ["LOREGRAPH_DATA_DIR"]) / "falkordb.pid"
    with contextlib.suppress(OSError, ValueError):  # no engine (already gone): a no-op
        os.kill(int(pid_file.read_text().strip()), signal.SIGKILL)


def _plant(environ: dict[str, str]) -> None:
    original = CypherStore._run
    at = int(environ.get("FAULT_AT", "0"))
    on = environ.get("FAULT_ON")
    when = environ.get("FAULT_WHEN", "before")
    target = environ.get("FAULT_KILL", "cli")
    delay = float(environ.get("FAULT_DELAY_MS", "0")) / 1000
    log = Path(environ["FAULT_LOG"]) if "FAULT_LOG" in environ else None
    state = {"sent": 0, "fired": False}
    if "FAULT_AFTER_MS" in environ:
        timer = threading.Timer(float(environ["FAULT_AFTER_MS"]) / 1000, _kill, (target,))
        timer.daemon = True  # a command done before it fires is not held back by it
        timer.start()

    def faulty(self: CypherStore, statements: Sequence[Statement]) -> None:
        state["sent"] += 1
        names = [name for name, _ in statements]
        hit = not state["fired"] and (state["sent"] == at or (on is not None and on in names))
        if hit:
            state["fired"] = True
            if when == "before":
                _kill(target)
            elif when == "during":
                timer = threading.Timer(delay, _kill, (target,))
                timer.daemon = True  # fired after the command ended: no fault, like a miss
                timer.start()
        original(self, statements)
        if log is not None:
            with log.open("a") as file:
                file.write(" ".join(names) + "\n")
        if hit and when == "after":
            _kill(target)

    CypherStore._run = faulty  # type: ignore[method-assign]


def _planted(environ: dict[str, str]) -> bool:
    return any(key in environ for key in ("FAULT_AT", "FAULT_ON", "FAULT_LOG", "FAULT_AFTER_MS"))


def _child(spec: dict[str, object]) -> None:
    """The forked CLI process of one run; never returns."""
    out = os.open(str(spec["out"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    signal.alarm(int(str(spec.get("timeout", 120))))  # a hung run dies (SIGALRM), never hangs
    env = {str(k): str(v) for k, v in dict(spec["env"]).items()}  # type: ignore[call-overload]
    os.environ.clear()
    os.environ.update(env)
    code = 0
    try:
        if _planted(env):
            _plant(env)
        app(args=[str(a) for a in spec["args"]], prog_name="loregraph")  # type: ignore[attr-defined]
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # a crash is what the test looks for: print it
        traceback.print_exc()
        code = 99
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def serve() -> None:
    import graphrag_core.wiring as wiring
    from graphrag_core.settings import load_settings

    embedder = wiring.build_embedder(load_settings())
    embedder.embed(["warm the model up before forking"])  # one thread (OMP_NUM_THREADS=1)
    wiring.build_embedder = lambda settings: embedder
    for line in sys.stdin:
        spec = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(spec)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"code": os.waitstatus_to_exitcode(status)}), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        if _planted(dict(os.environ)):
            _plant(dict(os.environ))
        app(prog_name="loregraph")
