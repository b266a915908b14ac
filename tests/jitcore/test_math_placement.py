"""Where compiled code computes exp by the C library and where inline (`codegen.mathfns`):
inline where the loop may vectorize, the C library's where each result is awaited (a loop
recurrence) or tested by a branch that raises (math.exp's OverflowError). Either way the
result is Python's to the tolerance, and exactly math.exp's where the C library computes it."""

from __future__ import annotations

import math
import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit


@jit(mode="compiled")
def exp_chain(x: float, n: int) -> float:
    for _ in range(n):
        x = math.exp(-x)
    return x


@jit(mode="compiled")
def exp_sum(a: np.ndarray) -> float:
    s = 0.0
    for i in range(a.shape[0]):
        s += math.exp(a[i])
    return s


@jit(mode="compiled")
def exp_elementwise(a: np.ndarray, out: np.ndarray) -> None:
    for i in range(a.shape[0]):
        out[i] = np.exp(a[i])


def _calls_the_c_library(f: object) -> bool:
    return "@llvm.exp.f64" in f.inspect("llvm-opt")  # type: ignore[attr-defined]


def test_a_recurrence_calls_the_c_library_exp() -> None:
    assert exp_chain(0.5, 3) == exp_chain.py_func(0.5, 3)
    assert _calls_the_c_library(exp_chain)


def test_an_exp_tested_by_a_raise_calls_the_c_library_exp() -> None:
    a = np.linspace(-5.0, 5.0, 11)
    assert exp_sum(a) == exp_sum.py_func(a)
    assert _calls_the_c_library(exp_sum)


def test_an_exp_that_may_vectorize_stays_inline() -> None:
    """The loop vectorizes with the inline exp. (Its checked copy, which runs only when an
    index is out of range, calls the C library's: `jitcore.loopversion`.)"""
    a, out = np.linspace(-5.0, 5.0, 11), np.empty(11)
    exp_elementwise(a, out)
    np.testing.assert_allclose(out, np.exp(a), rtol=4e-16)
    optimized = exp_elementwise.inspect("llvm-opt")
    assert re.search(r"^vector\.body:", optimized, re.M)
    assert not re.search(r"call <\d+ x double> @llvm\.exp", optimized)


@given(st.floats(-800.0, 800.0) | st.sampled_from([math.nan, math.inf, -math.inf, -0.0]))
def test_the_c_library_exp_is_math_exp_exactly(x: float) -> None:
    @jit(mode="compiled")
    def one(x: float) -> float:
        y = x
        for _ in range(1):
            y = math.exp(y) if y < 709.0 else y
        return y

    expected = one.py_func(x)
    got = one(x)
    assert got == expected or (math.isnan(got) and math.isnan(expected))


def test_math_exp_overflow_still_raises_through_the_c_library() -> None:
    a = np.array([1.0, 1000.0])
    try:
        exp_sum(a)
    except OverflowError as exc:
        assert str(exc) == "math range error"
    else:
        raise AssertionError("no OverflowError")
