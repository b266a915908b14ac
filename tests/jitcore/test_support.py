"""The test helpers compare through jitcheck's policy, and no test passes with the compiler off.

`tests/jitcore/support.py` wraps `jitcheck.compare`; these tests check that its failures are
jitcheck's, that a call which ran as Python fails, and that the suite refuses to run at all
under `JITCORE_DISABLE_JIT=1` unless told the run is about that flag.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import UnsatisfiedAssumption

from tests.jitcore.support import assert_same, assert_same_arrays

ROOT = Path(__file__).resolve().parents[2]
SCALE = 2  # read once, at compile time (README: globals are frozen)


def scaled(x: int) -> int:
    return SCALE * x


def fill(a: np.ndarray) -> float:
    total = 0.0
    for i in range(a.shape[0]):
        a[i] = i * 0.5
        total += a[i]
    return total


def test_a_difference_fails_with_jitchecks_description() -> None:
    global SCALE
    assert assert_same(scaled, 21) == 42
    SCALE = 3  # Python sees the new value, the compiled specialization the old one
    try:
        with pytest.raises(
            AssertionError, match=r"scaled\(x=21\): result: python 63, compiled 42"
        ):
            assert_same(scaled, 21)
    finally:
        SCALE = 2


def test_arrays_written_by_the_kernel_are_compared_and_returned() -> None:
    a = np.full(4, np.nan)
    assert assert_same_arrays(fill, a) == 3.0
    assert np.isnan(a).all()  # each side ran on its own copy


@given(st.just(2**62))
@settings(max_examples=1, database=None)
def test_results_beyond_int64_are_rejected_as_the_plugin_rejects_them(x: int) -> None:
    with pytest.raises(UnsatisfiedAssumption):
        assert_same(scaled, x)


def test_outside_hypothesis_an_example_beyond_int64_fails() -> None:
    with pytest.raises(AssertionError, match="outside the compiled domain: int result beyond"):
        assert_same(scaled, 2**62)


DISABLED_JIT_TEST = """
from tests.jitcore.support import assert_same


def twice(x):
    return 2 * x


def test_twice():
    assert_same(twice, 21)
"""


def test_a_compiled_vs_python_test_fails_when_the_compiler_is_disabled(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_disabled=DISABLED_JIT_TEST)
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    monkeypatch.setenv("JITCORE_DISABLE_JIT", "1")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*twice(i64,) ran without being compiled (mode python)*"])


def _pytest(*args: str, disabled: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "JITCORE_DISABLE_JIT"}
    if disabled:
        env["JITCORE_DISABLE_JIT"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_suite_refuses_to_run_with_the_compiler_disabled() -> None:
    here = str(Path(__file__).relative_to(ROOT))
    refused = _pytest("--co", here, disabled=True)
    assert refused.returncode == pytest.ExitCode.USAGE_ERROR, refused.stdout + refused.stderr
    assert "JITCORE_DISABLE_JIT is set" in refused.stderr
    allowed = _pytest("--co", "--jit-disabled-ok", here, disabled=True)
    assert allowed.returncode == pytest.ExitCode.OK, allowed.stdout + allowed.stderr
