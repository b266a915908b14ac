"""jitcore.vectorize: from Python on any shape with broadcasting, and from jitted code."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import jitcore
from tests.jitcore.lib.arrays_strategy import arrays
from tests.jitcore.support import compiled


@jitcore.vectorize
def rel_diff(x, y):
    return 2.0 * (x - y) / (x + y)


@jitcore.vectorize
def clamp_int(x):
    if x > 3:
        return 3
    return x


def rel_diff_reference(x, y):
    with np.errstate(all="ignore"):
        return 2.0 * (np.asarray(x) - y) / (np.asarray(x) + y)


@settings(max_examples=25)
@given(a=arrays(dtype="float64"), data=st.data())
def test_vectorized_from_python_broadcasts_like_numpy(a: np.ndarray, data: st.DataObject) -> None:
    """(Positive operands: the scalar function has Python semantics, so a zero denominator
    raises ZeroDivisionError where a NumPy ufunc gives inf; documented.)"""
    b = data.draw(arrays(dtype="float64", max_dims=1, min_side=1, max_side=1))
    a = np.abs(np.nan_to_num(a, posinf=1.0, neginf=1.0)) + 1.0
    b = np.abs(np.nan_to_num(b)) + 1.0
    with np.errstate(all="ignore"):
        got = rel_diff(a, b)
    expected = rel_diff_reference(a, b)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_vectorized_scalars_and_dtypes() -> None:
    assert rel_diff(3.0, 1.0) == 1.0
    ints = np.arange(6).reshape(2, 3)
    out = clamp_int(ints)
    assert out.dtype == np.int64 and out.tolist() == [[0, 1, 2], [3, 3, 3]]
    assert clamp_int(np.zeros((0, 2), np.int64)).shape == (0, 2)


def use_in_jitted(a, b):
    return rel_diff(a, b) + 1.0


def use_scalar_in_jitted(x):
    return rel_diff(x, 1.0)


def test_vectorized_from_jitted_code() -> None:
    a = np.linspace(1, 2, 12).reshape(3, 4)
    b = np.linspace(2, 3, 4)
    np.testing.assert_array_equal(compiled(use_in_jitted)(a, b), rel_diff_reference(a, b) + 1.0)
    assert math.isclose(compiled(use_scalar_in_jitted)(3.0), 1.0)
