# The whole set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test lint typecheck bench soak drill fuzz screenshots clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

## serve on SQLite at http://127.0.0.1:8000 (migrates first)
run: install
	$(BIN)/geniusnight db upgrade
	$(BIN)/geniusnight serve --no-migrate

lint: install
	$(BIN)/ruff check src tests bench scripts alembic
	$(BIN)/ruff format --check src tests bench scripts alembic

typecheck: install
	$(BIN)/mypy

## every test: unit, property, API, websocket, browser (and PostgreSQL/Redis when configured)
test: install lint typecheck
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

## benchmarks (figures go to docs/benchmarks.md)
bench: install
	$(BIN)/python bench/run_all.py

## 2,000 bot games of the three games on one process, its memory sampled (docs/benchmarks.md, "Soak")
soak: install
	$(BIN)/python bench/soak.py --games 2000

## kill -9 the server mid-play and restart it, 5 rounds (docs/deploy.md, "Crash drill"); ROUNDS=n, DRILL_ARGS=--postgres URL
ROUNDS ?= 5
drill: install
	$(BIN)/python -m geniusnight.bench.drill --rounds $(ROUNDS) $(DRILL_ARGS)

## the fuzz suite with many inputs (make test runs it with 40 per test); docs/protocol.md, "Fuzzing"
fuzz: install
	GENIUSNIGHT_FUZZ_EXAMPLES=$${GENIUSNIGHT_FUZZ_EXAMPLES:-2000} $(BIN)/python -m pytest -q tests/platform/test_fuzz.py

## each game's key screens, phone and laptop, as PNG files in var/screenshots/
screenshots: install
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
