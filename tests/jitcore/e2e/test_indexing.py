"""Indexing compiled against NumPy: boolean masks and integer index arrays (read and write),
`None`/`np.newaxis`, `...`, mixed basic and advanced items, negative steps; on arrays of every
layout, empty ones included, with NumPy's exceptions (IndexError out of bounds or for a mask
of the wrong shape, ValueError for a zero step or a value that does not broadcast)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import TypingError, jit
from tests.jitcore.e2e.indexing_helpers import REAL, arrays, indices, masks
from tests.jitcore.support import assert_same_arrays

# --- boolean masks --------------------------------------------------------------------------


def mask_read(a, m):  # noqa: ANN001, ANN201
    return a[m]


@given(st.data(), arrays())
def test_full_mask_read_is_a_1d_copy(data: st.DataObject, a: np.ndarray) -> None:
    m = data.draw(masks(a.shape))
    assert_same_arrays(mask_read, a, m)


def positive(a):  # noqa: ANN001, ANN201
    picked = a[a > 0]
    picked += 1  # a copy: `a` stays as it was
    return picked, a


@given(arrays(REAL, max_dims=2))
def test_comparison_mask(a: np.ndarray) -> None:
    assert_same_arrays(positive, a)


def mask_rows_cols(a, r, c):  # noqa: ANN001, ANN201
    return a[r], a[:, c], a[r, 1:], a[..., c], a[::-1, c]


@given(st.data(), arrays(min_dims=2, max_dims=2))
def test_mask_on_one_axis(data: st.DataObject, a: np.ndarray) -> None:
    r = data.draw(masks((a.shape[0],)))
    c = data.draw(masks((a.shape[1],)))
    assert_same_arrays(mask_rows_cols, a, r, c)


def mask_first_two(a, m):  # noqa: ANN001, ANN201
    return a[m], a[m, ::-1]


@given(st.data(), arrays(min_dims=3, max_dims=3))
def test_2d_mask_on_leading_axes_of_3d(data: st.DataObject, a: np.ndarray) -> None:
    m = data.draw(masks(a.shape[:2]))
    assert_same_arrays(mask_first_two, a, m)


@given(st.data(), arrays(max_dims=2, min_side=1))
def test_mask_of_the_wrong_shape_is_an_index_error(data: st.DataObject, a: np.ndarray) -> None:
    m = data.draw(masks((a.shape[0] + data.draw(st.sampled_from([-1, 1])),)))
    assert_same_arrays(mask_read, a, m)


def mask_write(a, m, x):  # noqa: ANN001, ANN201
    a[m] = x
    return a


@given(st.data(), arrays(REAL, max_dims=3), st.integers(-3, 100))
def test_mask_write_scalar(data: st.DataObject, a: np.ndarray, x: int) -> None:
    assert_same_arrays(mask_write, a, data.draw(masks(a.shape)), x)


def mask_write_array(a, m):  # noqa: ANN001, ANN201
    a[m] = a[m] * 2  # a value of the selection's own length
    a[a > 50] = a[0]  # an element, broadcast
    return a


@given(st.data(), arrays(REAL, max_dims=1, min_side=1))
def test_mask_write_array(data: st.DataObject, a: np.ndarray) -> None:
    assert_same_arrays(mask_write_array, a, data.draw(masks(a.shape)))


def mask_write_rows(a, m, row):  # noqa: ANN001, ANN201
    a[m] = row  # each selected row gets `row`
    a[m, 0] += 1
    return a


@given(st.data(), arrays(REAL, min_dims=2, max_dims=2))
def test_mask_write_broadcasts_rows(data: st.DataObject, a: np.ndarray) -> None:
    m = data.draw(masks((a.shape[0],)))
    width = data.draw(st.sampled_from([a.shape[1], 1, a.shape[1] + 1]))
    row = np.arange(width, dtype=a.dtype)
    assert_same_arrays(mask_write_rows, a, m, row)  # ValueError when it cannot broadcast


# --- integer index arrays -------------------------------------------------------------------


def fancy_read(a, i):  # noqa: ANN001, ANN201
    return a[i]


@given(st.data(), arrays(max_dims=3))
def test_index_array_read(data: st.DataObject, a: np.ndarray) -> None:
    i = data.draw(indices(a.shape[0], dtype=data.draw(st.sampled_from([np.int64, np.int32]))))
    assert_same_arrays(fancy_read, a, i)  # IndexError when one is out of bounds


def fancy_axes(a, i, j):  # noqa: ANN001, ANN201
    return a[:, j], a[i, 1:], a[..., j], a[::-1, j], a[None, i], a[i, ::-2]


@given(st.data(), arrays(min_dims=2, max_dims=2))
def test_index_array_on_any_axis(data: st.DataObject, a: np.ndarray) -> None:
    i = data.draw(indices(a.shape[0]))
    j = data.draw(indices(a.shape[1]))
    assert_same_arrays(fancy_axes, a, i, j)


def fancy_middle(a, i, k):  # noqa: ANN001, ANN201
    return a[k, i], a[:, i, k], a[..., i, :]


@given(st.data(), arrays(min_dims=3, max_dims=3, min_side=1), st.integers(-2, 1))
def test_index_array_mixed_with_ints_on_3d(data: st.DataObject, a: np.ndarray, k: int) -> None:
    i = data.draw(indices(a.shape[1]))
    assert_same_arrays(fancy_middle, a, i, k)


@given(st.data(), arrays(max_dims=2, min_side=1))
def test_2d_index_array(data: st.DataObject, a: np.ndarray) -> None:
    n = a.shape[0]
    shape = hnp.array_shapes(min_dims=2, max_dims=2, min_side=0, max_side=3)
    i = data.draw(hnp.arrays(np.int64, shape, elements=st.integers(-n, n - 1)))
    assert_same_arrays(fancy_read, a, i)  # the result has i's axes in place of axis 0


def fancy_write(a, i, x):  # noqa: ANN001, ANN201
    a[i] = x
    return a


@given(st.data(), arrays(REAL, max_dims=2), st.integers(-5, 100))
def test_index_array_write_scalar(data: st.DataObject, a: np.ndarray, x: int) -> None:
    # repeated indices keep the last value, as in NumPy; out of bounds writes nothing
    assert_same_arrays(fancy_write, a, data.draw(indices(a.shape[0])), x)


def fancy_write_columns(a, j):  # noqa: ANN001, ANN201
    a[:, j] = a[:, 0:1] + 1  # a column broadcast across the selected columns
    a[0, j] += 3
    return a


@given(st.data(), arrays(REAL, min_dims=2, max_dims=2, min_side=1))
def test_index_array_write_array(data: st.DataObject, a: np.ndarray) -> None:
    assert_same_arrays(fancy_write_columns, a, data.draw(indices(a.shape[1])))


def fancy_from_unsigned(a, i):  # noqa: ANN001, ANN201
    return a[i], a[i.astype(np.uint8)]


@given(st.data(), arrays(max_dims=1, min_side=1))
def test_unsigned_index_arrays(data: st.DataObject, a: np.ndarray) -> None:
    i = data.draw(indices(a.shape[0]).map(np.abs))
    assert_same_arrays(fancy_from_unsigned, a, i)


def several(a, i, j):  # noqa: ANN001, ANN201
    return a[i, j], a[i, :, j], a[:, i, j], a[i[:, None], j], a[i, -1, j[:1]]


@given(st.data(), arrays(min_dims=3, max_dims=3, min_side=1))
def test_several_index_arrays_broadcast_together(data: st.DataObject, a: np.ndarray) -> None:
    i = data.draw(indices(a.shape[0]))
    j = data.draw(indices(a.shape[2]))
    # IndexError where i and j do not broadcast, or for an index out of bounds
    assert_same_arrays(several, a, i, j)


def several_write(a, i, j, x):  # noqa: ANN001, ANN201
    a[i, j] = x
    a[i, j] += 1
    return a


@given(st.data(), arrays(REAL, min_dims=2, max_dims=2, min_side=1), st.integers(0, 50))
def test_several_index_arrays_write(data: st.DataObject, a: np.ndarray, x: int) -> None:
    i = data.draw(indices(a.shape[0]))
    j = data.draw(indices(a.shape[1]))
    assert_same_arrays(several_write, a, i, j, x)


# --- None, Ellipsis, negative steps ----------------------------------------------------------


def newaxis_views(a, k):  # noqa: ANN001, ANN201
    v = a[None, ..., ::-1]
    w = a[..., None]
    x = a[k, ...]  # a view, 0-d for a 1-d array
    y = a[:, np.newaxis]
    v[...] = 0  # writes through the view
    return v, w, x, y, a


@given(arrays(max_dims=3, min_side=1), st.integers(-1, 0))
def test_newaxis_and_ellipsis_give_views(a: np.ndarray, k: int) -> None:
    assert_same_arrays(newaxis_views, a, k)


def ellipsis_items(a, i, j):  # noqa: ANN001, ANN201
    return a[..., i:j], a[..., -1], a[i, ..., -1], a[...], a[..., None, :]


@given(arrays(min_dims=2, max_dims=3, min_side=1), st.integers(-4, 4), st.integers(-4, 4))
def test_ellipsis_with_other_items(a: np.ndarray, i: int, j: int) -> None:
    assert_same_arrays(ellipsis_items, a, i, j)


def negative_steps(a, i, j, k):  # noqa: ANN001, ANN201
    return a[::-1, ::-2], a[i:j:k, ::-1], a[j:i:k], a[::-3, i]


@given(
    arrays(min_dims=2, max_dims=2, min_side=1),
    st.integers(-6, 6),
    st.integers(-6, 6),
    st.integers(-3, 3),
)
def test_negative_steps_everywhere(a: np.ndarray, i: int, j: int, k: int) -> None:
    assert_same_arrays(negative_steps, a, i, j, k)  # k == 0: ValueError


def write_negative_step(a, x):  # noqa: ANN001, ANN201
    a[::-2] = x
    a[..., ::-1] += 1
    return a


@given(arrays(REAL, max_dims=2), st.integers(0, 9))
def test_writes_through_negative_steps(a: np.ndarray, x: int) -> None:
    assert_same_arrays(write_negative_step, a, x)


# --- errors while compiling ------------------------------------------------------------------


def mask_and_array(a, m, j):  # noqa: ANN001, ANN201
    return a[m, j]


def float_index(a, f):  # noqa: ANN001, ANN201
    return a[f]


def two_ellipses(a):  # noqa: ANN001, ANN201
    return a[..., ...]


@pytest.mark.parametrize(
    ("f", "args", "message"),
    [
        (mask_and_array, (np.ones((2, 2)), np.ones(2, bool), np.array([1])), "mask together"),
        (float_index, (np.ones(3), np.ones(2)), r"integer \(or boolean\) type"),
        (two_ellipses, (np.ones(3),), "single ellipsis"),
    ],
)
def test_unsupported_indices_are_typing_errors(f, args, message) -> None:  # noqa: ANN001
    with pytest.raises(TypingError, match=message):
        jit(mode="compiled")(f)(*args)


def zero_d(a):  # noqa: ANN001, ANN201
    v = a[...]
    v[...] = 3  # a view: `a` changes
    return a[None], a[..., None], a[()], v, np.atleast_1d(a), a.reshape(1, 1), a


@pytest.mark.parametrize("value", [np.array(2.5), np.array(7, np.int32), np.array(True)])
def test_0d_arrays(value: np.ndarray) -> None:
    assert_same_arrays(zero_d, value)


def take_0d(a, i, j):  # noqa: ANN001, ANN201
    return a[i], a[i, j], a[i, 0]


def bump_0d(a, i, j):  # noqa: ANN001, ANN201
    a[i, j] += 1
    return a


@given(st.integers(-4, 3), st.integers(-5, 4))
def test_a_0d_integer_array_indexes_as_its_integer(i: int, j: int) -> None:
    """NumPy takes a 0-d integer array in an index for the integer it holds (it once failed
    to compile: an internal error)."""
    a = np.arange(12.0).reshape(3, 4)
    assert_same_arrays(take_0d, a, np.array(i), np.array(j))
    assert_same_arrays(bump_0d, a, np.array(i), np.array(j))


def take_at(x, i):  # noqa: ANN001, ANN201
    return x[i]


@pytest.mark.parametrize("container", [np.arange(5.0), [1, 2, 3], (1, 2, 3)], ids=type)
def test_a_uint64_index_beyond_int64_raises_as_python(container: object) -> None:
    """np.uint64(2**64 - 1) once wrapped to -1 and read the last item."""
    big = np.uint64(2**64 - 1)
    with pytest.raises((OverflowError, IndexError)) as python:
        take_at(container, big)
    with pytest.raises(python.type):
        jit(mode="compiled")(take_at)(container, big)
    assert jit(mode="compiled")(take_at)(container, np.uint64(2)) == take_at(container, 2)


def int_slice_array(b, i, k):  # noqa: ANN001, ANN201
    return b[i, :, k], b[k, :, i], b[i, ..., k], b[:, i, k]


def put_int_slice_array(b, i, k):  # noqa: ANN001, ANN201
    b[i, :, k] = np.arange(4.0)[:, None] * 10
    return b


@given(st.integers(-3, 2), hnp.arrays(np.int64, st.integers(1, 3), elements=st.integers(-3, 2)))
def test_an_integer_apart_from_an_index_array_puts_its_axes_first(i: int, k: np.ndarray) -> None:
    """NumPy counts an integer among the advanced indices: in b[0, :, k] the integer and k are
    not next to each other, so k's axes come first, (len(k), 4), not (4, len(k)) (once
    transposed, and writes refused)."""
    b = np.arange(60.0).reshape(3, 4, 5)
    assert_same_arrays(int_slice_array, b, i, k)
    assert_same_arrays(put_int_slice_array, b, i, k)


def every_kth(a, items, k):  # noqa: ANN001, ANN201
    return a[::k], items[::k]


@pytest.mark.parametrize("k", [-(2**63), -(2**63) + 1, 2**63 - 1, -1, 3])
def test_extreme_slice_steps_are_clamped_as_cpython_does(k: int) -> None:
    """CPython clamps a step of -2**63 to -(2**63 - 1): one item (the length once
    overflowed: every item of the array, an IndexError for the list)."""
    a, items = np.arange(5.0), [0, 1, 2, 3, 4]
    got, want = jit(mode="compiled")(every_kth)(a, items, k), every_kth(a, items, k)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1]


def store_complex(a, v):  # noqa: ANN001, ANN201
    a[0] = v
    return a


def store_complex_slice(a, v):  # noqa: ANN001, ANN201
    a[1:] = v
    return a


def store_complex_masked(a, v):  # noqa: ANN001, ANN201
    a[a == 0] = v
    a[np.array((0, 1))] = v
    return a


def store_complex_flat(a, v):  # noqa: ANN001, ANN201
    a.flat[0] = v
    return a


def store_numpy_complex(a, c):  # noqa: ANN001, ANN201
    a[0] = c[0]  # a NumPy complex is cast: its imaginary part is dropped, as NumPy does
    return a


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.int64, np.float32, np.float64])
@pytest.mark.parametrize(
    "kernel", [store_complex, store_complex_slice, store_complex_masked, store_complex_flat]
)
def test_a_python_complex_stored_into_a_real_array_raises_as_numpy(kernel, dtype) -> None:  # noqa: ANN001
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        assert_same_arrays(kernel, np.zeros(3, dtype), 2j)
        assert_same_arrays(kernel, np.zeros(3, dtype), 1.0)
        assert_same_arrays(store_numpy_complex, np.zeros(3, dtype), np.array([2j]))


# --- a NumPy integer scalar stored into integers of another dtype -------------------------------
# NumPy 2 (checked on 2.4): a store of one value (a[i] = s, a[:] = s, a[...] = s, a row,
# a.fill(s), a.flat[i] = s) takes int(s), which must fit a signed dtype (OverflowError; for
# a.flat ValueError) and wraps into an unsigned one; a store into a selection (a mask, an
# index array, np.put, np.fill_diagonal, np.insert, np.copyto) casts s as an array, wrapping.
# A Python int must fit everywhere. Compiled code treated an int64 element as a Python int and
# cast the other integer types, the opposite of NumPy both ways.


def at_index(d, s):  # noqa: ANN001, ANN201
    d[1] = s[0]
    return d


def at_slice(d, s):  # noqa: ANN001, ANN201
    d[:] = s[0]
    return d


def at_ellipsis(d, s):  # noqa: ANN001, ANN201
    d[...] = s[0]
    return d


def at_row(d, s):  # noqa: ANN001, ANN201
    d2 = d.reshape(1, 3)
    d2[0] = s[0]
    return d


def filled(d, s):  # noqa: ANN001, ANN201
    d.fill(s[0])
    return d


def at_flat(d, s):  # noqa: ANN001, ANN201
    d.flat[2] = s[0]
    return d


def at_mask(d, s):  # noqa: ANN001, ANN201
    d[d == 0] = s[0]
    return d


def at_fancy(d, s):  # noqa: ANN001, ANN201
    d[np.array([0, 2])] = s[0]
    return d


def at_row_and_fancy(d, s):  # noqa: ANN001, ANN201
    d2 = d.reshape(1, 3)
    d2[0, np.array([1])] = s[0]
    return d


def put(d, s):  # noqa: ANN001, ANN201
    np.put(d, np.array([1]), s[0])
    return d


def fill_diagonal(d, s):  # noqa: ANN001, ANN201
    np.fill_diagonal(d.reshape(1, 3), s[0])
    return d


def inserted(d, s):  # noqa: ANN001, ANN201
    return np.insert(d, 1, s[0])


def at_index_python_int(d, s):  # noqa: ANN001, ANN201
    d[1] = int(s[0])
    return d


def at_mask_python_int(d, s):  # noqa: ANN001, ANN201
    d[d == 0] = int(s[0])
    return d


INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
STORES = [
    at_index,
    at_slice,
    at_ellipsis,
    at_row,
    filled,
    at_flat,
    at_mask,
    at_fancy,
    at_row_and_fancy,
    put,
    fill_diagonal,
    inserted,
    at_index_python_int,
    at_mask_python_int,
]


@st.composite
def int_elements(draw: st.DrawFn) -> np.ndarray:
    dtype = draw(st.sampled_from(INT_DTYPES))
    info = np.iinfo(dtype)
    edges = [int(info.min), int(info.max), -1, 0, 127, 128, 200, 255, 256, 300, 2**31, 2**63]
    inside = [x for x in edges if info.min <= x <= info.max]
    value = draw(st.sampled_from(inside) | st.integers(int(info.min), int(info.max)))
    return np.array([value], dtype=dtype)


@pytest.mark.parametrize("f", STORES, ids=lambda f: f.__name__)
@given(dst=st.sampled_from([*INT_DTYPES, "bool"]), s=int_elements())
def test_a_numpy_int_stored_into_other_ints_converts_as_numpy(
    f,  # noqa: ANN001
    dst: str,
    s: np.ndarray,
) -> None:
    # (int() of a uint64 of 2**63 or more is out of the compiled domain: rejected)
    assert_same_arrays(f, np.zeros(3, dtype=dst), s)
