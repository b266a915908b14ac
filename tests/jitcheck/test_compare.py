"""The equivalence policy (`jitcheck.compare`): what counts as the same result."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcheck import assert_equivalent
from jitcheck.compare import (
    COMPILED_OVERFLOW,
    NEGATIVE_POWER,
    OUT_OF_INT64,
    UINT64_OVERFLOW,
    Outcome,
    Tolerance,
    compare_outcomes,
    fastmath_exempt,
    first_difference,
    out_of_domain_error,
    out_of_domain_result,
    ulp_distance,
)

EXACT = Tolerance(ulps=0)


def test_ulp_distance_counts_representable_floats() -> None:
    assert ulp_distance(1.0, math.nextafter(1.0, 2.0)) == 1
    assert ulp_distance(1.0, 1.0 + 4 * 2.0**-52) == 4
    assert ulp_distance(-0.0, 0.0) == 0
    assert ulp_distance(-5e-324, 5e-324) == 2  # across zero: -tiny, (+-)0, +tiny
    assert ulp_distance(1.0, float(np.nextafter(np.float32(1), np.float32(2))), np.float32) == 1


@given(st.floats(-1e300, 1e300), st.integers(1, 8))
def test_ulp_distance_of_n_steps_is_n(x: float, n: int) -> None:
    y = x
    for _ in range(n):
        y = math.nextafter(y, math.inf)
    assert ulp_distance(x, y) == ulp_distance(y, x) == n


def test_floats_within_ulps_agree_and_beyond_differ_with_the_distance() -> None:
    close = 1.0 + 2 * 2.0**-52
    assert first_difference(1.0, close, Tolerance(ulps=2)) is None
    diff = first_difference(1.0, close, Tolerance(ulps=1))
    assert diff is not None and diff.ulps == 2 and "2 ulps apart (tolerance 1 ulps)" in diff.detail


def test_relative_and_absolute_tolerances_also_accept() -> None:
    assert first_difference(100.0, 100.001, Tolerance(ulps=0, rtol=2e-5)) is None
    assert first_difference(0.0, 1e-9, Tolerance(ulps=0, atol=1e-8)) is None
    assert first_difference(0.0, 1e-7, Tolerance(ulps=0, atol=1e-8)) is not None


def test_nan_equals_nan_and_infinities_must_match() -> None:
    assert first_difference(math.nan, -math.nan, EXACT) is None
    assert first_difference(math.inf, math.inf, EXACT) is None
    assert "NaN on one side" in first_difference(math.nan, 1.0, EXACT).detail  # type: ignore[union-attr]
    assert "infinite" in first_difference(math.inf, 1e308, EXACT).detail  # type: ignore[union-attr]
    assert first_difference(-0.0, 0.0, EXACT) is None


def test_ints_and_bools_are_exact_and_kinds_must_match() -> None:
    assert first_difference(3, np.int64(3), EXACT) is None
    assert first_difference(3, 4, Tolerance(ulps=100)) is not None
    assert first_difference(True, np.True_, EXACT) is None
    assert first_difference(True, 1, EXACT).detail == "bool != int"  # type: ignore[union-attr]
    assert first_difference(2.0, 2, EXACT).detail == "float != int"  # type: ignore[union-attr]
    assert first_difference(1, None, EXACT).detail == "int != None"  # type: ignore[union-attr]


def test_promotion_to_float64_or_complex128_compares_the_promoted_value() -> None:
    # jitcore unifies mixed numbers by promotion (`min(1, 2.5)` is 1.0): documented semantics
    assert first_difference(2, 2.0, EXACT) is None
    assert first_difference(np.int32(2), np.float64(2.0), EXACT) is None
    assert first_difference(2, 2 + 0j, EXACT) is None
    assert first_difference(1.5, 1.5 + 0j, EXACT) is None
    assert first_difference((0, 1.5), (0.0, 1.5), EXACT) is None
    assert "ulps apart" in first_difference(2, 2.5, EXACT).detail  # type: ignore[union-attr]
    assert first_difference(2, 2 + 1j, EXACT).detail.startswith("imag part")  # type: ignore[union-attr]
    # never to a narrower dtype, never from beyond int64, never backwards
    assert first_difference(np.int32(2), np.float32(2), EXACT).detail == "int != float"  # type: ignore[union-attr]
    assert first_difference(2**70, 2.0**70, EXACT).detail == "int != float"  # type: ignore[union-attr]
    assert first_difference(2.0, 2, EXACT).detail == "float != int"  # type: ignore[union-attr]


def test_a_python_number_may_come_back_as_the_numpy_type_of_its_variable() -> None:
    # `s = 0.0; for x in a32: s += x` returns Python's 0.0 on an empty array and np.float32
    # otherwise; compiled code types `s` float32 on every path (NumPy's weak Python scalars)
    assert first_difference(0.0, np.float32(0.0), EXACT) is None
    assert first_difference(0, np.int8(0), EXACT) is None
    assert first_difference(0, np.float32(0.0), EXACT) is None
    assert first_difference((1.5, 0), (np.float32(1.5), np.uint16(0)), EXACT) is None
    # ... but the value is Python's, in Python's precision: a float64 result computed in
    # float32 is still a difference
    diff = first_difference(0.1, np.float32(0.1), EXACT)
    assert diff is not None and "ulps apart" in diff.detail
    assert diff.compiled == "np.float32(0.10000000149011612)"
    assert first_difference(300, np.int8(44), EXACT).detail == "not equal"  # type: ignore[union-attr]
    assert first_difference(1.5, np.int8(1), EXACT).detail == "float != int"  # type: ignore[union-attr]


def test_float32_results_compare_in_float32_ulps() -> None:
    x = np.float32(0.1)
    assert first_difference(x, np.float32(0.1), EXACT) is None
    next32 = np.nextafter(x, np.float32(1))
    assert first_difference(x, next32, EXACT).ulps == 1  # type: ignore[union-attr]


def test_numpy_scalars_must_have_pythons_dtype() -> None:
    # a float32 result returned as float64 is a difference even where the value is exact
    # (the strictness jitcore's tests had in tests/jitcore/support.py), and so is an int32
    # returned as int64; Python's own numbers count as bool, int64, float64 and complex128
    diff = first_difference(np.float32(0.1), float(np.float32(0.1)), EXACT)
    assert diff is not None and diff.detail == "dtype float32 != float64"
    diff = first_difference(np.float64(0.5), np.float32(0.5), EXACT)
    assert diff is not None and diff.detail == "dtype float64 != float32"
    diff = first_difference(np.int32(3), 3, EXACT)
    assert diff is not None and diff.detail == "dtype int32 != int64"
    diff = first_difference(np.complex64(1j), 1j, EXACT)
    assert diff is not None and diff.detail == "dtype complex64 != complex128"
    assert first_difference(np.uint8(3), np.uint8(3), EXACT) is None
    assert first_difference(np.float64(0.5), 0.5, EXACT) is None
    assert first_difference(np.int64(3), 3, EXACT) is None
    assert first_difference(np.bool_(True), True, EXACT) is None


def test_complex_compares_part_by_part() -> None:
    assert first_difference(1 + 2j, complex(1, math.nextafter(2, 3)), Tolerance(ulps=1)) is None
    diff = first_difference(1 + 2j, 1 + 3j, EXACT)
    assert diff is not None and diff.detail.startswith("imag part")


def test_tuples_compare_item_by_item_with_a_path() -> None:
    diff = first_difference((1, (2.0, 3.0)), (1, (2.0, 3.5)), EXACT)
    assert diff is not None and diff.path == "result[1][1]"
    assert first_difference((1, 2), (1, 2, 3), EXACT).detail == "length 2 != 3"  # type: ignore[union-attr]


def test_arrays_report_the_first_differing_element_its_index_and_ulps() -> None:
    expected = np.arange(12.0).reshape(3, 4)
    got = expected.copy()
    got[1, 2] = math.nextafter(got[1, 2], 100) + 1e-15  # several ulps off
    got[2, 3] = 0.0
    diff = first_difference(expected, got, Tolerance(ulps=1))
    assert diff is not None
    assert diff.path == "result[1, 2]" and diff.ulps is not None and diff.ulps > 1
    assert "2 of 12 elements differ" in diff.detail


def test_arrays_must_agree_in_shape_and_dtype_and_nan_positions() -> None:
    a = np.array([1.0, math.nan])
    assert first_difference(a, a.copy(), EXACT) is None
    assert "shape (2,) != (1,)" in first_difference(a, a[:1], EXACT).detail  # type: ignore[union-attr]
    assert "dtype float64 != float32" in first_difference(a, a.astype(np.float32), EXACT).detail  # type: ignore[union-attr]
    assert first_difference(a, np.array([1.0, 2.0]), EXACT).path == "result[1]"  # type: ignore[union-attr]
    assert first_difference(np.array([1, 2]), np.array([1, 3]), EXACT).path == "result[1]"  # type: ignore[union-attr]
    z = np.array([1 + 1j, 2 + 2j])
    assert first_difference(z, np.array([1 + 1j, 2 + 3j]), EXACT).path == "result[1]"  # type: ignore[union-attr]


def test_exceptions_agree_by_type_and_arguments_are_compared_after_the_call() -> None:
    zero = Outcome(error_type=ZeroDivisionError, error_text="division by zero")
    assert (
        compare_outcomes(zero, Outcome(error_type=ZeroDivisionError, error_text="x"), EXACT)
        is None
    )
    diff = compare_outcomes(zero, Outcome(value=1.0), EXACT)
    assert diff is not None and diff.path == "outcome" and "ZeroDivisionError" in diff.python
    python = Outcome(value=None, args_after=(np.array([1.0, 2.0]), 3))
    compiled = Outcome(value=None, args_after=(np.array([1.0, 2.5]), 3))
    diff = compare_outcomes(python, compiled, EXACT, ("out", "n"))
    assert diff is not None and diff.path == "argument `out` after the call[1]"


def test_documented_semantics_are_out_of_the_compiled_domain() -> None:
    assert out_of_domain_result(2**63) == OUT_OF_INT64
    assert out_of_domain_result((1, -(2**63) - 1)) == OUT_OF_INT64
    assert out_of_domain_result(2**63 - 1) is None and out_of_domain_result(2.0**70) is None
    value = Outcome(value=0.5)
    text = "float too large for int64 (Python would return a big int)"
    overflow = Outcome(error_type=OverflowError, error_text=text)
    assert out_of_domain_error(value, overflow) == COMPILED_OVERFLOW
    text = "uint64 too large for int64 (Python would return a big int)"
    uint64 = Outcome(error_type=OverflowError, error_text=text)
    assert out_of_domain_error(value, uint64) == UINT64_OVERFLOW
    # only the documented errors, matched by type and message: an `exp` that overflows too
    # early, or the right message on the wrong type, is a difference
    for error, message in ((OverflowError, "math range error"), (ValueError, text)):
        assert out_of_domain_error(value, Outcome(error_type=error, error_text=message)) is None
    assert out_of_domain_error(Outcome(error_type=ValueError), overflow) is None
    text = "integer to a negative power: Python returns a float here; write float(x) ** n"
    power = Outcome(error_type=ValueError, error_text=text)
    assert out_of_domain_error(value, power) == NEGATIVE_POWER
    zero_power = Outcome(error_type=ZeroDivisionError, error_text="0.0 cannot be raised")
    assert out_of_domain_error(zero_power, power) == NEGATIVE_POWER
    other = Outcome(error_type=ValueError, error_text="math domain error")
    assert out_of_domain_error(value, other) is None  # a real difference
    assert out_of_domain_error(value, Outcome(value=0.5)) is None


def test_fastmath_is_exempt_wherever_nan_or_infinity_appears() -> None:
    finite = Outcome(value=1.0)
    assert not fastmath_exempt((1.0, 2), finite, finite)
    assert fastmath_exempt((math.inf,), finite, finite)
    assert fastmath_exempt((np.array([1.0, math.nan]),), finite, finite)
    assert fastmath_exempt((1.0,), Outcome(value=math.nan), finite)
    assert fastmath_exempt((1.0,), Outcome(error_type=OverflowError), Outcome(value=math.inf))
    assert not fastmath_exempt((1.0,), Outcome(error_type=ZeroDivisionError), finite)


def test_assert_equivalent_passes_or_explains() -> None:
    assert_equivalent((1, 2.0), (1, 2.0))
    with pytest.raises(AssertionError, match=r"result\[1\]: python 2.0, compiled 2.5"):
        assert_equivalent((1, 2.5), (1, 2.0))


def test_sets_holding_a_nan_each_agree() -> None:
    """`{nan} == {nan}` is False for two different NaN objects: NaN members are counted."""
    assert first_difference({np.float64("nan"), 1.0}, {float("nan"), 1.0}, Tolerance()) is None
    assert first_difference({float("nan")}, {float("nan"), 2.0}, Tolerance()) is not None
    assert first_difference({float("nan")}, {1.0}, Tolerance()) is not None


def test_max_ulps_measures_lists_item_by_item() -> None:
    """A list of arrays of different lengths (np.split's parts) made NumPy raise in
    np.asarray: the library check of np.split failed on every example."""
    from jitcheck.compare import max_ulps

    parts = [np.array([], dtype=np.float64), np.array([1.0, 2.0])]
    assert max_ulps(parts, [p.copy() for p in parts]) == 0
    off = [parts[0], np.array([1.0, np.nextafter(2.0, 3.0)])]
    assert max_ulps(parts, off) == 1
    assert max_ulps([np.arange(2)], [np.arange(2)]) is None  # integers: nothing to measure
