# Quick start: `make run` (sets up .venv, ingests the bundled samples) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
UV_VERSION := 0.13.8

.PHONY: run test hunt bench clean lock

# Compiled bytecode: every `digest` run (and test subprocess) imports Prefect; without .pyc files
# (PYTHONDONTWRITEBYTECODE, read-only installs) each one compiled ~12k modules again.
$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(BIN)/uv pip sync --quiet --compile-bytecode --python $(BIN)/python requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	$(BIN)/python -m transforms.signatures
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/digest ingest data/samples --warehouse data/warehouse.duckdb

test: $(STAMP)
	$(BIN)/python -m pytest -n auto --maxprocesses 4 --dist loadfile

# The property tests with fresh random examples (`make test` draws the same ones every run), and
# the sweeps at their full size: the fuzz example counts and test_crash's 20 kills (`make test`
# runs a quarter and 10).
hunt: $(STAMP)
	HYPOTHESIS_PROFILE=hunt DIGEST_FUZZ_SCALE=1 DIGEST_CRASH_KILLS=20 $(BIN)/python -m pytest -n auto --maxprocesses 4 \
		--dist loadfile $(sort $(shell grep -l "@given" tests/*.py) tests/test_crash.py)

bench: $(STAMP)
	$(BIN)/python -m bench.run --listings 100000

# Re-resolve the pinned dependencies after changing pyproject.toml.
lock: $(STAMP)
	$(BIN)/uv pip compile --quiet pyproject.toml --extra dev --python-version 3.11 -o requirements.lock

clean:
	rm -rf $(VENV) data/warehouse.duckdb data/warehouse.duckdb.wal .pytest_cache
