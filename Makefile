# Each target bootstraps its own virtual environment; it is rebuilt when pyproject.toml changes.
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: serve test bench soak openapi

$(STAMP): pyproject.toml
	python3 -m venv $(VENV) && $(VENV)/bin/pip install -q -e '.[dev,bench]'
	touch $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/galileo serve

test: $(STAMP)
	$(VENV)/bin/ruff check . && $(VENV)/bin/mypy && $(VENV)/bin/pytest -q

bench: $(STAMP)
	$(VENV)/bin/python -m bench

soak: $(STAMP)
	$(VENV)/bin/pytest -q -m soak

openapi: $(STAMP)
	$(VENV)/bin/python scripts/openapi.py
