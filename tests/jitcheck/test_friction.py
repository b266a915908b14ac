"""#19's friction fixes: modules beside you import under the `pytest` script, an empty
--jit-diff says why, skips point at the user's function, float differences read as words."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import pytest

from jitcheck.compare import Tolerance, first_difference
from tests.import_graph import ROOT
from tests.jitcheck.support import HEADER, write_module

KERNELS = HEADER + "\n@jit\ndef double(x: float) -> float:\n    return x * 2.0\n"


def _pytest_script(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Run the `pytest` console script (not `python -m pytest`, which puts the current
    directory on sys.path) in the pytester directory."""
    script = Path(sys.executable).with_name("pytest")
    if not script.exists():
        pytest.skip("no pytest console script beside this Python")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        return pytester.run(str(script), "-p", "no:cacheprovider", "-p", "no:xdist", *args)


def test_a_module_beside_you_is_checked_by_the_pytest_script(pytester: pytest.Pytester) -> None:
    (pytester.path / "my_kernels.py").write_text(KERNELS)
    args = ("--jit-diff-module", "my_kernels", "--jit-diff-max-examples=3")
    result = _pytest_script(pytester, *args)
    assert result.ret == pytest.ExitCode.OK, result.stdout.str() + result.stderr.str()
    result.stdout.fnmatch_lines(["*1 passed*"])
    missing = _pytest_script(pytester, "--jit-diff-module", "no_such_kernels")
    assert missing.ret == pytest.ExitCode.USAGE_ERROR
    missing.stderr.fnmatch_lines(["*no_such_kernels: cannot import it*", "*python -m pytest*"])


def test_an_empty_jit_diff_run_says_why_and_how(pytester: pytest.Pytester) -> None:
    (pytester.path / "kernels.py").write_text(KERNELS)  # not a test module: not collected
    result = pytester.runpytest_inprocess("--jit-diff")
    result.stdout.fnmatch_lines(
        ["jitcheck: --jit-diff found no jitted function to check*--jit-diff-module kernels*"]
    )
    checked = pytester.runpytest_inprocess("--jit-diff", "--jit-diff-module=kernels")
    assert "found no jitted function" not in checked.stdout.str()


def test_a_skip_points_at_the_users_function(pytester: pytest.Pytester) -> None:
    body = "\n\n@jit\ndef auto(x: float) -> float:\n    with open('f') as f:\n        return x\n"
    write_module(pytester, "test_unsupported", body)
    result = pytester.runpytest_inprocess("--jit-diff", "-rs", "--jit-diff-max-examples=3")
    result.assert_outcomes(skipped=1)
    line = HEADER.count("\n") + body.count("\n", 0, body.index("@jit")) + 1
    result.stdout.fnmatch_lines([f"SKIPPED [[]1[]] test_unsupported.py:{line}: jitcore cannot*"])
    assert "jitcheck/" not in result.stdout.str()


@pytest.mark.parametrize(
    ("python", "compiled", "words"),
    [
        (1.5, 1.5000000000000004, "relative error 2.96e-16, 2 ulps apart"),
        (1.5, -1.5, "opposite signs, relative error 2"),
        (2.0, 0.0, "relative error 1, compiled is 0"),
        (0.0, 1e-300, "compiled is nonzero where python is 0"),
        (math.inf, 1.0, "python is infinite, compiled finite (overflow on one side only)"),
        (1.0, -math.inf, "compiled is infinite, python finite"),
        (math.inf, -math.inf, "infinities of opposite signs"),
        (math.nan, 1.0, "NaN on one side only (python)"),
    ],
)
def test_float_differences_read_as_words(python: float, compiled: float, words: str) -> None:
    diff = first_difference(python, compiled, Tolerance(ulps=0))
    assert diff is not None and words in diff.detail
    assert "4611686018427387904" not in diff.detail
