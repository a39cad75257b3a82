# Quick start: `make report` runs the main job, `make test` the tests.
# Both build .venv on first use from pyproject.toml pinned by constraints.txt.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install report test test-all lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[dev,peer]"
	touch $(STAMP)

report: $(STAMP)
	$(BIN)/sweeplab report

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 -m "not slow"

test-all: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/game_speed.py

clean:
	rm -rf $(VENV) .pytest_cache
