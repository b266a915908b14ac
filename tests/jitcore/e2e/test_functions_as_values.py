"""Nested `def` and `lambda` (closures, inlined), and plain module-level functions compiled
implicitly, compiled against Python on Hypothesis inputs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jitcore
from jitcore import UnsupportedError, jit
from tests.jitcore.support import assert_same, assert_same_arrays

small = st.integers(-20, 20)
vectors = hnp.arrays(np.float64, st.integers(0, 8), elements=st.floats(-100, 100))


def lambdas(x: int, k: int) -> tuple:
    g = lambda y, z=2: y * k + z  # noqa: E731 - what users write
    return g(x), g(x, z=5), g(z=1, y=x), (lambda q: q + 1)(x)


@given(small, small)
def test_lambdas_capture_and_take_defaults(x: int, k: int) -> None:
    assert_same(lambdas, x, k)


def nested_def(a: np.ndarray, k: float) -> tuple:
    def weighted(v, off=0.0):  # noqa: ANN001, ANN202
        s = 0.0
        for i in range(len(v)):
            if v[i] < -50:
                return s - 1000.0
            s += v[i] * k
        return s + off

    x = 3

    def shadow(y):  # noqa: ANN001, ANN202 - its `x` is its own
        x = y * 2
        return x

    return weighted(a), weighted(a, off=1.5), shadow(5), x


@given(vectors, st.floats(-10, 10))
def test_nested_def_with_loops_returns_and_own_locals(a: np.ndarray, k: float) -> None:
    assert_same_arrays(nested_def, a, k)


def closure_sees_current_value(n: int) -> int:
    total = 0
    step = 1
    bump = lambda t: t + step  # noqa: E731
    for _ in range(n):
        total = bump(total)
        step += 1
    return total


@given(st.integers(0, 30))
def test_closures_read_variables_at_the_call(n: int) -> None:
    assert_same(closure_sees_current_value, n)


def nested_raises(x: int) -> int:
    def check(v):  # noqa: ANN001, ANN202
        if v < 0:
            raise ValueError("negative")
        return v * 2

    try:
        return check(x) + check(x - 5)
    except ValueError:
        return -1


@given(small)
def test_nested_function_raises_into_the_callers_try(x: int) -> None:
    assert_same(nested_raises, x)


# --- plain functions compiled implicitly --------------------------------------------------


def plain_helper(v: float, p: int) -> float:
    s = 1.0
    for _ in range(p):
        s *= v
    return s


def plain_recursive(n: int) -> int:
    if n < 2:
        return n
    return plain_recursive(n - 1) + plain_recursive(n - 2)


def uses_plain(x: float, n: int) -> tuple:
    return plain_helper(x, 3) + 1.0, plain_recursive(n)


@given(st.floats(-10, 10), st.integers(0, 15))
def test_plain_functions_are_compiled_implicitly(x: float, n: int) -> None:
    assert_same(uses_plain, x, n)


@jitcore.python_only
def opted_out(x: float) -> float:
    return x + 1.0


def calls_opted_out(x: float) -> float:
    return opted_out(x)


# --- errors ------------------------------------------------------------------------------


def passes_nested(x: float) -> float:
    def g(y):  # noqa: ANN001, ANN202
        return y + x  # reads the caller's `x`: a closure, which cannot be passed

    return plain_helper(g, 2)  # type: ignore[arg-type]


def passes_reading_lambda(xs: list, k: int) -> list:
    return sorted(xs, key=lambda v: v % k)


def recursive_nested(n: int) -> int:
    def fact(k):  # noqa: ANN001, ANN202
        return 1 if k < 2 else k * fact(k - 1)

    return fact(n)


@pytest.mark.parametrize(
    "func, words",
    [
        (calls_opted_out, "python_only"),
        (passes_nested, "nested function `g` reads `x` of the function around it"),
        (recursive_nested, "nested function `fact` calls itself"),
    ],
)
def test_unsupported_function_uses_are_explained(func, words) -> None:  # noqa: ANN001
    with pytest.raises(UnsupportedError) as info:
        jit(mode="compiled")(func)(1)
    assert words in str(info.value) and "hint: " in str(info.value)


def test_a_lambda_reading_a_local_cannot_be_passed() -> None:
    with pytest.raises(UnsupportedError, match="reads `k`") as info:
        jit(mode="compiled")(passes_reading_lambda)([3, 1, 2], 2)
    assert "pass `k` to it as an argument" in str(info.value)


# --- nested functions and lambdas passed as values ------------------------------------------

SCALE = 3.0


def apply_twice(f, a):  # noqa: ANN001, ANN201 - plain: compiled implicitly
    return f(f(a))


def passes_functions(a: np.ndarray, x: float) -> tuple:
    def halve(v):  # noqa: ANN001, ANN202 - reads only its parameter and globals
        return v * 0.5

    return (
        apply_twice(lambda v: v * SCALE + 1.0, a),
        apply_twice(halve, x),
        bisect(lambda t: t * t - SCALE, 0.0, 4.0),
        apply_twice(np.sqrt, np.abs(a)),
    )


@given(vectors, st.floats(-1e3, 1e3))
def test_lambdas_and_nested_defs_that_read_no_locals_are_passed(a: np.ndarray, x: float) -> None:
    assert_same_arrays(passes_functions, a, x)


# --- functions passed as arguments --------------------------------------------------------


@jit
def shifted_square(x: float) -> float:
    return x * x - 2.0


def cubic(x: float) -> float:  # plain: compiled implicitly when passed
    return x * x * x - 3.0


@jit
def bisect(f, lo: float, hi: float) -> float:  # noqa: ANN001
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if f(lo) * f(mid) <= 0:
            hi = mid
        else:
            lo = mid
    return lo


def roots(hi: float) -> tuple:
    return (
        bisect(shifted_square, 0.0, hi),
        bisect(cubic, 0.0, hi),
        bisect(np.cos, 0.0, hi),
        bisect(f=shifted_square, lo=0.0, hi=hi),
    )


@given(st.floats(0.5, 8.0))
def test_functions_passed_from_compiled_code(hi: float) -> None:
    assert_same(roots, hi)


def test_functions_passed_from_python_get_a_specialization_each() -> None:
    f = jit(mode="compiled")(bisect.py_func)
    assert f(shifted_square, 0.0, 2.0) == bisect.py_func(shifted_square, 0.0, 2.0)
    assert f(cubic, 0.0, 2.0) == bisect.py_func(cubic, 0.0, 2.0)
    assert f(np.cos, 0.0, 2.0) == bisect.py_func(np.cos, 0.0, 2.0)
    assert len(f._frozen_variants) == 3


def rebinds_a_lambda(x):  # noqa: ANN001, ANN201
    if x > 0:
        f = lambda t: t + 1  # noqa: E731
    else:
        f = lambda t: t - 1  # noqa: E731
    return f(x)  # which lambda depends on the path: refused, not guessed


def test_a_name_bound_to_two_nested_functions_is_refused() -> None:
    with pytest.raises(UnsupportedError, match="bound to a second nested function"):
        jit(rebinds_a_lambda, mode="compiled")(3)


def test_auto_mode_falls_back_with_the_function_argument_kept() -> None:
    """A lambda passed from Python cannot be compiled (its source is not a `def`): the
    fallback to Python must still pass it."""
    import warnings

    f = jit(bisect.py_func)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", jitcore.JitFallbackWarning)
        got = f(lambda t: t * t - 2.0, 0.0, 2.0)  # noqa: E731
    assert got == bisect.py_func(lambda t: t * t - 2.0, 0.0, 2.0)


def optional_callee(v=None):  # noqa: ANN001, ANN201
    if v is None:
        return -1.0
    return 1.0 / v  # a Python float: ZeroDivisionError at 0.0


def passes_an_optional_float(x):  # noqa: ANN001, ANN201
    v = None
    if x >= 0:
        v = x * 1.0
    return optional_callee(v)


@given(st.sampled_from([2, 0, -3]))
def test_an_optional_python_number_keeps_pythons_rules_in_a_callee(x: int) -> None:
    assert_same(passes_an_optional_float, x)  # ZeroDivisionError at 0, as Python


def passes_a_varargs_lambda(x):  # noqa: ANN001, ANN201
    return plain_helper(lambda *args: args[0] + 1, x)  # type: ignore[arg-type]


def test_a_lambda_with_star_args_passed_as_a_value_is_explained() -> None:
    with pytest.raises(UnsupportedError, match="\\*args"):
        jit(passes_a_varargs_lambda, mode="compiled")(1)
