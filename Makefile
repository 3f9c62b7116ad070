# One task runner for people and CI.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help venv demo test lint typecheck bench clean

help:
	@echo "make demo   - create .venv, install, check a sample paper offline, write reports"
	@echo "make test   - run the whole test suite (creates .venv if needed)"
	@echo "make bench  - accuracy and speed benchmarks (tables; see bench/RESULTS.md)"
	@echo "make lint   - ruff; make typecheck - mypy --strict"

RUN_STAMP := $(VENV)/.installed-run

PKG_FILES := $(shell find citecheck_tex templates -type f \( -name '*.py' -o -name '*.j2' -o -name '*.json' -o -name '*.gz' \) 2>/dev/null)

# What the demo needs: the package (a regular install, as a user gets it: an editable
# install makes setuptools print notices) and its runtime dependencies, nothing else.
$(RUN_STAMP): pyproject.toml $(PKG_FILES)
	@command -v $(PY) >/dev/null 2>&1 || { echo "python3.11 not found; set PY=/path/to/python3.11"; exit 2; }
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip
	@$(BIN)/python -m pip install -q --disable-pip-version-check .
	@touch $(RUN_STAMP)

# Development: an editable install with tests, linters, type checker, the LLM extra
# (editable: source edits need no reinstall, so it depends on pyproject.toml only).
$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "python3.11 not found; set PY=/path/to/python3.11"; exit 2; }
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip
	@$(BIN)/python -m pip install -q --disable-pip-version-check -e ".[dev,llm,batch]"
	@touch $(STAMP)

venv: $(STAMP)

DEMO_DIR := sample_papers/dark_matter_axions
DEMO_OUT := citecheck-report/demo
DEMO_INDEX := $(DEMO_OUT)/demo-index.sqlite

# With the development install present the demo uses it (it is editable, always current).
demo: $(if $(wildcard $(STAMP)),$(STAMP),$(RUN_STAMP))
	@mkdir -p $(DEMO_OUT)
	$(BIN)/citecheck-tex index add $(wildcard sample_papers/*/index_records*) --index $(DEMO_INDEX)
	$(BIN)/citecheck-tex $(DEMO_DIR)/paper.tex --offline --index $(DEMO_INDEX) --index-complete --cache none --fail-on never \
		--out $(DEMO_OUT) --format terminal,json,html,bib,sarif
	@echo "Open $(DEMO_OUT)/report.html in a browser."

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check citecheck_tex tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench.run_all

clean:
	rm -rf $(VENV) citecheck-report build dist *.egg-info
