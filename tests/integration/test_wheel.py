"""The wheel ships every module and data file: build it, then import every module of the
package from the wheel alone (not from this checkout), and load every Cypher statement."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
_NOT_SHIPPED = (
    ".venv",
    ".git",
    "node_modules",
    "build",
    "dist",
    ".loregraph",
    "__pycache__",
    "*.egg-info",
)

# Imports every module named on stdin from the unpacked wheel at argv[1], with the editable
# install's finder removed, so a module missing from the wheel cannot come from the checkout.
IMPORT_ALL = """
import importlib, sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__]
sys.path.insert(0, sys.argv[1])
for name in sys.stdin.read().split():
    module = importlib.import_module(name)
    assert module.__file__.startswith(sys.argv[1]), (name, module.__file__)
import cypher
for name, dialects in cypher.statement_names().items():
    for dialect in cypher.DIALECTS:
        if cypher.DIALECT_ONLY.get(name, dialect) == dialect:
            cypher.load(name, dialect)
print("imported")
"""


def test_the_wheel_holds_every_module(tmp_path: Path) -> None:
    source = tmp_path / "source"  # setuptools writes build/ next to the sources: not here
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*_NOT_SHIPPED))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
        check=True,
        timeout=600,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("loregraph-*.whl"))
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
        names = archive.namelist()
    sources = sorted(ROOT.glob("*/**/*.py"))
    expected = [
        p.relative_to(ROOT).as_posix()
        for p in sources
        if p.relative_to(ROOT).parts[0]
        in {"graphrag_core", "extraction", "changelog", "ranking", "cypher"}
    ]
    assert not [p for p in expected if p not in names], "modules missing from the wheel"
    page = [
        p.relative_to(ROOT).as_posix() for p in ROOT.glob("graphrag_core/surfaces/web/static/**/*")
    ]
    assert not [p for p in page if Path(ROOT / p).is_file() and p not in names], "web page files"
    modules = [p.removesuffix(".py").replace("/", ".").removesuffix(".__init__") for p in expected]
    modules = [m for m in modules if not m.endswith("__main__")]
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, str(unpacked)],
        input=" ".join(modules),
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "imported" in done.stdout
