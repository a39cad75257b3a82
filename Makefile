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
	$(BIN)/python -m sweeplab.warm_up
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

.PHONY: lab docs test-browser

# JupyterLab on notebooks/; notebooks/.jupyter hides the .py twins of the .ipynb from the file browser
lab: $(STAMP)
	JUPYTER_CONFIG_PATH=$(CURDIR)/notebooks/.jupyter $(BIN)/jupyter lab --ServerApp.root_dir=notebooks \
		$(if $(filter 0,$(shell id -u)),--allow-root)

# the book (README, notebooks executed at the smoke preset, API reference): docs/_build/html/index.html;
# make docs PRESET=quick executes them at the quick preset (real samples, about 4 minutes)
PRESET ?= smoke
docs: $(STAMP)
	@case "$(PRESET)" in smoke|quick|full) ;; *) echo "make docs: PRESET must be smoke, quick or full," \
		"got '$(PRESET)': make docs PRESET=quick, for example" >&2; exit 2;; esac
	SWEEPLAB_PRESET=$(PRESET) $(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	@echo "the book: docs/_build/html/index.html"

# the explorer in JupyterLab in headless Chromium (skips, saying why, without chromium and chromium-driver)
test-browser: $(STAMP)
	$(BIN)/python -m pytest -q -m browser tests/test_browser.py
