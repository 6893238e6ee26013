# Two commands do all set-up on a fresh machine: `make run` and `make test`.
# The interpreter: CPython 3.12 where the machine has one (on the PATH, or installed with
# pyenv though not selected), else python3 (3.11 or newer). Under a tournament's load
# pyenv's CPython 3.11.7 crashed its server process now and then (heap corruption; 7 of 11
# runs of bench/tournament_day.py), where Debian's 3.11.2 and CPython 3.12.1 never did
# (0 of 4, 0 of 11). `PYTHON=… make run` chooses.
PYTHON ?= $(shell for p in python3.12 "$$(pyenv prefix 3.12 2>/dev/null)/bin/python3.12"; do \
	"$$p" -c '' >/dev/null 2>&1 && { echo "$$p"; exit; }; done; echo python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 5000

.PHONY: run test test-fast lint format bench clean catalogues messages

# The .venv names the interpreter it was made with: another one (3.12 installed since, or
# PYTHON=… given) makes it anew, and everything is installed into it again.
PYTHON_VERSION := $(shell $(PYTHON) -c 'import sys; print(sys.version.split()[0])' 2>/dev/null)
VENV_MADE := $(VENV)/.made-with-python-$(PYTHON_VERSION)

$(VENV_MADE):
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	touch $@

# Re-install when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml $(VENV_MADE)
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV_MADE)
	$(BIN)/pip install -q -e '.[test]'
	touch $(VENV)/.installed $@

# The compiled catalogues (German, English), rebuilt when a .po file changes.
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard scorer/translations/*/LC_MESSAGES/messages.po))

%.mo: %.po $(VENV)/.installed
	$(BIN)/pybabel compile --statistics -f -i $< -o $@

catalogues: $(CATALOGUES)

# For translators: collect the strings of code and templates, then update both catalogues.
messages: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg -k _l -k msg -k msg_n:1,2 --no-location \
		--omit-header --sort-output -o scorer/translations/messages.pot .
	$(BIN)/pybabel update -N --no-wrap -i scorer/translations/messages.pot \
		-d scorer/translations

# Migrates, prints the address (and QR code) for the tablets, serves with gunicorn.
run: $(VENV)/.installed catalogues
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m scorer.serve

# The scripts' linter, eslint, from npm (package.json): installed again when
# package-lock.json changes. Only `make lint` needs node; the app never does.
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund
	touch $@

lint: $(VENV)/.installed-test node_modules/.package-lock.json
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	npx eslint static/

# One test worker per core and one more (pytest-xdist): the browser tests wait on timers
# (tokens running out, a page's polls) and the extra worker fills those waits; on 2 cores
# it took the suite from 8:20 to 7:21 (two per core timed a browser test out on
# PostgreSQL). A module's tests stay in one worker (they share its servers and browser),
# the long modules first (tests/conftest.py).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
test: lint catalogues
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder

# The rules, the services and the pages without the browser, real servers or fuzzing.
test-fast: $(VENV)/.installed-test catalogues
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder -m "not e2e and not slow"

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed-test
	$(BIN)/python bench/score.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .hypothesis
