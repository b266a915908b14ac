# Two commands for a fresh machine: `make demo` and `make test`. Both create .venv when it is
# missing and (re)install the project when pyproject.toml changed; both are idempotent.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: demo test lint bench thorough fuzz malloc-check mutation gate-noise clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,distributed,linalg]"
	touch $(STAMP)

# The main job on the bundled kernels: Python vs compiled results and times, then jitcheck's
# differential run with timing, writing the JSON, Markdown and HTML reports to reports/.
demo: $(STAMP)
	$(BIN)/python -m benchmarks.demo
	$(BIN)/python -m pytest benchmarks -q -p no:xdist --benchmark-skip --jit-diff --jit-diff-bench \
		--jit-diff-report reports/jit-diff.json --jit-diff-report-md reports/jit-diff.md \
		--jit-diff-report-html reports/jit-diff.html

lint: $(STAMP)
	$(BIN)/ruff check jitcore jitcheck tests benchmarks conftest.py
	$(BIN)/ruff format --check jitcore jitcheck tests benchmarks conftest.py
	$(BIN)/mypy jitcore jitcheck

# Under CI=true the `ci` Hypothesis profile (derandomized) is selected by conftest.py.
# --jit-diff also checks the bundled kernels and the README's examples (pyproject.toml);
# --jit-diff-library every operation of jitcore's registry on corner-biased inputs; 25 examples
# per function and mode keep the whole CI run within 15 minutes on 2 cores (`make thorough`
# and a plain `pytest --jit-diff` take the profile's count).
test: $(STAMP) lint
	$(BIN)/python -m pytest -q -n 2 --jit-diff --jit-diff-library --jit-diff-max-examples 25 \
		$(PYTEST_ARGS)

# Long Hypothesis campaigns: many examples per property; not part of `make test`. The fuzzer's
# test (tests/jitcheck/test_fuzz_campaign.py) runs 10 minutes here instead of 150 programs.
thorough: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --hypothesis-profile=thorough $(PYTEST_ARGS)

# Random programs compiled and compared with Python (jitcheck/fuzz/); each finding is shrunk
# and written as a regression test into reports/fuzz/. `make fuzz MINUTES=60 SEED=3`.
MINUTES ?= 10
SEED ?= 0
fuzz: $(STAMP)
	$(BIN)/python -m jitcheck fuzz --minutes $(MINUTES) --seed $(SEED) --out reports/fuzz

# The array, tuple and memory tests under glibc's heap checks (MALLOC_CHECK_=3 aborts on a
# double free or a write past a block; freed memory is filled with a pattern). About 2 minutes:
# `make test` runs only the runtime's memory tests so (test_runtime_memory.py).
malloc-check: $(STAMP)
	MALLOC_CHECK_=3 MALLOC_PERTURB_=165 PYTHONMALLOC=malloc $(BIN)/python -m pytest -q -p no:xdist \
		tests/jitcore/e2e/test_arrays.py tests/jitcore/test_runtime_memory.py \
		tests/jitcore/e2e/test_memory_safety.py $(PYTEST_ARGS)

# How well jitcheck catches bugs: 31 planted compiler bugs (benchmarks/mutants.py), each
# against `pytest --jit-diff --jit-diff-library` with the default settings (about an hour).
mutation: $(STAMP)
	$(BIN)/python -m benchmarks.mutation --jobs 2

# Whether the timing gate stays quiet on unchanged code beside a CPU hog, and reports a
# planted slowdown of one kernel (benchmarks/slowdown.py: dot_loop:2 is +25%), 5 repeats each.
gate-noise: $(STAMP)
	$(BIN)/python -m benchmarks.gate_noise --repeats 5 --hogs 1
	$(BIN)/python -m benchmarks.gate_noise --repeats 5 --hogs 1 --slow dot_loop:2

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks -q -p no:xdist --benchmark-only --benchmark-json=reports/bench.json $(PYTEST_ARGS)
	$(BIN)/python -m benchmarks.table reports/bench.json

clean:
	rm -rf $(VENV) build *.egg-info reports .benchmarks
