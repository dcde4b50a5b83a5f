# The README's two commands: `make play` (set up, then the main job) and `make test` (set up, then
# every test). CI runs `make test` through .ci/run.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
APP := $(VENV)/.installed-app
STAMP := $(VENV)/.installed-test

.PHONY: play test lint typecheck pytest bench golden clean system-packages

$(BIN)/pip:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# The main job needs only the package; the tests add their tools (pytest, mypy, Ray, Playwright,
# MuJoCo, PettingZoo, Gymnasium, OpenSpiel, ...).
$(APP): pyproject.toml | $(BIN)/pip
	$(BIN)/pip install --quiet -e .
	touch $(APP)

$(STAMP): pyproject.toml | $(BIN)/pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(APP) $(STAMP)

# The web table on SQLite (./teocalli.sqlite3): open http://127.0.0.1:8000
play: $(APP)
	$(BIN)/teocalli serve

# The tests start their own PostgreSQL (initdb + pg_ctl) and drive Debian's Chromium: install both
# when missing, and stop loudly if that fails (no test is ever skipped for want of them).
system-packages:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v chromium >/dev/null; then \
		echo "installing the system packages the tests need: postgresql chromium"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql chromium \
			|| { echo "make: could not install postgresql and chromium (apt-get as root)" >&2; exit 1; }; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# axe-core (tests/web/test_axe.py), pinned by package-lock.json: the app itself needs no npm.
AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	@command -v npm >/dev/null || { echo "make: npm is missing (Node.js is needed to install axe-core for the tests)" >&2; exit 1; }
	npm ci --no-audit --no-fund || { echo "make: could not install axe-core with npm ci" >&2; exit 1; }
	touch $(AXE)

pytest: $(STAMP) $(AXE)
	$(BIN)/pytest -n 2

test: system-packages lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks

golden: $(STAMP)
	$(BIN)/python scripts/regen_golden.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
