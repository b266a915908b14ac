"""Domain guards for `math.sqrt` of array elements (`jitcore.optimize.domainguards`): a scan
before a counted loop decides the ValueError check of every iteration; when the scan finds a
negative element, or a store in the loop may overlap the scanned array, each iteration is
checked as before. Results, errors and partial writes must be those of Python either way."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import jit
from tests.jitcore.support import assert_same_arrays


def roots(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        out[i] = math.sqrt(a[i])  # partial writes stay visible when a later element raises
    return out


def first_roots(a, k, out):  # noqa: ANN001, ANN201
    for i in range(k):  # k may pass the end of `a`: IndexError, not the domain error
        out[i] = math.sqrt(a[i]) + 1.0
    return out


def negate_ahead(a, out):  # noqa: ANN001, ANN201
    """Stores into the scanned array make a later element negative: no scan decides this."""
    for i in range(a.shape[0] - 1):
        a[i + 1] = -a[i + 1]
        out[i] = math.sqrt(a[i])
    return out


def reversed_into_itself(a):  # noqa: ANN001, ANN201
    """The output is a reversed view of the input: the loop writes negative roots into the
    elements it reads later, and the byte ranges of the two overlap."""
    out = a[::-1]
    for i in range(a.shape[0]):
        out[i] = -math.sqrt(a[i])
    return a


@jit(mode="compiled")
def _negate(a, i):  # noqa: ANN001, ANN202
    a[i] = -a[i]


def negate_by_call(a, out):  # noqa: ANN001, ANN201
    """A call that takes an array may write to it: no guard at all."""
    for i in range(a.shape[0] - 1):
        ahead = a[i + 1 : i + 2]
        np.negative(ahead, out=ahead)
        out[i] = math.sqrt(a[i])
    return out


def negate_by_jitted_call(a, out):  # noqa: ANN001, ANN201
    """The same through a jitted function (inlined: its store is the loop's own)."""
    for i in range(a.shape[0] - 1):
        _negate(a, i + 1)
        out[i] = math.sqrt(a[i])
    return out


def caught(a, out):  # noqa: ANN001, ANN201
    for i in range(a.shape[0]):
        try:
            out[i] = math.sqrt(a[i])
        except ValueError:
            out[i] = -1.0
    return out


def row_roots(a, out):  # noqa: ANN001, ANN201
    """The row is a view made in the outer loop, invariant in the inner one."""
    for i in range(a.shape[0]):
        row = a[i]
        for j in range(row.shape[0]):
            out[i, j] = math.sqrt(row[j])
    return out


def root_sum(a):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(a.shape[0]):
        s += math.sqrt(a[i])
    return s


# Mostly non-negative, so that the guarded copy of the loop runs in most examples.
elements = st.one_of(
    st.floats(0, 1e300),
    st.sampled_from([-0.0, math.inf, math.nan, -1.0, -math.inf, 5e-324]),
)
vectors = hnp.arrays(np.float64, st.integers(0, 20), elements=elements)


@given(vectors, st.integers(0, 22))
def test_roots_like_python(a: np.ndarray, extra: int) -> None:
    assert_same_arrays(roots, a, np.zeros(a.shape[0]))
    assert_same_arrays(roots, a, np.zeros(min(extra, a.shape[0])))  # IndexError part way


@given(vectors, st.integers(0, 24))
def test_a_loop_past_the_end_raises_index_error(a: np.ndarray, k: int) -> None:
    assert_same_arrays(first_roots, a, k, np.zeros(30))


@given(vectors)
def test_stores_into_the_scanned_array(a: np.ndarray) -> None:
    assert_same_arrays(negate_ahead, a, np.zeros(a.shape[0]))


@given(vectors)
def test_an_output_overlapping_the_input(a: np.ndarray) -> None:
    assert_same_arrays(reversed_into_itself, a)


@given(vectors)
def test_a_call_that_writes_the_array(a: np.ndarray) -> None:
    assert_same_arrays(negate_by_call, a, np.zeros(a.shape[0]))
    assert_same_arrays(negate_by_jitted_call, a, np.zeros(a.shape[0]))


@given(vectors)
def test_a_handler_around_the_root(a: np.ndarray) -> None:
    assert_same_arrays(caught, a, np.zeros(a.shape[0]))


matrices = hnp.arrays(
    np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=5), elements=elements
)


@given(matrices)
def test_rows_of_a_matrix(a: np.ndarray) -> None:
    assert_same_arrays(row_roots, a, np.zeros_like(a))


@given(vectors)
def test_a_reduction_of_roots(a: np.ndarray) -> None:
    assert_same_arrays(root_sum, a)


@given(st.sampled_from([np.int64, np.int32, np.float32, np.uint8]), st.integers(-3, 40))
def test_other_element_types(dtype: type, low: int) -> None:
    a = np.arange(low, low + 10).astype(dtype)
    assert_same_arrays(roots, a, np.zeros(10))
    assert_same_arrays(roots, a[::-2], np.zeros(5))  # a strided view with a negative step


def test_the_scan_is_in_the_lowered_loop_only_where_it_decides_the_check() -> None:
    guarded = jit(roots, mode="compiled")
    guarded(np.arange(4.0), np.zeros(4))
    assert "domainscan" in guarded.inspect("lower")
    unguarded = jit(negate_by_call, mode="compiled")
    unguarded(np.zeros(4), np.zeros(4))
    assert "domainscan" not in unguarded.inspect("lower")
