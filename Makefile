# Bower: `make test` sets everything up itself, then runs every test.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
NODE_MP := node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs

.PHONY: all setup test soak sim web bench clean

all: test

$(VENV)/.stamp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# The MicroPython test runtime (WebAssembly, run by Node): only `make test`
# and `make bench` need it. `make setup` (the `bower` command: deploy, sync,
# sim) needs Python 3.10+ alone.
$(NODE_MP): package.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "make test needs Node.js 20+ and npm (the MicroPython test runtime); install them and run it again." >&2; \
	  echo "The bower command (deploy, sync, sim) needs neither: make setup installed it in $(VENV)." >&2; exit 1; }
	npm install --no-audit --no-fund --loglevel=error
	touch $@

setup: $(VENV)/.stamp

# Wheels of bower's runtime dependencies and of its build backend (the
# setuptools the dev extras pin), for tests/host/test_install.py: it installs
# the built wheel and sdist into fresh venvs from here, with no index, and
# the wheel beside euchre-cli's (another `euchre` package on PyPI).
WHEELHOUSE := build/wheelhouse
$(WHEELHOUSE)/.stamp: $(VENV)/.stamp
	rm -rf $(WHEELHOUSE)
	$(PY) -m pip wheel --quiet --no-build-isolation --wheel-dir $(WHEELHOUSE) . \
	  "setuptools==$$($(PY) -c 'import setuptools; print(setuptools.__version__)')"
	rm -f $(WHEELHOUSE)/bower_euchre-*.whl
	$(PY) -m pip download --quiet --no-deps --dest $(WHEELHOUSE) euchre-cli==0.7.0
	touch $@

# Two workers (pytest-xdist), each taking the next test when it is free: the
# long tests (the UI monkeys, the flash-full sweeps) no longer run one after
# another. `.venv/bin/pytest` alone runs the suite in one process.
test: setup $(NODE_MP) $(WHEELHOUSE)/.stamp
	$(PY) -m pytest -n 2 --dist worksteal

# The long runs make test keeps short: the UI monkey's 250,000 presses
# with power cuts, and the phone killed at every press of both its games.
soak: setup $(NODE_MP)
	BOWER_MONKEY_PRESSES=250000 $(PY) -m pytest -q tests/firmware/test_ui_monkey.py
	BOWER_PHONE_KILLS=99 $(PY) -m pytest -q tests/host/test_phone_durable.py

sim: setup
	$(VENV)/bin/bower sim

# Bower on a phone: the static site in build/web (serve it from any HTTPS
# host, or try it with `bower web serve --dir build/web`).
web: setup
	$(VENV)/bin/bower web build -o build/web

# The distribution's CPython, when there is one: make bench also times the
# engine under it (pyenv's default build has no profile-guided optimisation).
SYSTEM_PY := $(wildcard /usr/bin/python3)

bench: setup $(NODE_MP)
	$(PY) tools/bench.py $(addprefix --other-python ,$(SYSTEM_PY))
	$(PY) tools/bench_ui.py
	$(PY) tools/bench_pico.py
	$(PY) tools/bench_pico_sync.py
	@if [ -f tools/bench_sync.py ]; then $(PY) tools/bench_sync.py; fi
	$(PY) tools/bench_club.py
	$(PY) tools/bench_club_live.py
	$(PY) tools/bench_club_phones.py
	$(PY) tools/bench_league.py
	$(PY) tools/bench_web.py
	$(PY) tools/soak_night.py

clean:
	rm -rf $(VENV) node_modules build .pytest_cache .hypothesis

# ---------------------------------------------------------------------------
# enclosure: render the printable case (hardware/enclosure/bower.scad) to one
# STL per part plus a PNG preview, all in hardware/enclosure/. OpenSCAD (and,
# on a machine without a display, Xvfb for the PNG) is installed with apt-get
# only when missing. OpenSCAD writes the same triangles in a new order on
# every run; stl_canon.py puts them in one canonical order, so an unchanged
# shape gives byte-identical STLs. The lid's labels are geometry
# (enclosure/lettering.scad), not text() from the machine's fonts, so the
# lid is the same on every machine. Not part of `make test` (tests render
# the base and the lid when openscad is on PATH and check the STLs are
# canonical).
ENCL_DIR  := hardware/enclosure
ENCL_SCAD := $(ENCL_DIR)/bower.scad
ENCL_SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ENCL_PNG_ARGS := --imgsize=800,600 --viewall --autocenter --colorscheme=Tomorrow

.PHONY: enclosure
enclosure:
	@command -v openscad >/dev/null 2>&1 || { \
	  echo "openscad is not on PATH: installing it with apt-get"; \
	  $(ENCL_SUDO) apt-get install -y openscad || { $(ENCL_SUDO) apt-get update && $(ENCL_SUDO) apt-get install -y openscad; }; }
	openscad --export-format binstl -D 'part="base"' -o $(ENCL_DIR)/bower_base.stl $(ENCL_SCAD)
	openscad --export-format binstl -D 'part="lid"' -o $(ENCL_DIR)/bower_lid.stl $(ENCL_SCAD)
	$(PYTHON) $(ENCL_DIR)/stl_canon.py $(ENCL_DIR)/bower_base.stl $(ENCL_DIR)/bower_lid.stl
	@png=$(ENCL_DIR)/bower_preview.png; rm -f $$png; \
	if [ -n "$$DISPLAY" ] && openscad $(ENCL_PNG_ARGS) -o $$png $(ENCL_SCAD) && [ -s $$png ]; then exit 0; fi; \
	echo "no usable display for the PNG preview: rendering it under xvfb-run"; \
	command -v xvfb-run >/dev/null 2>&1 || $(ENCL_SUDO) apt-get install -y xvfb xauth || { $(ENCL_SUDO) apt-get update && $(ENCL_SUDO) apt-get install -y xvfb xauth; }; \
	xvfb-run -a -s "-screen 0 1024x768x24" openscad $(ENCL_PNG_ARGS) -o $$png $(ENCL_SCAD); \
	[ -s $$png ] || { echo "PNG preview failed: $$png is missing or empty" >&2; exit 1; }
	@ls -l $(ENCL_DIR)/bower_base.stl $(ENCL_DIR)/bower_lid.stl $(ENCL_DIR)/bower_preview.png
