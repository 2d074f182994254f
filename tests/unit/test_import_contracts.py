"""The import contracts hold, and cannot go slack: each planted violation, in a temporary
copy of the packages, makes ``lint-imports`` fail on the contract it breaks."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graphrag_core", "extraction", "changelog", "ranking", "cypher")
LINT = Path(sys.executable).parent / "lint-imports"

LAYERS = "Layers, surfaces down to core"
SERVICES = "Services reach adapters only through the ports"
SETTINGS = "Only the edges read the settings"
SURFACES = "Nothing imports a surface"
CLI_CYCLE = "never import the root app"

# (file to plant in, module it imports, the contract that must break)
VIOLATIONS = [
    ("extraction/taxonomy.py", "graphrag_core.services.extraction", LAYERS),
    ("ranking/text.py", "graphrag_core.surfaces.cli.help", LAYERS),
    ("extraction/slugs.py", "ranking.text", LAYERS),
    ("graphrag_core/analytics/facts.py", "changelog.overlay", LAYERS),
    ("graphrag_core/models.py", "graphrag_core.config", LAYERS),
    ("graphrag_core/config.py", "graphrag_core.settings", LAYERS),
    ("graphrag_core/services/views.py", "graphrag_core.wiring", LAYERS),
    ("graphrag_core/services/views.py", "graphrag_core.stores.rows", SERVICES),
    ("graphrag_core/services/manifest.py", "graphrag_core.providers.bpe_tokens", SERVICES),
    ("ranking/text.py", "graphrag_core.settings", SETTINGS),
    ("graphrag_core/wiring.py", "graphrag_core.surfaces.cli.help", SURFACES),
    ("graphrag_core/surfaces/cli/query.py", "graphrag_core.surfaces.cli.app", CLI_CYCLE),
]


def _copy(tmp_path: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=tree, env=env, capture_output=True, text=True, timeout=120
    )


def _broken(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.rstrip().endswith("BROKEN")]


def test_the_contracts_hold_on_the_tree(tmp_path: Path) -> None:
    done = _lint(_copy(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 kept, 0 broken" in done.stdout


@pytest.mark.parametrize(("where", "module", "contract"), VIOLATIONS)
def test_a_planted_violation_breaks_its_contract(
    tmp_path: Path, where: str, module: str, contract: str
) -> None:
    tree = _copy(tmp_path)
    with (tree / where).open("a", encoding="utf-8") as handle:
        handle.write(f"\nimport {module}  # planted by the test\n")
    done = _lint(tree)
    assert done.returncode != 0, done.stdout
    broken = " ".join(_broken(done.stdout))
    assert contract in " ".join(broken.split()), done.stdout
