# The whole set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run check test test-js lint typecheck bench soak drill fuzz screenshots lock deps-latest clean

# the pinned dependencies (requirements/dev.txt, hashes checked), then the project itself
$(STAMP): pyproject.toml requirements/dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/dev.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
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

## every test: unit, property, API, websocket, browser, the browser's helpers under node
## (and PostgreSQL/Redis when configured)
test: install lint typecheck test-js
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

## the pure helpers of static/ under node --test (Node.js 18+, no npm package; tests/js/)
test-js:
	node --test tests/js/*.test.mjs

## the fast loop: lint, types, and the tests that need no browser and no services, with fewer
## property examples and hidden-information games; left to `make test`: browser, PostgreSQL/Redis
## and several-process tests, the bots' strength matches, the load benchmark's test, the shipped
## proxy, and servers killed, stopped or restored
CHECK_EXAMPLES := BRAINIAC_PROPERTY_EXAMPLES=5 INGENIOUS_PROPERTY_EXAMPLES=3 \
	GENIUS_IDEA_PROPERTY_EXAMPLES=8 GENIUSNIGHT_FUZZ_EXAMPLES=10 HIDDEN_INFO_GAMES=30
CHECK_SKIP := -m "not browser and not services" --ignore=tests/browser --ignore=tests/scale \
	--ignore-glob='tests/engines/*/test_*_bots*.py' --ignore=tests/platform/test_bench_load.py \
	--ignore=tests/platform/test_crash_drill.py --ignore=tests/platform/test_shutdown.py \
	--ignore=tests/platform/test_backup.py --ignore=tests/platform/test_wheel_install.py \
	--deselect tests/platform/test_websocket.py::test_acknowledged_moves_survive_kill_9 \
	--deselect tests/platform/test_abuse_transport.py::test_the_shipped_proxy_closes_a_connection_whose_headers_never_end
check: install lint typecheck test-js
	env -u GENIUSNIGHT_TEST_POSTGRES_URL -u GENIUSNIGHT_TEST_REDIS_URL $(CHECK_EXAMPLES) \
		$(BIN)/python -m pytest -q -n 2 --dist loadfile $(CHECK_SKIP)

## benchmarks (docs/benchmarks.md; figures and decisions in docs/performance.md)
bench: install
	$(BIN)/python bench/run_all.py

## 2,000 bot games of the three games on one process, its memory sampled (docs/performance.md, "Memory")
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

## pin the dependencies again from pyproject.toml (requirements/server.txt for the image,
## requirements/dev.txt for development and CI); pins still within the bounds stay, unless
## UPGRADE=--upgrade (docs/deploy.md, "Reproducible installs")
UPGRADE ?=
LOCK := $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" --quiet $(UPGRADE)
lock: install
	$(BIN)/python -m pip install --quiet uv
	$(LOCK) -o requirements/server.txt
	$(LOCK) --extra dev -o requirements/dev.txt

## the newest releases pyproject.toml allows, in a throwaway venv (var/deps-latest): every
## test but the browser's; its versions.txt lists what was tried
LATEST := var/deps-latest
deps-latest:
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install --quiet --upgrade pip
	$(LATEST)/bin/python -m pip install --quiet --upgrade --upgrade-strategy eager -e ".[dev]"
	$(LATEST)/bin/python -m pip freeze --exclude-editable > $(LATEST)/versions.txt
	$(LATEST)/bin/python -m pytest -q -n 2 --dist loadfile -p no:cacheprovider -m "not browser" --ignore=tests/browser

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
