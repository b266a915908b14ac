"""Regressions of issue #12's typing and operator items: each case runs compiled and as Python
(`tests/jitcore/support.py`, jitcheck's comparison) at opt=0 and opt=3, with Hypothesis inputs
where the item is about a range of values. The item number is in each test's name."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import jit
from tests.jitcore.support import assert_same, assert_same_arrays

OPTS = pytest.mark.parametrize("opt", [0, 3])
floats = st.floats(allow_nan=True, allow_infinity=True)
divisors = st.sampled_from([0.0, -0.0]) | st.floats(-10, 10)

# --- item 5: Python numbers stay Python numbers through every operation, call and phi ------


@jit
def _plus_one(i):  # noqa: ANN001, ANN202
    return i + 1


@jit
def _first(a):  # noqa: ANN001, ANN202
    return a[0]


def sin_over(x, y):  # noqa: ANN001, ANN201
    return math.sin(x) / y


def helper_floordiv_zero(i):  # noqa: ANN001, ANN201
    return _plus_one(i) // 0


def numpy_helper_over_zero(a):  # noqa: ANN001, ANN201
    return _first(a) / 0.0  # a NumPy scalar from the callee: inf, no exception


def plus_true_floordiv_zero(x):  # noqa: ANN001, ANN201
    return (x + True) // 0


def sqrt_pow(x):  # noqa: ANN001, ANN201
    return math.sqrt(x) ** 400.0


def floor_negative_power():  # noqa: ANN201
    return math.floor(2.5) ** -3


def float32_plus_sqrt(a32):  # noqa: ANN001, ANN201
    return a32[0] + math.sqrt(2.0)


def pick(a, b, c):  # noqa: ANN001, ANN201
    return a + b + c


def mixed_tuple(x, a):  # noqa: ANN001, ANN201
    return (x, a[0], (x * 2.0, a[0] * 2.0))


def python_float_phi(x, y, b):  # noqa: ANN001, ANN201
    s = x
    if b:
        s = math.cos(x)  # a Python float on both paths
    return s / y


def constant_pi_keeps_float32(a32):  # noqa: ANN001, ANN201
    return a32[0] * math.pi


@OPTS
@given(x=floats, y=divisors)
def test_item5_math_result_divided_by_zero_raises(opt: int, x: float, y: float) -> None:
    assert_same(sin_over, x, y, opt=opt)


@OPTS
@given(i=st.integers(-1000, 1000))
def test_item5_jitted_callee_returns_python_int(opt: int, i: int) -> None:
    assert_same(helper_floordiv_zero, i, opt=opt)


@OPTS
def test_item5_jitted_callee_returns_numpy_scalar(opt: int) -> None:
    assert_same_arrays(numpy_helper_over_zero, np.array([1.5, 2.0]), opt=opt)


@OPTS
@given(x=st.integers(-1000, 1000))
def test_item5_int_plus_bool_floordiv_zero(opt: int, x: int) -> None:
    assert_same(plus_true_floordiv_zero, x, opt=opt)


@OPTS
@given(x=st.floats(0.0, 1e300))
def test_item5_python_float_power_overflows(opt: int, x: float) -> None:
    assert_same(sqrt_pow, x, opt=opt)


@OPTS
def test_item5_math_floor_to_negative_power(opt: int) -> None:
    assert_same(floor_negative_power, opt=opt)


@OPTS
@given(v=st.floats(-1e6, 1e6, width=32))
def test_item5_float32_element_plus_python_float_stays_float32(opt: int, v: float) -> None:
    result = assert_same_arrays(float32_plus_sqrt, np.array([v], dtype=np.float32), opt=opt)
    assert type(result) is np.float32
    result = assert_same_arrays(constant_pi_keeps_float32, np.array([v], np.float32), opt=opt)
    assert type(result) is np.float32


@OPTS
def test_item5_numpy_result_is_returned_as_a_numpy_scalar(opt: int) -> None:
    result = assert_same(pick, np.uint16(4), np.uint16(4), 2.5, opt=opt)
    assert type(result) is np.float64
    x, first, (x2, first2) = assert_same_arrays(mixed_tuple, 1.5, np.array([2.5]), opt=opt)
    assert (type(x), type(first), type(x2), type(first2)) == (float, np.float64, float, np.float64)


@OPTS
@given(x=floats, y=divisors, b=st.booleans())
def test_item5_python_float_through_a_phi(opt: int, x: float, y: float, b: bool) -> None:
    assert_same(python_float_phi, x, y, b, opt=opt)


# --- item 7: int() and math.ceil() of a NumPy scalar are Python ints ----------------------


def int_of_element_times(a32):  # noqa: ANN001, ANN201
    return int(a32[0]) * 100000


def ceil_of_element_plus(a32):  # noqa: ANN001, ANN201
    return math.ceil(a32[0]) + 2**40


@OPTS
@given(v=st.integers(-(2**31), 2**31 - 1))
def test_item7_int_of_numpy_int_is_a_python_int(opt: int, v: int) -> None:
    result = assert_same_arrays(int_of_element_times, np.array([v], dtype=np.int32), opt=opt)
    assert type(result) is int


@OPTS
@given(v=st.integers(-(2**24), 2**24), dtype=st.sampled_from(["float32", "int32", "uint8"]))
def test_item7_ceil_of_numpy_scalar_is_a_python_int(opt: int, v: int, dtype: str) -> None:
    a = np.array([v]).astype(dtype)
    result = assert_same_arrays(ceil_of_element_plus, a, opt=opt)
    assert type(result) is int
