"""Elementwise functions (jitcore/lib/ufuncs.py) on 0-d arrays and numbers, compiled vs
NumPy: np.where is no ufunc, so of numbers and 0-d arrays it gives a 0-d array."""

from __future__ import annotations

import numpy as np
import pytest

from tests.jitcore.support import assert_same


def where_0d(a, b):
    return np.where(a > 0, a, -a), np.where(b, 1, 2), np.where(True, a, 2.5), np.where(b, a, 1)


def where_numbers(c, x, y):
    return np.where(c, x, y)


@pytest.mark.parametrize("a", [np.array(1.5), np.array(-3, np.int16)])
def test_where_of_0d_arrays_is_a_0d_array(a: np.ndarray) -> None:
    assert_same(where_0d, a, np.array(False))


def test_where_of_numbers_is_a_0d_array() -> None:
    assert_same(where_numbers, True, 1, 2)
    assert_same(where_numbers, 0, 1.5, 2)
