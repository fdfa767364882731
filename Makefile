# Two commands do all the set-up on a fresh machine:
#   make serve   install into .venv, then run the API + a worker (+ an embedded Redis without REDIS_URL)
#   make test    install into .venv, then lint, type-check and run the whole test suite, then the
#                store, projection, API and serve tests again on a real 3-master Redis Cluster
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BIND ?= 127.0.0.1
PORT ?= 8000
# The tests that run twice: on one Redis, then on a Redis Cluster the run starts on local ports.
CLUSTER_TESTS ?= tests/events tests/projections tests/service tests/workers tests/e2e/test_serve.py tests/e2e/test_live.py

.PHONY: serve test test-cluster lint bench openapi

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

serve: $(VENV)/.installed
	$(BIN)/tabletape serve --host $(BIND) --port $(PORT)

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy games events projections workers service

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	$(MAKE) test-cluster

test-cluster: $(VENV)/.installed
	$(BIN)/python -m pytest --redis-cluster $(CLUSTER_TESTS) $(PYTEST_ARGS)

bench: $(VENV)/.installed
	$(BIN)/python -m bench

openapi: $(VENV)/.installed
	$(BIN)/tabletape openapi -o openapi.yaml
