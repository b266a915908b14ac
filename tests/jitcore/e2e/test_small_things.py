"""Small things a user hits: tuple ordering and slicing, math.frexp/ldexp, np.iinfo/np.finfo,
`a.dtype` as a dtype argument, and returns of different kinds of numbers; compiled against
Python on Hypothesis inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import TypingError, jit
from tests.jitcore.support import assert_same, assert_same_arrays

small = st.integers(-5, 5)
floats = st.floats(allow_nan=True, allow_infinity=True)


def tuple_order(a: int, b: int, x: float) -> tuple:
    return (
        (a, 1) < (b, 2),
        (a, b) >= (b, a),
        (a,) <= (a, b),
        (a, x) > (b, x),
        (x, a) < (x, b),  # a NaN x is not equal to itself: it decides (False)
    )


@given(small, small, floats)
def test_tuple_ordering(a: int, b: int, x: float) -> None:
    assert_same(tuple_order, a, b, x)


def tuple_slices(x: int, y: float) -> tuple:
    t = (x, 2, y, x + 1)
    return t[1:], t[:-1], t[::-1], t[1:3], t[::2], t[5:]


@given(small, floats)
def test_tuple_static_slices(x: int, y: float) -> None:
    assert_same(tuple_slices, x, y)


@jit
def first_and_rest(t):  # noqa: ANN001, ANN201
    return t[0], t[1:]


def tuples_holding_strings(x: int, y: float, d: int) -> tuple:
    """The numbers of a tuple that holds a string stay Python numbers when it is sliced or
    concatenated (they once became NumPy scalars: `u[1] / 0.0` gave inf, not Python's
    ZeroDivisionError)."""
    t = (x, y, "s", None)
    u = t[:2] + t[2:] + (x,)
    v = (("a", x), y)[:1] + t[1::2]
    w = first_and_rest(t)
    return t[1:], u, v, w, u[0] // d, v[0][1] % d, v[1] / d, w[1][0] / d, (x, "s")[0] / d


@given(small, floats, st.integers(-1, 1))
def test_python_numbers_in_tuples_holding_strings(x: int, y: float, d: int) -> None:
    assert_same(tuples_holding_strings, x, y, d)
    if d:
        result = jit(tuples_holding_strings, mode="compiled")(x, y, d)
        assert [type(v) for v in result[1]] == [int, float, str, type(None), int]
        assert type(result[4]) is int and type(result[6]) is float


def frexp_ldexp(x: float, i: int) -> tuple:
    m, e = math.frexp(x)
    return m, e, math.ldexp(m, e), math.ldexp(x, i)


@given(floats, st.integers(-1100, 1100))
def test_frexp_and_ldexp(x: float, i: int) -> None:
    assert_same(frexp_ldexp, x, i)  # OverflowError beyond the float range, as Python


def int_float_info(a: np.ndarray) -> tuple:
    return (
        np.iinfo(np.int32).max,
        np.iinfo(np.int8).min,
        np.finfo(np.float64).eps,
        np.finfo(a.dtype).tiny,
        np.finfo(np.float32).max,
    )


@given(st.sampled_from([np.float32, np.float64]))
def test_iinfo_finfo_attributes(dtype: type) -> None:
    assert_same_arrays(int_float_info, np.ones(2, dtype))


def like_dtype(a: np.ndarray, n: int) -> np.ndarray:
    out = np.empty(n, dtype=a.dtype)
    for i in range(n):
        out[i] = i
    return out


@given(hnp.arrays(st.sampled_from([np.float32, np.int16, np.int64]), 3), st.integers(0, 6))
def test_a_dtype_as_dtype_argument(a: np.ndarray, n: int) -> None:
    assert_same_arrays(like_dtype, a, n)


def bool_and_tuple_returns(a: int) -> tuple:
    ok = a < 3
    if a > 0:
        return (True, a)
    return (ok, -a)


@given(small)
def test_bools_in_returned_tuples_stay_bools(a: int) -> None:
    assert_same(bool_and_tuple_returns, a)


def int_or_float(x: float) -> float:
    if x > 0:
        return 1
    return x * 2.5


def bool_or_float(x: int) -> float:
    if x > 0:
        return True
    return x * 0.5


def same_kind(x: float) -> float:
    if x > 0:
        return 1.0
    return x * 2.5


@pytest.mark.parametrize("func", [int_or_float, bool_or_float])
def test_returns_of_different_kinds_are_typing_errors(func) -> None:  # noqa: ANN001
    with pytest.raises(TypingError) as info:
        jit(mode="compiled")(func)(1)
    assert "on one path" in str(info.value) and "hint: " in str(info.value)


@given(floats)
def test_returns_of_one_kind_compile(x: float) -> None:
    assert_same(same_kind, x)
