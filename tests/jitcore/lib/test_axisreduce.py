"""Reductions along the first axis without a copy (`jitcore.lib.axisreduce`): NumPy's results
bit for bit (NumPy too adds sub-array by sub-array there), for every layout, dtype, NaN and
-0.0, and NumPy's error for an empty axis without identity."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given

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


@pytest.mark.parametrize("f", KERNELS, ids=lambda f: f.__name__)
@given(a=arrays(min_dims=2))
def test_first_axis_reductions_equal_numpy_exactly(f, a: np.ndarray) -> None:  # noqa: ANN001
    want, got = outcome(f, a), outcome(compiled(f), a)
    if isinstance(want, str):
        assert got == want
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_a_view_is_reduced_in_place_not_copied() -> None:
    """The lowered code has no transposing copy: no row kernel, one allocation (the result)."""
    text = compiled(col_sum).inspect("lower", "array(f64, 2d, A)")
    assert "sum_rows" not in text
    assert text.count("alloc ") == 1
