"""Regressions of issue #12's typing and operator items: each case runs compiled and as Python
(`tests/jitcore/support.py`, jitcheck's comparison) at opt=0 and opt=3, with Hypothesis inputs
where the item is about a range of values. The item number is in each test's name."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import UnsupportedError, jit
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


# --- item 6: shifts of bools are shifts of ints --------------------------------------------


def bool_shifts(p, q):  # noqa: ANN001, ANN201
    return p << q, p >> q, True << True, True >> True


@OPTS
@given(p=st.booleans(), q=st.booleans())
def test_item6_bool_shifts_give_ints(opt: int, p: bool, q: bool) -> None:
    assert assert_same(bool_shifts, p, q, opt=opt) == (p << q, p >> q, 2, 0)


# --- item 8: out-of-range Python ints given to NumPy raise OverflowError ------------------


def add_python_int(a, n):  # noqa: ANN001, ANN201
    return np.add(a, n)


def make_int8(n):  # noqa: ANN001, ANN201
    return np.int8(n)


def make_uint16(x):  # noqa: ANN001, ANN201
    return np.uint16(x)


def make_int32_constant():  # noqa: ANN201
    return np.int32(3_000_000_000)


def numpy_scalar_floordiv(a, n):  # noqa: ANN001, ANN201
    return a[0] // n


@OPTS
@given(n=st.integers(-(2**40), 2**40))
def test_item8_python_int_out_of_range_for_numpy(opt: int, n: int) -> None:
    assert_same_arrays(add_python_int, np.arange(3, dtype=np.int32), n, opt=opt)
    assert_same(make_int8, n, opt=opt)
    assert_same_arrays(numpy_scalar_floordiv, np.array([7], dtype=np.int16), n, opt=opt)


@OPTS
@given(x=st.floats(-1e6, 1e6) | st.sampled_from([math.inf, -math.inf, math.nan, -1.0, 65535.9]))
def test_item8_python_float_to_numpy_int(opt: int, x: float) -> None:
    assert_same(make_uint16, x, opt=opt)


@OPTS
def test_item8_constant_out_of_range(opt: int) -> None:
    assert_same(make_int32_constant, opt=opt)


# --- item 9: NumPy shifts by a negative count give 0 --------------------------------------


def shift_element(a, n):  # noqa: ANN001, ANN201
    return a[0] << n, a[0] >> n


@OPTS
@given(v=st.integers(-100, 100), n=st.integers(-70, 70))
def test_item9_numpy_int_shift_by_negative_count(opt: int, v: int, n: int) -> None:
    assert_same_arrays(shift_element, np.array([v]), n, opt=opt)


# --- items 11, 12: passes keep every observable error, in order ---------------------------


def power_then_floordiv(a, k):  # noqa: ANN001, ANN201
    return np.power(0, a) * (1 // k)


def power_then_index(a):  # noqa: ANN001, ANN201
    return np.power(0, a) * a[3]


def unused_checked_and(k):  # noqa: ANN001, ANN201
    v = k & np.int32(3)  # noqa: F841 - NumPy raises OverflowError for k beyond int32
    return 0


@OPTS
@given(e=st.integers(-2, 2), k=st.integers(-1, 1))
def test_item11_fusion_keeps_the_first_error_first(opt: int, e: int, k: int) -> None:
    assert_same_arrays(power_then_floordiv, np.array([e, 1]), k, opt=opt)
    assert_same_arrays(power_then_index, np.array([e]), opt=opt)


@OPTS
@given(k=st.integers(-(2**63), 2**63 - 1))
def test_item12_dce_keeps_a_check_that_raises(opt: int, k: int) -> None:
    assert_same(unused_checked_and, k, opt=opt)


# --- item 16: a Python int and a Python float compare exactly -----------------------------


def int_float_compare(n, x):  # noqa: ANN001, ANN201
    return n == x, n != x, n < x, n <= x, n > x, n >= x, x < n, x == n


def big_int_constants():  # noqa: ANN201
    return 2**53 + 1 == float(2**53 + 1), (2**53 + 1) == 2.0**53


def numpy_int_vs_python_int(a):  # noqa: ANN001, ANN201
    return a[0] == 2**32, a[0] < -1, a[0] > 2**40, a[0] != -(2**40)


near_2_53 = st.integers(2**53 - 4, 2**53 + 4) | st.integers(-(2**63), 2**63 - 1)


@OPTS
@given(n=near_2_53, x=st.floats() | near_2_53.map(float))
def test_item16_int_float_comparison_is_exact(opt: int, n: int, x: float) -> None:
    assert_same(int_float_compare, n, x, opt=opt)


@OPTS
def test_item16_constants(opt: int) -> None:
    assert assert_same(big_int_constants, opt=opt) == (False, False)


@OPTS
@given(v=st.integers(0, 100), dtype=st.sampled_from(["int32", "uint8", "uint64", "int64"]))
def test_item16_numpy_int_vs_out_of_range_python_int(opt: int, v: int, dtype: str) -> None:
    assert_same_arrays(numpy_int_vs_python_int, np.array([v]).astype(dtype), opt=opt)


# --- items 17, 21: floor/ceil/trunc/rint of ints and bools ---------------------------------


def rounding(a):  # noqa: ANN001, ANN201
    return np.floor(a), np.ceil(a), np.trunc(a), np.floor(a[0]), np.ceil(a[0]), np.trunc(a[0])


def floor_arange(n):  # noqa: ANN001, ANN201
    return np.floor(np.arange(n))


def rint_of(a):  # noqa: ANN001, ANN201
    return np.rint(a)


@OPTS
@given(dtype=st.sampled_from(["int64", "int32", "uint8", "bool"]))
def test_item17_floor_ceil_trunc_keep_int_dtypes(opt: int, dtype: str) -> None:
    assert_same_arrays(rounding, np.array([3, 0, 1, 7]).astype(dtype), opt=opt)
    assert_same(floor_arange, 4, opt=opt)


@OPTS
def test_item21_rint_of_ints_and_bools(opt: int) -> None:
    assert_same_arrays(rint_of, np.array([3, -2]), opt=opt)
    with pytest.raises(UnsupportedError, match="float16") as info:
        jit(mode="compiled", opt=opt)(rint_of)(np.array([True]))
    assert "test_regressions.py" in str(info.value) and "hint:" in str(info.value)


# --- item 20: int() of a float constant that has no int raises at run time ----------------


def int_of_inf(b):  # noqa: ANN001, ANN201
    if b:
        return int(math.inf)
    return 0


def int_of_nan(b):  # noqa: ANN001, ANN201
    if b:
        return int(math.nan)
    return 0


@OPTS
@given(b=st.booleans())
def test_item20_int_of_inf_and_nan(opt: int, b: bool) -> None:
    assert_same(int_of_inf, b, opt=opt)
    assert_same(int_of_nan, b, opt=opt)


# --- item 22: `in` and `not in` on tuples --------------------------------------------------


def in_literal(x):  # noqa: ANN001, ANN201
    return x in (1, 2, 3), x not in (1, 2.5, True)


def in_variable(x, t):  # noqa: ANN001, ANN201
    if x in t:
        return 1
    return 0


@OPTS
@given(x=st.integers(-2, 4) | st.sampled_from([2.5, 1.0, math.nan]))
def test_item22_in_tuple(opt: int, x: float) -> None:
    assert_same(in_literal, x, opt=opt)
    assert_same(in_variable, x, (0.5, 2, True), opt=opt)


# --- item 24: bools mix with numbers as in Python and NumPy --------------------------------


def add_comparison(a, x):  # noqa: ANN001, ANN201
    a += x > 0
    return a


def minimum_with_bool(a, x):  # noqa: ANN001, ANN201
    return np.minimum(a, x > 3)


def mod_true(x):  # noqa: ANN001, ANN201
    return x % True, x // True, x * False


@OPTS
@given(x=st.floats(-10, 10), dtype=st.sampled_from(["float64", "int64", "float32"]))
def test_item24_bools_mix_with_arrays(opt: int, x: float, dtype: str) -> None:
    assert_same_arrays(add_comparison, np.zeros(3, dtype=dtype), x, opt=opt)
    assert_same_arrays(minimum_with_bool, np.arange(3, dtype=dtype), x, opt=opt)


@OPTS
@given(x=st.integers(-100, 100) | st.floats(-100, 100))
def test_item24_bool_as_number(opt: int, x: float) -> None:
    assert_same(mod_true, x, opt=opt)


# --- found by the random programs: a copy of an unassigned variable raises -----------------


def copy_of_loop_variable(n):  # noqa: ANN001, ANN201
    for i1 in range(n):
        i2 = i1  # noqa: F841
    i3 = i1  # noqa: F841 - UnboundLocalError when the loop ran zero times
    return 1.0


@OPTS
@given(n=st.integers(-2, 3))
def test_copy_of_a_possibly_unassigned_variable_raises(opt: int, n: int) -> None:
    assert_same(copy_of_loop_variable, n, opt=opt)
