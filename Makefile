# foresci — two commands on a fresh machine: `make demo` and `make test`.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
export DAGSTER_HOME := $(CURDIR)/.dagster_home
export LITELLM_LOCAL_MODEL_COST_MAP := True
export HF_HUB_OFFLINE := 1

.PHONY: install init demo release demo-rediscovery demo-ideas test test-ops test-llm test-all lint ui bench clean

# The virtualenv, with the locked dependencies (uv installs ~6x faster than pip here). Bytecode is
# compiled at install: where PYTHONDONTWRITEBYTECODE is set (as on these machines) Python never
# writes .pyc files, and every process (each partition worker, each test run) recompiled Dagster,
# scipy, scikit-learn ... again: importing the code location took 19 s instead of 9 s.
$(VENV)/.installed: pyproject.toml requirements.lock
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check uv
	$(VENV)/bin/uv pip install -q --compile-bytecode -p $(PY) -r requirements.lock
	$(VENV)/bin/uv pip install -q -p $(PY) --no-deps -e .
	touch $@

install: $(VENV)/.installed

$(DAGSTER_HOME)/dagster.yaml: dagster.yaml
	mkdir -p $(DAGSTER_HOME) && cp dagster.yaml $@

## Create the Dagster instance once (its SQLite schema), before any concurrent runs; idempotent.
init: install $(DAGSTER_HOME)/dagster.yaml
	$(PY) -m compileall -q -j 0 assets core pipelines resources foresci >/dev/null  # the same for our code
	$(PY) -m pipelines.cli init

## Build the default release offline (4 domains, cutoff 2025-12-31, 6-month horizon) and print the leaderboard.
demo: init
	$(PY) -m pipelines.cli demo

## The benchmark release: every domain x the release cutoffs (docs/releases.md), two partition runs at a
## time, then the release card (card.md / card.json). Built partitions are reused; RELEASE_ARGS=--rebuild rebuilds.
release: init
	$(PY) -m pipelines.cli release $(if $(CUTOFFS),--cutoffs $(CUTOFFS)) $(if $(DOMAINS),--domains $(DOMAINS)) $(RELEASE_ARGS)

## The demo plus the opt-in rediscovery family (FIRE-Bench, docs/rediscovery.md), in .foresci-rediscovery.
demo-rediscovery: init
	$(PY) -m pipelines.cli demo-rediscovery $(if $(DOMAINS),--domains $(DOMAINS))

## Opt-in: the idea-review family (ScholarIdeas, ScholarEval) offline; docs/idea_review.md.
demo-ideas: init
	$(PY) -m pipelines.cli demo-ideas

## Run the test suite (slow tests excluded; `make test-all` includes them).
test: install
	@command -v chromium >/dev/null || echo "note: no Chromium found: the review page's browser tests (tests/pipelines/test_review_browser.py) are skipped; apt-get install -y chromium"
	$(PY) -m pytest

## The slow operations tests (eight concurrent partition runs, every docs example run); CI runs them after `make test`.
test-ops: install
	$(PY) -m pytest -m slow tests/ops

## Integration tests against a real local model server (llama.cpp + a small GGUF from PyPI, built
## once into ~/.cache/foresci; tests/local_llm.py): the LLM doorway, rediscovery, idea review, Xcientist artifacts, Arena.
test-llm: install
	$(PY) -m pytest -m slow tests/resources/test_local_llm.py tests/assets/rediscovery/test_rediscovery_local_llm.py tests/assets/idea_review/test_idea_review_llm.py \
	  tests/assets/artifacts/test_xcientist_local_llm.py tests/assets/arena/test_arena_local_llm.py

test-all: install
	$(PY) -m pytest -m "slow or not slow"

## Lint (config in pyproject.toml; .ci/run runs it): ruff's rules, mypy over core/ and the plugin APIs,
## vulture's sure findings (unused imports, variables, unreachable code) in the product code, and
## the format check (`.venv/bin/ruff format .` formats the tree).
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/vulture core resources assets pipelines foresci --min-confidence 80
	$(VENV)/bin/ruff format --check .

## The Dagster web UI on http://127.0.0.1:3000 (UI_PORT=…; runs and partitions persist in .dagster_home).
## Ctrl-C stops it (dagster dev shuts its webserver, daemon and code server down: ~5-8 s).
UI_PORT ?= 3000
ui: init
	$(VENV)/bin/dagster dev -h 127.0.0.1 -p $(UI_PORT) -w workspace.yaml

## Benchmarks: numbers go to benchmarks/results.md.
bench: install
	$(PY) benchmarks/run.py
	for b in kb_bench retrieval_bench taxonomy_bench judge_bench ui_bench; do \
	  if [ -f benchmarks/$$b.py ]; then $(PY) benchmarks/$$b.py || exit 1; fi; done
	$(PY) benchmarks/run.py --assemble

clean:
	rm -rf .foresci .dagster_home
