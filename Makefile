# The whole set-up on a fresh machine: `make run` serves the game, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

run: install
	$(BIN)/rummy serve --host $(HOST) --port $(PORT)

test: install-test
	$(BIN)/pytest $(PYTEST_ARGS)

lint: install-test
	$(BIN)/ruff check rules app bots tests bench
	$(BIN)/mypy --strict rules

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) data .pytest_cache
