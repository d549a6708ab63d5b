# Bower: `make test` sets everything up itself, then runs every test.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
NODE_MP := node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs

.PHONY: all setup test sim bench clean

all: test

$(VENV)/.stamp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

$(NODE_MP): package.json
	npm install --no-audit --no-fund --loglevel=error
	touch $@

setup: $(VENV)/.stamp $(NODE_MP)

test: setup
	$(PY) -m pytest

sim: setup
	$(VENV)/bin/bower sim

bench: setup
	$(PY) tools/bench.py

clean:
	rm -rf $(VENV) node_modules build .pytest_cache .hypothesis
