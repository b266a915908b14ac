# ruff: noqa  (generated code: unused variables and redundant parentheses are normal)
"""Found by `python -m jitcheck fuzz` (batch seed 2001), shrunk by Hypothesis.

    internal error: InternalCompilerError: IR verification failed after `lower` in f:
    `rc.10 = decref t75 : none`: uses t75, defined in ok.8, which does not dominate

A library kernel call (`np.cumsum`) inside a `try` body: the exception a failed call returns
(`callstatus`) was taken for a pointer into the call's result, so the result counted as live
in the handler and was released where it does not exist (fixed in refcount). Redundant
statements deleted by hand.
"""

import math

import numpy as np

from jitcheck.fuzz import assert_compiled_matches_python


def f(p0):
    v7 = p0 * 0.5
    try:
        v10 = np.cumsum(v7)
    except ZeroDivisionError:
        v11 = 0
    return 0.0


ARGS = (np.array([], dtype=np.int64).reshape((0,)),)


def test_fuzz_b95f01ea8f() -> None:
    assert_compiled_matches_python(f, ARGS)


def g(p0):
    total = 0.0
    try:
        total = float(np.cumsum(p0)[-1])
    except IndexError:
        total = -1.0
    return total


def test_a_kernel_call_in_try_keeps_its_result_and_frees_it() -> None:
    from jitcore import runtime

    assert_compiled_matches_python(g, (np.arange(4.0),))
    assert_compiled_matches_python(g, (np.zeros(0),))  # IndexError caught
    before = runtime.live_bytes()
    assert_compiled_matches_python(g, (np.arange(4.0),))
    assert runtime.live_bytes() == before
