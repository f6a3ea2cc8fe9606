# The whole set-up on a fresh machine: `make run` serves the game, `make test` runs every test,
# `make check` runs the linters, the type checker and the doctests.
# Everything installs from uv.lock (`make lock` updates it; see the README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
UV := $(BIN)/uv
HOST ?= 127.0.0.1
PORT ?= 8000
# --locked: a uv.lock that no longer matches pyproject.toml fails instead of being ignored.
# --inexact: uv itself lives in the same venv and must survive the sync.
SYNC := $(UV) sync --locked --inexact

.PHONY: run test check check-tests install install-test lock lint bench clean cluster \
	system-packages

# uv is the only thing pip installs, pinned and hashed; it installs the rest from the lock.
# The system's pip installs it into a venv made without pip (ensurepip took 3 s of 13).
$(UV): scripts/uv-requirements.txt
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install -q --force-reinstall --require-hashes \
	  -r scripts/uv-requirements.txt
	touch $@

# What a SQLite server needs, nothing more.
$(VENV)/.installed: pyproject.toml uv.lock | $(UV)
	$(SYNC)
	touch $@

# Every extra: postgres, redis, test, browser.
$(VENV)/.installed-test: pyproject.toml uv.lock | $(UV)
	$(SYNC) --all-extras
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

lock: | $(UV)
	$(UV) lock $(LOCK_ARGS)

run: install
	$(BIN)/rummy serve --host $(HOST) --port $(PORT)

# N server processes behind HAProxy with room affinity, on this machine's PostgreSQL and
# Redis (scripts/cluster.sh says which settings it reads; docs/cluster.md, across machines).
N ?= 2
cluster: install-test
	CLUSTER_PORT=$(PORT) scripts/cluster.sh $(N)

# Two workers side by side (pytest-xdist), each with its own database and Redis db
# (tests/conftest.py): the suite spends most of its time waiting on servers, sockets and
# Chromium, not on the CPU. `make test TEST_WORKERS=0` runs it in one process. A worker
# that dies is not replaced: after a replacement xdist's loadfile scheduling can wait for
# ever (pytest-xdist #784, #1323); without one the run ends and names the test it died in.
TEST_WORKERS ?= 2
test: install-test system-packages
	scripts/services.sh $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --max-worker-restart 0 \
	  $(PYTEST_ARGS)

# Every step runs even when an earlier one fails, so one run shows all there is to fix.
check: install-test
	@status=0; \
	for step in "$(BIN)/ruff check rules app bots tests bench client" \
	            "$(BIN)/ruff format --check rules app bots tests bench client" \
	            "$(BIN)/mypy --strict rules app bots bench client/rummy_client client/rummy_wire" \
	            "$(BIN)/pytest -q -p no:cacheprovider --doctest-modules rules app bots client"; do \
		echo "$$step"; $$step || status=1; \
	done; exit $$status

# tests/ is one package tree (tests.kit, tests.app.rooms, ...): one mypy run over it. The kit
# every test imports is held to --strict's flags, the tests' bodies are checked
# (pyproject.toml's overrides for tests.*); not in `check`, which stays the product's.
check-tests: install-test
	$(BIN)/mypy tests

lint: check

# The Debian packages the suite needs (Chromium, node, HAProxy, and PostgreSQL and Redis
# when none answer), installed when missing; not root: one line says what to run.
system-packages:
	scripts/system-packages.sh

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) data .pytest_cache .mypy_cache .ruff_cache
