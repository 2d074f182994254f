"""Run every benchmark in this folder, one after another: ``python benchmarks/run.py``.

Each ``bench_*.py`` is also runnable on its own; figures go into docs/benchmarks.md by hand,
with the machine and the command.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    failed = 0
    for script in sorted(here.glob("bench_*.py")):
        print(f"== {script.name}", flush=True)
        failed += subprocess.run([sys.executable, str(script)], check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
