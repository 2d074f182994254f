# loregraph: `make demo` sets everything up and runs the main job; `make check` runs every check.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup demo check format test bench clean lint-deps openapi

LINT_DIR := tests/cypher_lint
LINT_STAMP := $(LINT_DIR)/node_modules/.installed-stamp

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Neo4j's Cypher linter (npm), used by tests/unit/test_cypher_lint.py; reinstalled only when
# the lock file changes.
$(LINT_STAMP): $(LINT_DIR)/package-lock.json
	npm ci --prefix $(LINT_DIR) --silent --no-audit --no-fund --loglevel=error
	touch $(LINT_STAMP)

lint-deps: $(LINT_STAMP)

demo: setup
	$(BIN)/loregraph demo

check: setup lint-deps
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -q

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: setup lint-deps
	$(BIN)/pytest -q

# The committed OpenAPI document of the HTTP API (a test checks it is current).
openapi: setup
	$(BIN)/python -m graphrag_core.surfaces.http.openapi

bench: setup
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) $(LINT_DIR)/node_modules .loregraph .mypy_cache .ruff_cache .pytest_cache
