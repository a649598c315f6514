# The two commands a newcomer needs: `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Playing needs the package and the balance lab's plots (its `lab` extra); the developer
# tools (pytest, ruff, mypy, stubs) come with the first `make test`.
PLAY_STAMP := $(VENV)/.installed-play
STAMP := $(VENV)/.installed

.PHONY: play web uf2 overlays hardware test test-slow test-load lint bench bench-uf2 clean
# The web board's VM and the emulated Pico (rp2040js): the npm packages pinned in package.json,
# exactly as package-lock.json says.
NPM_STAMP := node_modules/.installed

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(PLAY_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	touch $(PLAY_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(PLAY_STAMP) $(STAMP)

PROFILE ?= pico
# make play FRESH=1 (a newly flashed board), SEED=N (a repeatable die), FLASH=DIR (the board's
# flash folder), ARGS='...' (any other `cheeseboard sim` option); make web PROFILE=pico16.
play: $(PLAY_STAMP)  ## play on the virtual board in this terminal (Gatenkaas: PROFILE=pico16)
	$(BIN)/cheeseboard sim --profile $(PROFILE)$(if $(FRESH), --fresh)$(if $(SEED), --seed \
	$(SEED))$(if $(FLASH), --flash $(FLASH)) $(ARGS)

uf2: $(PLAY_STAMP)  ## MicroPython for a Pico with the firmware frozen in: cheeseboard-$(PROFILE).uf2
	$(BIN)/cheeseboard uf2 --profile $(PROFILE)

# The maker's kit, for every profile, into hardware/build/PROFILE/ (hardware/README.md).
overlays: $(PLAY_STAMP)  ## each game's overlay to print at 1:1: SVG, and PDF on A4 and Letter
	$(BIN)/cheeseboard overlay

hardware: overlays  ## the overlays, and the grid, case and back as STLs (Debian's openscad)
	$(BIN)/cheeseboard cad

$(NPM_STAMP): package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent && touch $@; \
	else echo "npm is missing: the web board (cheeseboard web), the emulated Pico (cheeseboard sim --target pico) and their tests need Node 20 and npm"; fi

web: $(PLAY_STAMP) $(NPM_STAMP)  ## play on the board in a web browser
	$(BIN)/cheeseboard web --open --profile $(PROFILE)

# The tests on every core (pytest-xdist; TEST_JOBS=0: in this process, one at a time), with one
# worker more than the cores: many tests wait on the wall's clock (the emulated Pico, a browser,
# a flashing tool's silence), and meanwhile the others keep every core busy. A worker that runs
# out steals from the others' share, so a long test does not leave a core idle.
TEST_JOBS ?= $(shell $(PYTHON) -c 'import os; print(os.cpu_count() + 1)')
workers = $(if $(filter 0,$(1)),,-n $(1) --dist worksteal)
PARALLEL = $(call workers,$(TEST_JOBS))

# PYTEST_ARGS: more of pytest's options (CI: --durations=15, the slowest tests named).
test: lint $(NPM_STAMP)  ## lint, type-check the firmware, and run the test suite
	$(BIN)/python -m pytest -q $(PARALLEL) $(PYTEST_ARGS)

# The slow set with two workers more again (three more than the cores): its two hundred power
# cuts in real time are a third of its tests' time, nine tenths of it waiting on the wall.
SLOW_JOBS ?= $(if $(filter 0,$(TEST_JOBS)),0,$(shell echo $$(($(TEST_JOBS) + 2))))

test-slow: $(STAMP) $(NPM_STAMP)  ## the long randomised tests as well
	$(BIN)/python -m pytest -q -m '' $(call workers,$(SLOW_JOBS))

# The default suite RUNS times (10), each beside a busy loop per core and a second copy of the
# heaviest tests: its verdict must not change (tests/bench/bench_load.py; an hour or more).
# Then a scenario on the emulated Pico 5 times, each beside a busy loop per core.
RUNS ?= 10
test-load: $(STAMP) $(NPM_STAMP)  ## the suite on a busy machine, again and again
	$(BIN)/python tests/bench/bench_load.py --runs $(RUNS) --jobs $(TEST_JOBS) --idle
	$(BIN)/python tests/bench/bench_pico_scenario.py --runs 5

lint: $(STAMP)
	$(BIN)/ruff check firmware host tests
	$(BIN)/python tests/typecheck_firmware.py

bench: $(STAMP) $(NPM_STAMP)  ## benchmarks, as tables
	$(BIN)/python tests/bench/bench_board.py
	$(BIN)/python tests/bench/bench_games.py
	$(BIN)/python tests/bench/bench_heap.py
	$(BIN)/python tests/bench/bench_tables.py
	$(BIN)/python tests/bench/bench_render.py
	$(BIN)/python tests/bench/bench_flash.py
	$(BIN)/python tests/bench/bench_lab.py
	$(BIN)/python tests/bench/bench_reliability.py
	$(BIN)/python tests/bench/bench_replay.py
	$(BIN)/python tests/bench/bench_calibration.py
	$(BIN)/python tests/bench/bench_pico.py
	$(BIN)/python tests/bench/bench_pico_leds.py
	$(BIN)/python tests/bench/bench_ticks.py
	$(BIN)/python tests/bench/bench_suite.py
	$(BIN)/python tests/bench/bench_cli.py

bench-uf2: $(STAMP)  ## building the Pico's UF2: cold, cached, one module changed (minutes)
	$(BIN)/python tests/bench/bench_uf2.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
