"""np.repeat with an array of counts (jitcore/lib/repeatcounts.py) and reshape(order="F")
(jitcore/lib/shapes.py), compiled vs NumPy on Hypothesis arrays of every layout, empty ones,
and NumPy's errors (negative counts, counts that do not broadcast, sizes that do not fit)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.jitcore.lib.arrays_strategy import arrays
from tests.jitcore.support import assert_same


def repeat_flat(a, counts):
    return np.repeat(a, counts)


def repeat_axis0(a, counts):
    return np.repeat(a, counts, axis=0)


def repeat_last(a, counts):
    return np.repeat(a, counts, axis=-1)


def reshape_f(a):
    return a.reshape((-1, 2), order="F")


def reshape_f_flat(a):
    return np.reshape(a, -1, order="F")


def reshape_f_method_dims(a, n):
    return a.reshape(n, -1, order="F")


@settings(max_examples=40, deadline=None)
@given(
    a=arrays(max_dims=3, max_side=4),
    seed=st.integers(0, 99),
    broadcast=st.booleans(),
    negative=st.booleans(),
)
def test_repeat_by_an_array_of_counts(
    a: np.ndarray, seed: int, broadcast: bool, negative: bool
) -> None:
    rng = np.random.default_rng(seed)
    for f, n in (
        (repeat_flat, a.size),
        (repeat_axis0, a.shape[0]),
        (repeat_last, a.shape[-1]),
    ):
        counts = rng.integers(0, 3, 1 if broadcast else n)
        if negative and counts.size:
            counts[-1] = -1
        assert_same(f, a, counts)
    assert_same(repeat_flat, a, rng.integers(0, 3, a.size + 1))  # does not broadcast
    assert_same(repeat_flat, a, np.array(2, dtype=np.int32))  # a 0-d array of counts


@settings(max_examples=40, deadline=None)
@given(a=arrays(max_dims=3, max_side=4), n=st.integers(1, 3))
def test_reshape_in_fortran_order(a: np.ndarray, n: int) -> None:
    assert_same(reshape_f_flat, a)
    assert_same(reshape_f, a)
    assert_same(reshape_f_method_dims, a, n)


def test_reshape_in_fortran_order_is_a_view_where_numpys_is() -> None:
    from tests.jitcore.support import compiled

    f = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    for x in (f, np.arange(12.0)):
        got, expected = compiled(reshape_f)(x), reshape_f(x)
        assert np.shares_memory(got, x) == np.shares_memory(expected, x)


def test_repeat_counts_of_floats_are_refused() -> None:
    from jitcore import TypingError
    from tests.jitcore.support import compiled

    with pytest.raises(TypeError):
        repeat_flat(np.ones(2), np.ones(2))
    with pytest.raises(TypingError):
        compiled(repeat_flat)(np.ones(2), np.ones(2))


@pytest.mark.parametrize("a", [np.array(1.5), np.array(7, np.int16)])
def test_repeat_of_a_0d_array_by_an_array_of_counts(a: np.ndarray) -> None:
    """NumPy repeats a 0-d array as the 1-d array of its item, along axis 0 or -1 too."""
    for f in (repeat_flat, repeat_axis0, repeat_last):
        assert_same(f, a, np.array([3]))
        assert_same(f, a, np.array(2, dtype=np.int32))
        assert_same(f, a, np.array([1, 2]))  # does not broadcast: ValueError
        assert_same(f, a, np.array([-1]))  # ValueError
