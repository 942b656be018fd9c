# Each target bootstraps its own virtual environment; it is rebuilt when pyproject.toml changes.
VENV := .venv
STAMP := $(VENV)/.installed
# Parallel test workers (pytest-xdist): one per core by default; `make test WORKERS=0` runs in one process.
WORKERS ?= auto
# The packages whose tests wait on servers, threads and streams: `make flaky-check` repeats them.
FLAKY_PATHS ?= tests/api tests/replays tests/projections
FLAKY_RUNS ?= 10

.PHONY: serve test bench soak flaky-check openapi

$(STAMP): pyproject.toml
	python3 -m venv $(VENV) && $(VENV)/bin/pip install -q -e '.[dev,bench]'
	touch $(STAMP)

# `make serve PORT=8080 HOST=0.0.0.0` listens elsewhere.
PORT ?= 8000
HOST ?= 127.0.0.1

serve: $(STAMP)
	$(VENV)/bin/galileo serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(VENV)/bin/ruff check . && $(VENV)/bin/mypy && $(VENV)/bin/pytest -q -n $(WORKERS)

# The long property runs (thousands of games), excluded from `make test`.
soak: $(STAMP)
	$(VENV)/bin/pytest -q -n $(WORKERS) -m soak

# FLAKY_RUNS runs in a row of the waiting tests, then one in random order; stops at the first failure.
flaky-check: $(STAMP)
	set -e; for run in $$(seq 1 $(FLAKY_RUNS)); do \
		echo "flaky-check: run $$run of $(FLAKY_RUNS)"; \
		$(VENV)/bin/pytest -q -n $(WORKERS) $(FLAKY_PATHS); \
	done; \
	echo "flaky-check: random order"; \
	$(VENV)/bin/pytest -q -n $(WORKERS) --random-order $(FLAKY_PATHS)

bench: $(STAMP)
	$(VENV)/bin/python -m bench

# Regenerates the committed OpenAPI contract (docs/openapi.json) from the application.
openapi: $(STAMP)
	$(VENV)/bin/python scripts/openapi.py
