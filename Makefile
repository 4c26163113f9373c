# The README's commands. Each target sets up .venv from the package registry on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
GAME   ?= dragon
ARGS   ?=

.PHONY: run serve test soak bench clean

# Keep compiled bytecode: the tests start many Python processes (servers, bot workers, the commands the docs show),
# and each would compile every module it imports again if the environment says not to write it.
unexport PYTHONDONTWRITEBYTECODE

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-web: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $@ $(VENV)/.installed-run

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@ $(VENV)/.installed-test $(VENV)/.installed-web $(VENV)/.installed-run

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-web $(VENV)/.installed-run

run: $(VENV)/.installed-run  ## set up and play a game against bots in the terminal
	$(BIN)/ninjatable play $(GAME) $(ARGS)

serve: $(VENV)/.installed-web  ## set up and start the online tables (http://localhost:8000/)
	$(BIN)/ninjatable serve $(ARGS)

# Three test processes on two cores: the browser and server tests spend much of their time waiting on sockets and
# pages, and a third process fills those waits.
test: $(VENV)/.installed-test  ## set up and run every test (the long soak runs: make soak)
	$(BIN)/python -m pytest -n 3 --dist worksteal -p no:cacheprovider -m "not soak" --durations=15

soak: $(VENV)/.installed-test  ## the long runs: whole games at every player count and option, by clicking, matches
	$(BIN)/python -m pytest -n 2 --dist worksteal -p no:cacheprovider -m soak

bench: $(VENV)/.installed-bench  ## print the speed figures
	$(BIN)/python benchmarks/engine_speed.py
	$(BIN)/python benchmarks/env_speed.py

clean:
	rm -rf $(VENV)
