# Two commands do all the set-up on a fresh machine:
#   make serve   install into .venv, then run the API + a worker (+ an embedded Redis without REDIS_URL)
#   make test    install into .venv, then lint, type-check and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BIND ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test lint bench openapi

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
	$(BIN)/mypy games events projections

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(VENV)/.installed
	$(BIN)/python -m bench

openapi: $(VENV)/.installed
	$(BIN)/tabletape openapi -o openapi.yaml
