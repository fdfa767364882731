# Two commands do all the set-up on a fresh machine:
#   make serve   install the package (not the test tools) into .venv, then run the API + a worker
#                (+ an embedded Redis without REDIS_URL)
#   make test    install it with its test tools into .venv, then lint, type-check and run the whole test suite, then the
#                store, projection, API and serve tests again on a real 3-master Redis Cluster
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BIND ?= 127.0.0.1
PORT ?= 8000
# The tests that run twice: on one Redis, then on a Redis Cluster the run starts on local ports.
# Test files run side by side in this many processes (pytest-xdist), each file's tests in one of them.
JOBS ?= auto
# `make test` and `make test-cluster` end by naming their slowest tests, to show where the time goes.
SLOWEST ?= --durations=12 --durations-min=5
CLUSTER_TESTS ?= tests/events tests/projections tests/service tests/workers tests/e2e/test_serve.py tests/e2e/test_live.py

.PHONY: serve test test-quick test-cluster lint bench openapi translations

# Two install stamps: serving needs the package alone; the test tools (pytest, Playwright,
# schemathesis, mypy, ruff, the client generator) only come with `make test`, `lint`, `bench`, `openapi`.
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed-serve: pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-serve

# The whole install under the stamp's earlier name, for scripts that still ask for it.
$(VENV)/.installed: $(VENV)/.installed-test
	touch $@

serve: $(VENV)/.installed-serve
	$(BIN)/tabletape serve --host $(BIND) --port $(PORT)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy games events projections workers service bench

# The suite starts well over a hundred Python processes (serves, gunicorn and RQ workers, the CLI)
# and each test process rewrites the test modules' asserts: they read the bytecode Python caches in
# __pycache__ even where the environment turns its writing off (PYTHONDONTWRITEBYTECODE), which made
# every process compile tabletape again and every run rewrite the suite (docs/testing.md).
test test-quick test-cluster: export PYTHONDONTWRITEBYTECODE :=

test: lint
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --no-loadscope-reorder $(SLOWEST) $(PYTEST_ARGS)
	$(MAKE) test-cluster

# A quick run while working: no random playouts, no whole-process or browser tests, no cluster.
test-quick: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n $(JOBS) -m "not slow and not e2e and not browser" $(PYTEST_ARGS)

test-cluster: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --no-loadscope-reorder --redis-cluster -m "not one_redis" $(SLOWEST) $(CLUSTER_TESTS) $(PYTEST_ARGS)

bench: $(VENV)/.installed-test
	$(BIN)/python -m bench

openapi: $(VENV)/.installed-test
	$(BIN)/tabletape openapi -o openapi.yaml

# The catalogs (docs/i18n.md): extract every marked message into the template, merge it into each
# language's messages.po (translated by hand there), and compile the .mo files the server reads
# (committed, so that a fresh clone serves every language without this step).
CATALOGS := service/language/translations
LOCALES := zh_Hans ja
BABEL_KEYWORDS := -k fail:2 -k require:3 -k RuleViolation:2 -k InvalidAction:2 -k RequestRefused:3 -k Failed:2 -k ImportRefused:2 \
	-k Message:1 -k words:1 -k plural:1,2 -k N_
translations: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg $(BABEL_KEYWORDS) --no-location --sort-output \
		--project tabletape --copyright-holder "tabletape" -o $(CATALOGS)/code.pot .
	$(BIN)/pybabel extract -F babel-js.cfg -k t:1 -k tn:1,2 --no-location -o $(CATALOGS)/pages.pot .
	$(BIN)/python -m service.language.merge $(CATALOGS)/messages.pot $(CATALOGS)/code.pot $(CATALOGS)/pages.pot
	rm $(CATALOGS)/code.pot $(CATALOGS)/pages.pot
	for locale in $(LOCALES); do $(BIN)/pybabel update -i $(CATALOGS)/messages.pot -d $(CATALOGS) \
		-l $$locale --init-missing --no-fuzzy-matching --ignore-obsolete || exit 1; done
	$(BIN)/pybabel compile -d $(CATALOGS) --statistics
