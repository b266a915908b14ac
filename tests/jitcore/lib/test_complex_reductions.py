"""Reductions of complex arrays (`npkernels.*_complex`, `axisreduce`): NumPy's results bit for
bit. NumPy sums complex items as pairs of floats in its float blocks (so in blocks of 4
items), divides a mean with its own complex division (times 1/n, in complex128 for complex64),
and a var is real: the sum of |deviation|**2. Each was once different: sums and means a few
ulps off, and `np.var` of complex numbers a wrong complex number."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.jitcore.lib.arrays_strategy import laid_out
from tests.jitcore.support import assert_same, compiled


def whole_sum(a):  # noqa: ANN001, ANN201
    return np.sum(a)


def whole_mean(a):  # noqa: ANN001, ANN201
    return a.mean()


def whole_var(a):  # noqa: ANN001, ANN201
    return np.var(a)


def whole_std_ddof(a):  # noqa: ANN001, ANN201
    return np.std(a, ddof=1)


def row_sum(a):  # noqa: ANN001, ANN201
    return a.sum(axis=-1)


def row_mean(a):  # noqa: ANN001, ANN201
    return np.mean(a, axis=-1)


def row_var(a):  # noqa: ANN001, ANN201
    return np.var(a, axis=-1)


def col_sum(a):  # noqa: ANN001, ANN201
    return np.sum(a, axis=0)


def col_mean(a):  # noqa: ANN001, ANN201
    return np.mean(a, axis=0, keepdims=True)


def col_var_ddof(a):  # noqa: ANN001, ANN201
    return a.var(axis=0, ddof=1)


def col_std(a):  # noqa: ANN001, ANN201
    return np.std(a, axis=0)


# Whole arrays: NumPy's pairwise sums over the items in C order (a Fortran array NumPy sums in
# its memory order: the two agree to rounding, not asked here).
WHOLE_KERNELS = [whole_sum, whole_mean, whole_var, whole_std_ddof]
# Along an axis, NumPy's order follows the strides: pairwise along the axis of the smallest
# stride, item after item along the others. jitcore's is the order for C layout (pairwise
# along rows, row after row down columns), so exact equality is asked of C-ordered arrays
# (contiguous or strided); for a Fortran array the two agree to rounding.
AXIS_KERNELS = [row_sum, row_mean, row_var, col_sum, col_mean, col_var_ddof, col_std]


def parts(width: int) -> st.SearchStrategy[float]:
    edges = st.sampled_from([0.0, -0.0, 1.0, np.inf, -np.inf, np.nan])
    return st.one_of(edges, st.floats(-1e6, 1e6, width=width), st.floats(width=width))


@st.composite
def complex_arrays(draw: st.DrawFn, layouts: tuple[str, ...]) -> np.ndarray:
    """2-D complex arrays, up to 200 items a row (several pairwise blocks)."""
    dtype = np.dtype(draw(st.sampled_from(["complex128", "complex64"])))
    width = dtype.itemsize * 4
    shape = (draw(st.integers(0, 4)), draw(st.integers(0, 200)))
    a = np.empty(shape, dtype=dtype)
    a.real = draw(hnp.arrays(a.real.dtype, shape, elements=parts(width)))
    a.imag = draw(hnp.arrays(a.real.dtype, shape, elements=parts(width)))
    return laid_out(a, draw(st.sampled_from(layouts)))


def check_exact(f, a: np.ndarray) -> None:  # noqa: ANN001
    """Compiled and Python results of the same dtype and equal to the last bit."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # mean of nothing
        assert_same(f, a, ulps=0)


@pytest.mark.parametrize("f", WHOLE_KERNELS, ids=lambda f: f.__name__)
@given(a=complex_arrays(("C", "strided")))
def test_complex_reductions_equal_numpy_exactly(f, a: np.ndarray) -> None:  # noqa: ANN001
    check_exact(f, a)


@pytest.mark.parametrize("f", AXIS_KERNELS, ids=lambda f: f.__name__)
@given(a=complex_arrays(("C", "strided")))
def test_complex_axis_reductions_equal_numpy_exactly(f, a: np.ndarray) -> None:  # noqa: ANN001
    check_exact(f, a)


def test_the_variance_of_complex_numbers_is_real() -> None:
    a = np.array([1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j])
    assert compiled(whole_var)(a) == 2.0
    assert type(compiled(whole_var)(a)) is np.float64
    np.testing.assert_array_equal(compiled(col_std)(a.reshape(2, 2)), [1.0, 1.0])


def extremes(a):  # noqa: ANN001, ANN201
    return np.max(a), a.min(), np.argmax(a), np.argmin(a)


def extremes_along(a):  # noqa: ANN001, ANN201
    return np.max(a, axis=0), a.min(axis=1), a.argmax(axis=1), np.argmin(a, axis=0)


CORNER_PARTS = [0.0, -0.0, 1.0, -1.0, 2.0, np.nan, np.inf, -np.inf]


@st.composite
def cornered(draw: st.DrawFn) -> np.ndarray:
    """Small complex arrays of corner parts: ties, NaN in either part, infinities."""
    dtype = draw(st.sampled_from(["complex128", "complex64"]))
    shape = (draw(st.integers(1, 4)), draw(st.integers(1, 6)))
    a = np.empty(shape, dtype=dtype)
    a.real = draw(hnp.arrays(np.float64, shape, elements=st.sampled_from(CORNER_PARTS)))
    a.imag = draw(hnp.arrays(np.float64, shape, elements=st.sampled_from(CORNER_PARTS)))
    return a


@given(a=cornered())
def test_complex_extremes_are_numpys(a: np.ndarray) -> None:
    """NumPy orders complex numbers lexicographically, and a NaN in either part wins (min and
    max) or is found first (argmin and argmax)."""
    check_exact(extremes, a)
    check_exact(extremes_along, a)
