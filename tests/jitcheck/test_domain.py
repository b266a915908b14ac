"""Out of the compiled domain: only the documented differences are excused (matched by type
and message), and a check that rejects most of its examples fails."""

from __future__ import annotations

import pytest

from tests.jitcheck.support import function, run, write_module

EARLY_OVERFLOW = """
import math

from tests.jitcheck.fake_dispatcher import fake


def _exp(x: float) -> float:
    return math.exp(x)


def _exp_float32_limit(x):
    if x > 88.7:  # the "miscompilation": exp overflows at the float32 limit
        raise OverflowError("math range error")
    return math.exp(x)


exp = jitcheck(x=st.floats(-50, 700))(fake(_exp, _exp_float32_limit))
"""

TOO_BIG = """
@jitcheck(x=st.floats(1e18, 1e25))
@jit
def to_int(x: float) -> int:
    return int(x)
"""


def test_an_overflow_error_that_is_not_documented_is_a_difference(
    pytester: pytest.Pytester,
) -> None:
    write_module(pytester, "test_k", EARLY_OVERFLOW)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=60")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "`exp` disagrees with Python in mode O3",
            "  python: *",
            "  O3: * raised OverflowError: math range error",
        ]
    )
    assert function(report, "exp")["diff"]["rejected"] == 0


def test_a_check_that_rejects_most_examples_fails(pytester: pytest.Pytester) -> None:
    # int(x) beyond int64 is out of the domain (rejected), and most of these floats are
    write_module(pytester, "test_k", TOO_BIG)
    result, report = run(pytester, "--jit-diff", "--jit-diff-max-examples=40")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "* of * examples of `to_int` were out of the compiled domain (*%, at most 50% "
            "allowed: * int result beyond int64*",
        ]
    )
    record = function(report, "to_int")
    assert record["diff"]["rejected_by_reason"]["int result beyond int64"] > 0
    relaxed, _ = run(pytester, "--jit-diff", "--jit-diff-max-examples=40",
                     "--jit-diff-max-rejected=100%", "--jit-diff-min-returned=0")  # fmt: skip
    relaxed.assert_outcomes(passed=1)
