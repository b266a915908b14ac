"""Project-wide pytest configuration: Hypothesis profiles and the IR verifier.

Profiles (choose with `--hypothesis-profile NAME`):

* `dev` (default): quick, for the edit-test loop.
* `ci`: derandomized so a CI run is reproducible; selected automatically when `CI=true`.
* `thorough`: many examples, for long campaigns (`make thorough`).

Every profile disables the deadline: the first call of a jitted function compiles it.

The suite tests compiled code, so it refuses to run with `JITCORE_DISABLE_JIT=1` (every jitted
function would run as Python and compare with itself): the session stops with a usage error,
unless `--jit-disabled-ok` says the run is about that flag. And `JitFallbackWarning` is an
error in every test (`filterwarnings` in pyproject.toml): no test passes by running as Python.
"""

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from jitcore import ExecutionMode, JitOptions
from jitcore.options import options_from_env

# jitcheck's own tests run child pytest sessions through the `pytester` fixture.
pytest_plugins = ["pytester"]

_COMMON: dict[str, Any] = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=40, **_COMMON)
settings.register_profile("ci", max_examples=60, derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("thorough", max_examples=2000, **_COMMON)
# Reruns of whole test files in a child process (the heap-checked run): a few examples each.
settings.register_profile("rerun", max_examples=10, derandomize=True, **_COMMON)
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "dev")

# Tests run with the IR verifier on between stages and passes (DESIGN.md section 2).
os.environ.setdefault("JITCORE_DEBUG", "1")
# ... and test the final code: without this, a first call on small arguments gets first-tier
# code (`jitcore.tiering`), which computes the same but is not the code that runs long.
# tests/jitcore/test_tiering.py and benchmarks/test_compile.py turn tiering back on.
os.environ.setdefault("JITCORE_TIERED", "0")


def pytest_addoption(parser):  # type: ignore[no-untyped-def]
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite the golden IR listings under tests/jitcore/golden/ from the current output",
    )
    parser.addoption(
        "--jit-disabled-ok",
        action="store_true",
        default=False,
        help="run although JITCORE_DISABLE_JIT=1 (only for runs about that flag itself)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if compiler_disabled() and not config.getoption("--jit-disabled-ok"):
        raise pytest.UsageError(DISABLED_JIT_MESSAGE)


DISABLED_JIT_MESSAGE = (
    "JITCORE_DISABLE_JIT is set: every jitted function would run as Python, and tests that "
    "compare compiled code with Python would compare Python with itself. Unset it to test "
    "jitcore, or pass --jit-disabled-ok for a run about the flag itself."
)


def compiler_disabled() -> bool:
    """True if even `jit(mode="compiled")` would run as Python here: jitcore's own reading of
    the environment decides, so this and the flag never disagree about what counts as set."""
    forced = options_from_env(JitOptions(mode=ExecutionMode.COMPILED))
    return forced.mode is ExecutionMode.PYTHON
