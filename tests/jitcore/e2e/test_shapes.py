"""Shapes and views compiled against NumPy on arrays of every layout: reshape (-1, views of
contiguous arrays, copies otherwise, NumPy's ValueErrors), ravel, flatten, transpose,
swapaxes, moveaxis, squeeze, expand_dims, atleast_nd, broadcast_to and .T. Whether a result
is a view is checked by writing through it and comparing the argument afterwards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import TypingError, jit
from tests.jitcore.e2e.indexing_helpers import REAL as REAL_DTYPES
from tests.jitcore.e2e.indexing_helpers import arrays
from tests.jitcore.support import assert_same_arrays


def reshape_forms(a, n):  # noqa: ANN001, ANN201
    flat = a.reshape(-1)
    b = a.reshape((n, -1))
    c = np.reshape(a, (-1, n, 1))
    d = a.reshape(n, -1)
    return flat, b, c, d


@given(arrays(max_dims=3), st.sampled_from([1, 2, 3, -1, 0, 7]))
def test_reshape_forms_and_errors(a: np.ndarray, n: int) -> None:
    # ValueError where the size does not divide, for a 0 with -1, for two unknowns
    assert_same_arrays(reshape_forms, a, n)


def reshape_view_or_copy(a):  # noqa: ANN001, ANN201
    r = a.reshape(a.size)
    if r.size:
        r[0] = 1  # changes `a` exactly when NumPy's reshape was a view
    return r, a


@given(arrays(max_dims=3))
def test_reshape_is_a_view_of_contiguous_arrays(a: np.ndarray) -> None:
    assert_same_arrays(reshape_view_or_copy, a)


def reshape_merge_split(a):  # noqa: ANN001, ANN201
    r = a.reshape(a.shape[0] * a.shape[1], -1)
    s = a.reshape(a.shape[0], 1, -1)
    if r.size:
        r[0, 0] = 1  # reaches `a` where NumPy found a view of a non-contiguous array
        s[-1, 0, -1] = 2
    return r, s, a


@given(arrays(min_dims=3, max_dims=3, min_side=1))
def test_reshape_of_strided_arrays_is_a_view_where_numpy_finds_one(a: np.ndarray) -> None:
    assert_same_arrays(reshape_merge_split, a)


def ravel_flatten(a):  # noqa: ANN001, ANN201
    r = np.ravel(a)
    f = a.flatten()
    m = a.ravel()
    if f.size:
        f[0] = 2  # never reaches `a`
    return r, f, m, a


@given(arrays(max_dims=3))
def test_ravel_and_flatten(a: np.ndarray) -> None:
    assert_same_arrays(ravel_flatten, a)


def transposes(a):  # noqa: ANN001, ANN201
    t = a.transpose(2, 0, 1)
    u = np.transpose(a, (1, 0, 2))
    v = np.transpose(a)
    w = a.transpose((0, 2, 1))
    x = np.swapaxes(a, 0, -1)
    y = a.swapaxes(1, 2)
    z = a.T
    if z.size:
        z[0, 0, 0] = 5  # views: `a` changes
    return t, u, v, w, x, y, z, a


@given(arrays(min_dims=3, max_dims=3))
def test_transpose_swapaxes_and_T_are_views(a: np.ndarray) -> None:
    assert_same_arrays(transposes, a)


def transposes_2d(a):  # noqa: ANN001, ANN201
    return a.T, a.transpose(), np.transpose(a, (0, 1)), a.T.T, a.swapaxes(0, 1)


@given(arrays(min_dims=2, max_dims=2))
def test_transpose_of_1d_and_2d(a: np.ndarray) -> None:
    assert_same_arrays(transposes_2d, a)


def moved_axes(a):  # noqa: ANN001, ANN201
    x = np.moveaxis(a, 0, -1)
    y = np.moveaxis(a, (0, 1), (2, 0))
    z = np.moveaxis(a, source=-1, destination=1)
    if z.size:
        z[0, 0, 0] = 7  # views: `a` changes
    return x, y, z, a


@given(arrays(min_dims=3, max_dims=3))
def test_moveaxis_is_a_view_with_numpys_axis_order(a: np.ndarray) -> None:
    assert_same_arrays(moved_axes, a)


def moveaxis_mismatch(a):  # noqa: ANN001, ANN201
    return np.moveaxis(a, (0, 1), 0)


def moveaxis_repeated(a):  # noqa: ANN001, ANN201
    return np.moveaxis(a, (0, 0), (1, 0))


def squeeze_expand(a):  # noqa: ANN001, ANN201
    e = np.expand_dims(a, 0)
    f = np.expand_dims(a, (1, -1))
    s = np.squeeze(e, axis=0)
    t = f.squeeze(axis=(1, -1))
    return e, f, s, t


@given(arrays(max_dims=2))
def test_expand_dims_and_squeeze(a: np.ndarray) -> None:
    assert_same_arrays(squeeze_expand, a)


def squeeze_axis_0(a):  # noqa: ANN001, ANN201
    return np.squeeze(a, axis=0)


@given(arrays(max_dims=2))
def test_squeeze_of_an_axis_longer_than_one_is_a_value_error(a: np.ndarray) -> None:
    assert_same_arrays(squeeze_axis_0, a)


def atleast(a):  # noqa: ANN001, ANN201
    return np.atleast_1d(a), np.atleast_2d(a), np.atleast_3d(a)


@given(arrays(min_dims=1, max_dims=3))
def test_atleast_nd(a: np.ndarray) -> None:
    assert_same_arrays(atleast, a)


def atleast_scalar(x):  # noqa: ANN001, ANN201
    return np.atleast_1d(x), np.atleast_2d(x), np.atleast_3d(x)


@given(st.one_of(st.integers(-5, 5), st.floats(allow_nan=False), st.booleans()))
def test_atleast_nd_of_numbers(x: object) -> None:
    assert_same_arrays(atleast_scalar, x)


def broadcast(a, n):  # noqa: ANN001, ANN201
    return np.broadcast_to(a, (n,) + a.shape), np.broadcast_to(a, a.shape), np.broadcast_to(a, n)


@given(arrays(max_dims=2), st.integers(-1, 4))
def test_broadcast_to(a: np.ndarray, n: int) -> None:
    # ValueError for a negative length and for a shape `a` does not broadcast to
    assert_same_arrays(broadcast, a, n)


def huge_broadcast(a, rows):  # noqa: ANN001, ANN201
    v = np.broadcast_to(a, (rows, a.shape[0]))
    return v.size, v.ravel().shape, np.ascontiguousarray(v).shape


def huge_pair(n):  # noqa: ANN001, ANN201
    x = np.broadcast_to(np.zeros(1), (n, 1))
    y = np.broadcast_to(np.zeros(1), (1, n))
    u, v = np.broadcast_arrays(x, y)
    return u.size, v.shape


@given(st.sampled_from([2**62, 2**61, 2**60, 2**63 - 1, 3, 0]), st.integers(1, 4))
def test_broadcast_to_beyond_int64_raises_as_numpy(rows: int, n: int) -> None:
    # the size or the bytes of a broadcast view must fit int64: it wrapped, and a copy of the
    # view allocated the wrapped size and wrote past it (heap corruption)
    assert_same_arrays(huge_broadcast, np.zeros(n), rows)


@given(st.sampled_from([2**32, 2**31 + 1, 5]))
def test_broadcast_arrays_beyond_int64_raise(n: int) -> None:
    assert_same_arrays(huge_pair, n)


def bool_shape(a, flag):  # noqa: ANN001, ANN201
    return a.reshape(flag, -1)


def test_a_bool_in_a_shape_is_a_type_error_as_in_numpy() -> None:
    assert_same_arrays(bool_shape, np.arange(4.0), True)


def squeeze_no_axis(a):  # noqa: ANN001, ANN201
    return np.squeeze(a)


def transpose_wrong_axes(a):  # noqa: ANN001, ANN201
    return a.transpose(0, 0)


@pytest.mark.parametrize(
    ("f", "message"),
    [
        (squeeze_no_axis, "squeeze needs axis="),
        (transpose_wrong_axes, "repeated axis"),
        (moveaxis_mismatch, "same number of elements"),
        (moveaxis_repeated, "repeated axis"),
    ],
)
def test_shape_errors_known_while_compiling(f, message) -> None:  # noqa: ANN001
    with pytest.raises(TypingError, match=message):
        jit(mode="compiled")(f)(np.ones((1, 2)))


# --- iteration -------------------------------------------------------------------------------


def flat_access(a, i):  # noqa: ANN001, ANN201
    x = a.flat[i]  # IndexError outside, from the end when negative
    a.flat[-1] = 5  # writes reach `a` whatever its layout
    a.flat[0] += 2
    s = a.dtype.type(0)
    for y in a.flat:
        s += y
    return x, s, a


@given(arrays(REAL_DTYPES, max_dims=3, min_side=1), st.integers(-30, 30))
def test_flat_reads_writes_and_iterates_in_c_order(a: np.ndarray, i: int) -> None:
    assert_same_arrays(flat_access, a, i)


def ndindex_loops(a):  # noqa: ANN001, ANN201
    total = a.dtype.type(0)
    weights = 0
    for idx in np.ndindex(a.shape):
        total += a[idx]
        weights += idx[0] * 7 + idx[-1]
    count = 0
    for i, j in np.ndindex(2, 3):
        count += i * 10 + j
    return total, weights, count


@given(arrays(REAL_DTYPES, max_dims=3))
def test_ndindex_visits_every_index_tuple_in_c_order(a: np.ndarray) -> None:
    assert_same_arrays(ndindex_loops, a)


def nditer_order(a):  # noqa: ANN001, ANN201
    out = np.empty(a.size, a.dtype)
    k = 0
    for x in np.nditer(a):
        out[k] = x
        k += 1
    return out


@given(arrays(max_dims=3))
def test_nditer_visits_memory_order(a: np.ndarray) -> None:
    assert_same_arrays(nditer_order, a)


def test_nditer_of_a_transposed_and_reversed_view() -> None:
    a = np.arange(12.0).reshape(3, 4)
    for view in (a.T, a[::-1], a[::-1, ::-2], a.T[::-1]):
        assert_same_arrays(nditer_order, view)
