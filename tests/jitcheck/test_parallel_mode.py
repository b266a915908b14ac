"""jitcheck's `parallel` mode: `--jit-diff-modes parallel` compiles each function with
`parallel=True` and compares it with Python under the fast-math tolerance."""

from __future__ import annotations

import pytest

from jitcheck.modes import resolve_modes
from jitcore import jit
from tests.jitcheck.support import function, run, write_module

KERNELS = """
from jitcore import prange


@jitcheck(shapes="a:(n,)")
@jit
def total_and_count(a: Array[np.float64, 1], t: float) -> tuple:
    s = 0.0
    n = 0
    for i in prange(a.shape[0]):
        s += a[i]
        if a[i] > t:
            n += 1
    return s, n


@jit
def wrong_when_parallel(a: Array[np.int64, 1]) -> int:
    # the last iteration's value: a race under parallel=True, so the outliner refuses it
    last = 0
    for i in prange(a.shape[0]):
        last = a[i]
    return last
"""


def test_parallel_is_a_mode_compared_with_the_fastmath_tolerance() -> None:
    own, par = resolve_modes(jit(lambda x: x).options, ["parallel"])
    assert (own.label, par.label) == ("O3", "O3+parallel")
    assert par.changes == {"parallel": True} and par.fastmath and not own.fastmath


def test_jit_diff_runs_the_parallel_mode(pytester: pytest.Pytester) -> None:
    write_module(pytester, "test_par", KERNELS)
    result, report = run(
        pytester, "--jit-diff", "--jit-diff-max-examples=10", "--jit-diff-modes=parallel"
    )
    checked = function(report, "total_and_count")
    assert checked["modes"] == ["O3", "O3+parallel"]
    assert function(report, "wrong_when_parallel")["outcome"] == "failed"
    assert "assigned in a prange loop and read after it" in result.stdout.str()
    assert result.ret != 0  # the refused function fails the run, with the reason
