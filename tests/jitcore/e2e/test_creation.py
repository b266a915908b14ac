"""Array creation compiled against NumPy: np.array/np.asarray of numbers, nested tuples and
arrays (with dtype=), eye, identity, diag, diagflat, tri, tril, triu, full_like, and dtype=
given as a type, a string or `a.dtype`."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jitcore import TypingError, jit
from tests.jitcore.e2e.indexing_helpers import DTYPES, REAL, arrays
from tests.jitcore.support import assert_same_arrays

numbers = st.one_of(st.integers(-100, 100), st.floats(-1e6, 1e6), st.booleans())


def literals(x, y):  # noqa: ANN001, ANN201
    return (
        np.array((x, y, 3)),
        np.array(((x, 1), (2, y))),
        np.array((x, y), dtype=np.float32),
        np.array(x),
        np.asarray((y, x)),
        np.array(((x,), (y,)), dtype="f8"),
    )


@given(numbers, numbers)
def test_array_of_numbers_and_nested_tuples(x: object, y: object) -> None:
    assert_same_arrays(literals, x, y)


def from_arrays(a):  # noqa: ANN001, ANN201
    c = np.array(a)
    d = np.asarray(a)
    e = np.asarray(a, dtype=np.float64)
    f = np.array((a, a))
    g = np.array(a, dtype=a.dtype)
    c[...] = 0  # a copy
    d[...] = 1  # `a` itself
    return c, d, e, f, g, a


@given(arrays(DTYPES, max_dims=2))
def test_array_and_asarray_of_arrays(a: np.ndarray) -> None:
    assert_same_arrays(from_arrays, a)


def ragged(x):  # noqa: ANN001, ANN201
    return np.array(((x, 1), (2,)))


def test_ragged_tuples_are_typing_errors() -> None:
    with pytest.raises(TypingError, match="inhomogeneous"):
        jit(mode="compiled")(ragged)(1)


def matrices(n, m, k):  # noqa: ANN001, ANN201
    return (
        np.eye(n),
        np.eye(n, m, k),
        np.eye(n, k=k, dtype=np.int32),
        np.identity(n),
        np.identity(n, dtype=np.bool_),
        np.tri(n, m, k),
        np.tri(n, dtype="int64"),
    )


@given(st.integers(-1, 5), st.integers(0, 5), st.integers(-6, 6))
def test_eye_identity_tri(n: int, m: int, k: int) -> None:
    assert_same_arrays(matrices, n, m, k)  # ValueError for n < 0


def diagonals(a, k):  # noqa: ANN001, ANN201
    return np.diag(a, k), np.diag(a), np.diagflat(a, k), np.diagflat(a)


@given(arrays(DTYPES, max_dims=2), st.integers(-6, 6))
def test_diag_and_diagflat(a: np.ndarray, k: int) -> None:
    assert_same_arrays(diagonals, a, k)


def triangles(a, k):  # noqa: ANN001, ANN201
    return np.tril(a), np.tril(a, k), np.triu(a), np.triu(a, k=k)


@given(arrays(DTYPES, max_dims=3), st.integers(-6, 6))
def test_tril_triu(a: np.ndarray, k: int) -> None:
    assert_same_arrays(triangles, a, k)


def tri_and_triangles(a, k):  # noqa: ANN001, ANN201
    return np.tri(3, 4, k, dtype=np.int8), np.eye(4, 3, k), np.tril(a, k), np.triu(a, k)


INT64_MAX = 2**63 - 1


@given(arrays(DTYPES, max_dims=3), st.integers(INT64_MAX - 8, INT64_MAX))
def test_tri_tril_triu_of_a_k_near_the_int64_maximum(a: np.ndarray, k: int) -> None:
    # i + k wrapped: rows below the first came out as if k were hugely negative
    assert_same_arrays(tri_and_triangles, a, k)


@given(arrays(DTYPES, max_dims=3), st.integers(-(2**63), -(2**63) + 8))
def test_tri_tril_triu_of_a_k_near_the_int64_minimum(a: np.ndarray, k: int) -> None:
    # NumPy raises OverflowError here (its arange(-k, M - k) leaves int64); a k beyond every
    # diagonal acts as one just past the matrix
    far = -(max(a.shape[-2:], default=1) + 4)
    got = jit(mode="compiled")(tri_and_triangles)(a.copy(), k)
    for g, e in zip(got, tri_and_triangles(a.copy(), far)):
        np.testing.assert_array_equal(g, e, strict=True)


def filled_like(a, x):  # noqa: ANN001, ANN201
    return (
        np.full_like(a, x),
        np.full_like(a, x, dtype=np.float32),
        np.zeros(a.shape, dtype=a.dtype),
        np.ones(3, dtype="int32"),
        np.empty(a.shape, a.dtype).shape,
    )


@given(arrays(REAL, max_dims=2), st.integers(-100, 100))
def test_full_like_and_dtype_arguments(a: np.ndarray, x: int) -> None:
    assert_same_arrays(filled_like, a, x)


def bad_dtype(n):  # noqa: ANN001, ANN201
    return np.zeros(n, dtype="not a dtype")


def test_an_unknown_dtype_string_is_a_typing_error() -> None:
    with pytest.raises(TypingError, match="dtype"):
        jit(mode="compiled")(bad_dtype)(2)


def ranges(n, s):  # noqa: ANN001, ANN201
    return (
        np.arange(stop=n),
        np.arange(2, stop=n),
        np.arange(n, step=s),
        np.arange(1, n, step=s, dtype=np.float32),
        np.linspace(0, n, 7, dtype=np.int64),
        np.linspace(-1.5, n, 5, dtype=np.float32),
        np.linspace(0, 1, n, retstep=True)[0],
        np.linspace(0, n, 4, endpoint=False, retstep=True),
    )


@given(st.integers(0, 20), st.integers(-3, 3))
def test_arange_and_linspace_keyword_forms(n: int, s: int) -> None:
    assert_same_arrays(ranges, n, s)  # a zero step: ZeroDivisionError


def tri_of(n, m):  # noqa: ANN001, ANN201
    return np.tri(n, m)


@given(st.integers(-3, 4), st.integers(-3, 4))
def test_tri_of_a_negative_side_is_empty(n: int, m: int) -> None:
    assert_same_arrays(tri_of, n, m)


def int8_from(x, n):  # noqa: ANN001, ANN201
    return np.full(n, x, dtype=np.int8), np.array(x, dtype=np.int8), np.arange(x, 200, 50, np.int8)


@given(st.integers(-300, 300))
def test_python_ints_beyond_a_creation_dtype_raise_as_numpy(x: int) -> None:
    """np.full, np.array and np.arange (its start) refuse a Python int that int8 cannot
    hold, as NumPy 2 does (they once wrapped: 300 became 44)."""
    assert_same_arrays(int8_from, x, 2)


def complex_into_real(x, y):  # noqa: ANN001, ANN201
    return np.array((x, y), dtype=np.float64), np.array((x, y), dtype=np.int64)


def nan_into_ints(x):  # noqa: ANN001, ANN201
    return np.array((x, 1.0), dtype=np.int64)


@pytest.mark.parametrize("y", [2j, 1.5, 3])
def test_array_of_python_numbers_converts_each_as_numpy(y: object) -> None:
    assert_same_arrays(complex_into_real, 1.0, y)  # a complex: TypeError, as NumPy
    for x in (float("nan"), float("inf"), 1e300, -2.5):
        assert_same_arrays(nan_into_ints, x)  # ValueError / OverflowError, as int(x)


def full_like_of(a, x):  # noqa: ANN001, ANN201
    return np.full_like(a, x), np.full(a.shape, x, dtype=a.dtype)


def test_full_like_casts_a_float_as_full_does() -> None:
    for x in (2.5, -1.5, 1e3):
        assert_same_arrays(full_like_of, np.zeros(3, np.int8), x)
    assert_same_arrays(full_like_of, np.zeros(3, np.int8), 300)  # OverflowError, both


def spaced(a, b, n):  # noqa: ANN001, ANN201
    return (
        np.linspace(a, b, n),
        np.linspace(a, b, n, retstep=True)[1],
        np.linspace(a, b, n, dtype=np.int32),
    )


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (np.float32(0.1), np.float32(0.7)),
        (np.float32(0.1), 2),
        (0.25, np.float32(3.5)),
        (np.int8(1), 5),
        (0.1, 0.7),
    ],
)
def test_linspace_computes_in_the_endpoints_float_type(a: object, b: object) -> None:
    for n in (0, 1, 2, 7, 50):
        got = assert_same_arrays(spaced, a, b, n)
        assert got[0].dtype == np.linspace(a, b, n).dtype


def counted(n):  # noqa: ANN001, ANN201
    return np.arange(n), np.arange(1, n), np.arange(0, n, 2)


@pytest.mark.parametrize("n", [np.uint64(5), np.int32(4), np.uint8(3), 6])
def test_arange_dtype_of_numpy_integer_bounds(n: object) -> None:
    got = assert_same_arrays(counted, n)
    assert [g.dtype for g in got] == [e.dtype for e in counted(n)]


# --- np.array of lists -------------------------------------------------------------------------


def arrays_of_lists(values, n, scale):  # noqa: ANN001, ANN201
    row = [v * scale for v in values]
    return (
        np.array(row),
        np.asarray(row),
        np.array(row, dtype=np.float32),
        np.array([row, row]),
        np.array([(v, v * 2) for v in row]),
        np.array([np.arange(float(n)) * v for v in row]),
        np.array([[k] * (n + 1) for k in range(2)]),  # no rows empty: NumPy's dtype
        np.array([v > 0 for v in row]),
    )


@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=5), st.integers(0, 3), numbers)
def test_array_of_lists_of_numbers_rows_tuples_and_arrays(
    values: list[float], n: int, scale: object
) -> None:
    assert_same_arrays(arrays_of_lists, values, n, scale)


def ragged_rows(n):  # noqa: ANN001, ANN201
    return np.array([[1.0] * (k % 2 + 1) for k in range(n)])


def ragged_arrays(n):  # noqa: ANN001, ANN201
    return np.array([np.zeros(k % 2 + 1) for k in range(n)])


def int_list_into(dtype_probe, k):  # noqa: ANN001, ANN201
    return np.array([k, 1], dtype=dtype_probe.dtype)


@given(st.integers(1, 4))
def test_ragged_lists_raise_value_error_as_numpy(n: int) -> None:
    assert_same_arrays(ragged_rows, n)  # n >= 2: ValueError (inhomogeneous shape)
    assert_same_arrays(ragged_arrays, n)


@given(st.integers(-(2**63), 2**63 - 1), st.sampled_from([np.int8, np.uint16, np.int64]))
def test_python_ints_of_a_list_beyond_the_dtype_raise_as_numpy(k: int, dtype: type) -> None:
    assert_same_arrays(int_list_into, np.zeros(1, dtype=dtype), k)  # OverflowError


def empty_lists(n):  # noqa: ANN001, ANN201
    floats = [0.5 * k for k in range(n)]
    rows = [[0.5 * k] for k in range(n)]
    pairs = [(k, k) for k in range(n)]
    return np.array(floats).shape, np.array(rows).shape, np.array(pairs).shape


def test_empty_lists_of_rows_keep_their_dimensions() -> None:
    """Documented difference: NumPy sees no item in an empty list and makes shape (0,) (and
    float64 of a list of empty rows)."""
    f = jit(empty_lists, mode="compiled")
    assert f(0) == ((0,), (0, 0), (0, 2))
    assert f(2) == empty_lists(2)


def test_lists_of_arrays_and_rows_are_released() -> None:
    from jitcore import runtime

    f = jit(arrays_of_lists, mode="compiled")
    f([1.0, 2.0], 3, 2)
    before = runtime.live_bytes()
    f([1.0, 2.0, 3.0], 3, 2)
    assert runtime.live_bytes() == before
