"""Reductions over axes that keep the last one, without a copy (`jitcore.lib.axisreduce`):
NumPy's results bit for bit (NumPy too adds sub-array by sub-array there), for every layout,
dtype, NaN and -0.0, tuple axes and keepdims, and NumPy's error for an empty axis without
identity."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import example, given

from tests.jitcore.lib.arrays_strategy import arrays
from tests.jitcore.support import compiled


def col_sum(a):  # noqa: ANN001, ANN201
    return np.sum(a, axis=0)


def col_prod(a):  # noqa: ANN001, ANN201
    return a.prod(axis=0)


def col_mean(a):  # noqa: ANN001, ANN201
    return np.mean(a, axis=0)


def col_min(a):  # noqa: ANN001, ANN201
    return np.min(a, axis=0)


def col_max(a):  # noqa: ANN001, ANN201
    return a.max(axis=0)


def col_any(a):  # noqa: ANN001, ANN201
    return np.any(a, axis=0)


def col_all(a):  # noqa: ANN001, ANN201
    return np.all(a, 0)


KERNELS = [col_sum, col_prod, col_mean, col_min, col_max, col_any, col_all]


def outcome(f, a):  # noqa: ANN001, ANN201
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # overflow, mean of nothing
        try:
            return f(a)
        except ValueError as exc:
            return str(exc)


def adds_in_sequence(a: np.ndarray, axes: tuple[int, ...]) -> bool:
    """Whether NumPy adds the reduced elements in sequence (its iterator keeps a kept axis
    innermost): for a C-contiguous array whose kept axes after the last reduced one hold more
    than one element. Otherwise NumPy may coalesce the reduced axes into its inner loop and sum
    them pairwise, and only agreement within rounding can be asked."""
    last = max(ax % a.ndim for ax in axes)
    return a.flags.c_contiguous and int(np.prod(a.shape[last + 1 :])) > 1


def check_reduction(f, a: np.ndarray, axes: tuple[int, ...]) -> None:  # noqa: ANN001
    want, got = outcome(f, a), outcome(compiled(f), a)
    if isinstance(want, str):
        assert got == want
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind in "fc" and not adds_in_sequence(a, axes):
        np.testing.assert_array_max_ulp(got, want, maxulp=4)
        return
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("f", KERNELS, ids=lambda f: f.__name__)
@given(a=arrays(min_dims=2))
def test_first_axis_reductions_equal_numpy_exactly(f, a: np.ndarray) -> None:  # noqa: ANN001
    check_reduction(f, a, (0,))


def test_a_view_is_reduced_in_place_not_copied() -> None:
    """The lowered code has no transposing copy: no row kernel, one allocation (the result)."""
    text = compiled(col_sum).inspect("lower", "array(f64, 2d, A)")
    assert "sum_rows" not in text
    assert text.count("alloc ") == 1


def outer_sum(a):  # noqa: ANN001, ANN201
    return np.sum(a, axis=(1, 0))


def outer_mean_kept(a):  # noqa: ANN001, ANN201
    return a.mean(axis=(0, 1), keepdims=True)


def middle_max_kept(a):  # noqa: ANN001, ANN201
    return np.max(a, axis=1, keepdims=True)


def middle_all(a):  # noqa: ANN001, ANN201
    return a.all(axis=-2)


def outer_prod_kept(a):  # noqa: ANN001, ANN201
    return np.prod(a, axis=0, keepdims=True)


def outer_var_kept(a):  # noqa: ANN001, ANN201
    return np.var(a, axis=(0, 1), keepdims=True)


def col_std_ddof(a):  # noqa: ANN001, ANN201
    return a.std(axis=0, ddof=1)


OUTER_KERNELS = {
    outer_sum: (0, 1),
    outer_mean_kept: (0, 1),
    middle_max_kept: (1,),
    middle_all: (-2,),
    outer_prod_kept: (0,),
    outer_var_kept: (0, 1),
    col_std_ddof: (0,),
}

# A mean of int64 whose elements cancel: NumPy converts each to float64 and adds them in C
# order of the reduced indices, so -2 is lost against -9.2e18 before 9.2e18 comes (a pairwise
# sum along a transposed copy kept it: 5 ulps apart).
CANCELLING = np.zeros((5, 5, 5), dtype=np.int64)
CANCELLING[0, 2, 2], CANCELLING[1, 2, 2], CANCELLING[4, 3, 2] = (
    -2,
    -9209298288019407361,
    9212816725228127744,
)


@pytest.mark.parametrize("f", OUTER_KERNELS, ids=lambda f: f.__name__)
@given(a=arrays(min_dims=3))
@example(a=CANCELLING)
def test_reductions_over_outer_axes_equal_numpy_exactly(f, a: np.ndarray) -> None:  # noqa: ANN001
    check_reduction(f, a, OUTER_KERNELS[f])


@pytest.mark.parametrize("f", OUTER_KERNELS, ids=lambda f: f.__name__)
def test_outer_axes_are_reduced_in_place_not_copied(f) -> None:  # noqa: ANN001
    """No row kernel, no copy: one allocation, the result (var and std: and the mean)."""
    text = compiled(f).inspect("lower", "array(f64, 3d, A)")
    assert "_rows" not in text
    assert text.count("alloc ") == (2 if f in {outer_var_kept, col_std_ddof} else 1)
