"""Kernels of jitcore/lib/npstatsk.py on the inputs that exercise their NumPy details,
compiled vs NumPy: digitize's monotonicity check with NaN among the bins (NumPy's
check_array_monotonic, which such bins can pass unsorted) and on int64 bins beyond 2**53
(compared as doubles), and the closeness tests of 0-d arrays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.jitcore.support import assert_same

NAN = np.nan


def digitize(x, bins):
    return np.digitize(x, bins), np.digitize(x, bins, right=True)


X = np.array([-1.0, 0.5, 2.0, NAN, np.inf, 1.0, 1.0, 0.5])


@pytest.mark.parametrize(
    "bins",
    [
        [0.0, NAN],  # increasing, then a NaN: NumPy takes them as decreasing
        [NAN, 0.0],
        [NAN, NAN],  # all NaN: the leading run of equal values is not one (NaN != NaN)
        [NAN],  # a single bin is increasing
        [1.0],
        [1.0, NAN, 2.0],
        [2.0, 1.0, NAN],
        [1.0, 2.0, NAN, 3.0],  # a NaN in the middle never breaks the order
        [1.0, 1.0, NAN, 0.0],
        [0.0, NAN, 1.0, NAN],
        [1.0, 2.0, 1.5],  # neither: ValueError
        [],
    ],
)
def test_digitize_checks_monotonicity_as_numpy(bins: list[float]) -> None:
    assert_same(digitize, X, np.array(bins))


def test_digitize_compares_int_bins_as_doubles() -> None:
    """NumPy checks the bins converted to float64: 2**53 and 2**53 + 1 are equal there, so
    these bins pass as increasing (and the search runs on the ints)."""
    bins = np.array([2**53, 2**53 + 1, 2**53])
    assert_same(digitize, np.array([2**53, 0, 2**53 + 1, 2**54]), bins)


SPECIALS = st.sampled_from([NAN, -np.inf, np.inf, 0.0, 1.0, -1.0, 0.5])


@settings(max_examples=60)
@given(
    x=hnp.arrays(np.float64, st.integers(0, 8), elements=SPECIALS),
    bins=hnp.arrays(np.float64, st.integers(0, 6), elements=SPECIALS),
    order=st.sampled_from(["as drawn", "sorted", "reversed"]),
)
def test_digitize_with_nan_among_the_bins(x: np.ndarray, bins: np.ndarray, order: str) -> None:
    if order != "as drawn":
        bins = np.sort(bins)
        bins = bins[::-1].copy() if order == "reversed" else bins
    assert_same(digitize, x, bins)


def closeness(a, b):
    return (
        np.isclose(a, b),
        np.allclose(a, b),
        np.array_equal(a, b),
        np.array_equal(a, b, equal_nan=True),
    )


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (np.array(1.5), np.array(1.5 + 1e-9)),
        (np.array(1.5), np.array(2.0)),
        (np.array(NAN), np.array(NAN)),
        (np.array(1.5), np.ones(2) * 1.5),
        (np.ones(2), np.array(1.0)),
    ],
)
def test_closeness_of_0d_arrays(a: np.ndarray, b: np.ndarray) -> None:
    assert_same(closeness, a, b)
