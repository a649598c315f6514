# The two commands a newcomer needs: `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Playing needs only the package; the developer tools (pytest, ruff, mypy, stubs) come with
# the first `make test`.
PLAY_STAMP := $(VENV)/.installed-play
STAMP := $(VENV)/.installed

.PHONY: play test test-slow lint bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(PLAY_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(PLAY_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(PLAY_STAMP) $(STAMP)

play: $(PLAY_STAMP)  ## play on the virtual board in this terminal (the game resumes next time)
	$(BIN)/cheeseboard sim

test: lint  ## lint, type-check the firmware, and run the test suite
	$(BIN)/python -m pytest -q

test-slow: $(STAMP)  ## the long randomised tests as well
	$(BIN)/python -m pytest -q -m ''

lint: $(STAMP)
	$(BIN)/ruff check firmware host tests
	$(BIN)/python tests/typecheck_firmware.py

bench: $(STAMP)  ## benchmarks, as tables
	$(BIN)/python tests/bench/bench_board.py
	$(BIN)/python tests/bench/bench_games.py
	$(BIN)/python tests/bench/bench_tables.py
	$(BIN)/python tests/bench/bench_render.py
	$(BIN)/python tests/bench/bench_flash.py
	$(BIN)/python tests/bench/bench_reliability.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
