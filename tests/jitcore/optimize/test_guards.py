"""Preheader guards for bounds checks (`jitcore.optimize.guards`): a check whose index is a
monotone function of a counted loop's counter is decided once before the loop; when the guard
fails, every iteration is checked as before. Results, errors and partial writes must be those
of Python in both cases, including negative indices (which Python wraps) and int64 overflow."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import jit
from tests.jitcore.support import assert_same, assert_same_arrays


def window_sums(a, m, out):  # noqa: ANN001, ANN201
    for i in range(out.shape[0]):
        s = 0.0
        for k in range(m):
            s += a[i + k]
        out[i] = s  # partial writes stay visible when a later window raises
    return out


def shifted(a, c, out):  # noqa: ANN001, ANN201
    for i in range(out.shape[0]):
        out[i] = a[i - c] * 2.0  # i - c < 0 wraps like Python's negative index
    return out


def clamped(a, out):  # noqa: ANN001, ANN201
    n = a.shape[0]
    for i in range(out.shape[0]):
        out[i] = a[max(i - 1, 0)] + a[i] + a[min(i + 1, n - 1)]
    return out


def offset_by(a, c, n):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(n):
        s += a[i + c]
    return s


def grid(img, out):  # noqa: ANN001, ANN201
    n, m = img.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = img[i - 1, j] + img[i + 1, j] + img[i, j - 1] + img[i, j + 1]
    return out


floats = hnp.arrays(np.float64, st.integers(0, 12), elements=st.floats(-100, 100))


def test_the_guard_is_in_the_lowered_loop() -> None:
    f = jit(window_sums, mode="compiled")
    f(np.arange(10.0), 3, np.empty(8))
    text = f.inspect("lower")
    assert "sadd_overflows" in text and "boundscheck" in text


@given(a=floats, m=st.integers(-1, 5), length=st.integers(0, 14))
def test_windows_in_and_out_of_range(a: np.ndarray, m: int, length: int) -> None:
    assert_same_arrays(window_sums, a, m, np.zeros(length))


@given(a=floats, c=st.integers(-15, 15), length=st.integers(0, 14))
def test_shifts_wrap_negative_indices_like_python(a: np.ndarray, c: int, length: int) -> None:
    assert_same_arrays(shifted, a, c, np.zeros(length))


@given(a=floats, length=st.integers(0, 14))
def test_clamped_neighbours(a: np.ndarray, length: int) -> None:
    assert_same_arrays(clamped, a, np.zeros(length))


@given(st.integers(-(2**63), 2**63 - 1), st.integers(0, 3))
def test_an_offset_near_the_int64_limits_is_still_checked(c: int, n: int) -> None:
    """i + c wraps in compiled code: the guard notices the overflow and checks each index."""
    a = np.arange(4.0)
    python_ok = all(-4 <= i + c < 4 for i in range(n))
    if python_ok:
        assert_same(offset_by, a, c, n)
    else:
        with pytest.raises(IndexError):
            jit(offset_by, mode="compiled")(a, c, n)


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=6)))
def test_a_two_dimensional_stencil(img: np.ndarray) -> None:
    assert_same_arrays(grid, img, np.zeros_like(img))


@pytest.mark.parametrize("boundscheck", [True, False])
def test_guards_hold_with_and_without_boundscheck(boundscheck: bool) -> None:
    a = np.arange(20.0)
    f = jit(window_sums, mode="compiled", boundscheck=boundscheck)
    np.testing.assert_array_equal(f(a, 4, np.zeros(17)), window_sums(a, 4, np.zeros(17)))
    g = jit(shifted, mode="compiled", boundscheck=boundscheck)
    np.testing.assert_array_equal(g(a, 3, np.zeros(20)), shifted(a, 3, np.zeros(20)))


def copy_list_items(lst, out):  # noqa: ANN001, ANN201
    """`for x in items` reads len(items) at every step: no bound before the loop to guard
    with (the caller's list is copied first: the harness runs Python and compiled code on the
    same list object)."""
    items = lst.copy()
    for k, x in enumerate(items):
        out[k] = x
        if x < 0:
            items.append(1.0)  # the loop walks the new item too, as Python's does
    return out, items


def roots_of_list_positions(lst, a, out):  # noqa: ANN001, ANN201
    for k, x in enumerate(lst):
        out[k] = math.sqrt(a[k]) + x
    return out


@given(st.lists(st.floats(-2, 2), min_size=1, max_size=8), st.integers(0, 12))
def test_loops_over_lists_check_every_index(items: list[float], n: int) -> None:
    assert_same_arrays(copy_list_items, items, np.zeros(n))
    assert_same_arrays(roots_of_list_positions, items, np.arange(float(n)), np.zeros(n))
