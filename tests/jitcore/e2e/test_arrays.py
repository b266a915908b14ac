"""Arrays compiled against NumPy-in-Python on Hypothesis arrays of random dtype, shape and
layout (C, Fortran, strided and reversed views), empty arrays, NaN and inf included."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import TypingError, jit
from tests.jitcore.support import assert_same_arrays, ci_examples, compiled

FLOATS = [np.float32, np.float64]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
NUMERIC = FLOATS + INTS
ALL = NUMERIC + [np.bool_, np.complex64, np.complex128]


@st.composite
def arrays(draw, dtypes=NUMERIC, min_dims=1, max_dims=3, min_side=0, max_side=6, bounded=False):  # noqa: ANN001, ANN201, E501
    """An array in any layout: C, F, a strided slice, or a reversed view."""
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(
        hnp.array_shapes(
            min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
        )
    )
    elements = None
    if bounded and np.dtype(dtype).kind == "f":  # NaN and inf, but no overflow on the way
        width = np.dtype(dtype).itemsize * 8
        elements = st.floats(-1e3, 1e3, width=width) | st.sampled_from([np.nan, np.inf, -np.inf])
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        elements = st.integers(max(info.min, -100), min(info.max, 100))
    a = draw(hnp.arrays(dtype, shape, elements=elements))
    layout = draw(st.sampled_from(["C", "F", "strided", "reversed"]))
    if layout == "F":
        a = np.asfortranarray(a)
    elif layout == "strided":
        big = np.repeat(a, 2, axis=-1) if a.ndim else a
        a = big[..., ::2]
    elif layout == "reversed":
        a = a[::-1]
    return a


def index_sum(a):  # noqa: ANN001, ANN201
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@given(arrays(FLOATS, max_dims=1))
def test_element_reads(a: np.ndarray) -> None:
    assert_same_arrays(index_sum, a)


def nested(a):  # noqa: ANN001, ANN201
    s = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i - j)
    return s


@given(arrays(INTS, min_dims=2, max_dims=2))
def test_nested_loops_over_shape(a: np.ndarray) -> None:
    assert_same_arrays(nested, a)


def negative_and_tuple_index(a, i, j):  # noqa: ANN001, ANN201
    return a[i, j], a[-1, -1], a[i][j]


@given(arrays(ALL, min_dims=2, max_dims=2, min_side=1), st.integers(-8, 8), st.integers(-8, 8))
def test_indexing_wraps_and_checks_bounds(a: np.ndarray, i: int, j: int) -> None:
    assert_same_arrays(negative_and_tuple_index, a, i, j)  # IndexError both ways out of bounds


def writes(a, i, v):  # noqa: ANN001, ANN201
    a[i] = v
    a[0] += 1
    return a


@given(arrays(NUMERIC, max_dims=1, min_side=1), st.integers(-6, 6), st.integers(0, 100))
def test_writes_are_visible_to_the_caller(a: np.ndarray, i: int, v: int) -> None:
    assert_same_arrays(writes, a, i, v)


def slices(a, i, j, k):  # noqa: ANN001, ANN201
    return a[1:-1], a[::2], a[i:j:k], a[::-1], a[j:], a[:i]


@given(arrays(ALL, max_dims=1), st.integers(-8, 8), st.integers(-8, 8), st.integers(-3, 3))
def test_basic_slicing_gives_views(a: np.ndarray, i: int, j: int, k: int) -> None:
    assert_same_arrays(slices, a, i, j, k)  # k == 0 raises ValueError both ways


def views_2d(a, i):  # noqa: ANN001, ANN201
    row = a[i]
    col = a[:, i]
    sub = a[1:, ::2]
    col[0] = 7
    return row, col, sub, a.T, a.shape, a.ndim, a.size, len(a)


@given(arrays(NUMERIC, min_dims=2, max_dims=2, min_side=1), st.integers(0, 0))
def test_row_column_views_and_attributes(a: np.ndarray, i: int) -> None:
    assert_same_arrays(views_2d, a, i)


def strides_and_iteration(a):  # noqa: ANN001, ANN201
    total = 0.0
    for row in a:
        for x in row:
            total += x
    return a.strides, total


@given(arrays(FLOATS, min_dims=2, max_dims=2))
def test_strides_and_for_over_array(a: np.ndarray) -> None:
    assert_same_arrays(strides_and_iteration, a)


def creation(n):  # noqa: ANN001, ANN201
    return (
        np.zeros(n),
        np.ones((n, 2), dtype=np.int32),
        np.full((2, n), 1.5),
        np.empty(n).shape,
        np.arange(n),
        np.arange(1, n, 2),
        np.arange(0.5, n, 0.25),
        np.linspace(0.0, 1.0, n),
        np.linspace(-1, 1, n, endpoint=False),
        np.zeros((n, 3), order="F"),
    )


@given(st.integers(0, 12))
def test_creation_functions(n: int) -> None:
    assert_same_arrays(creation, n)


def likes(a):  # noqa: ANN001, ANN201
    return (
        np.zeros_like(a),
        np.ones_like(a),
        np.empty_like(a).shape,
        a.copy(),
        np.copy(a),
        np.zeros_like(a, dtype=np.float32),
    )


@given(arrays(NUMERIC))
def test_like_functions_and_copies(a: np.ndarray) -> None:
    assert_same_arrays(likes, a)


def arithmetic(a, b):  # noqa: ANN001, ANN201
    return a + b, a - b, a * b, a / b, a // b, a % b, -a, a == b, a < b, a >= b


@given(arrays(NUMERIC, max_dims=2), arrays(NUMERIC, max_dims=2))
@ci_examples(25)
def test_elementwise_with_broadcasting_and_numpy_dtypes(a: np.ndarray, b: np.ndarray) -> None:
    # shapes that do not broadcast raise ValueError both ways
    assert_same_arrays(arithmetic, a, b)


def with_scalars(a, s):  # noqa: ANN001, ANN201
    return a * s, s - a, a * 2, 1.5 + a, a**2, a > s


@given(arrays(NUMERIC), st.floats(-10, 10) | st.integers(-10, 10))
def test_array_scalar_operations(a: np.ndarray, s: float) -> None:
    assert_same_arrays(with_scalars, a, s)


def int_ops(a, b):  # noqa: ANN001, ANN201
    return a & b, a | b, a ^ b, ~a, a << 2, a >> 1


@given(arrays([np.int32, np.int64, np.uint8, np.bool_], max_dims=2), st.integers(0, 100))
def test_bitwise_arrays(a: np.ndarray, b: int) -> None:
    if a.dtype == np.bool_:
        b = bool(b)
    assert_same_arrays(int_ops, a, b) if a.dtype != np.bool_ else None


def inplace(a, b):  # noqa: ANN001, ANN201
    a += b
    a *= 2
    a[1:] = a[:-1]
    a[:] = a * 1
    return a


@given(arrays(FLOATS, max_dims=1), st.floats(-5, 5))
def test_in_place_and_overlapping_slice_assignment(a: np.ndarray, b: float) -> None:
    assert_same_arrays(inplace, a, b)


def inplace_wider(a, b, flag):  # noqa: ANN001, ANN201
    if flag:
        a += b
    if not flag:
        a[...] -= b
    return a.sum()


def inplace_wider_slice(a, b):  # noqa: ANN001, ANN201
    a[1:] *= b[..., 1:]
    return a


@pytest.mark.parametrize("flag", [False, True])
@pytest.mark.parametrize(
    ("a", "b"),
    [
        (np.arange(6.0), np.ones((1, 6))),
        (np.arange(6.0), np.ones((2, 6))),
        (np.arange(6, dtype=np.int32), np.ones((1, 6), np.int8)),
        (np.array(2.0), np.ones(1)),
    ],
)
def test_an_in_place_operand_of_more_dimensions_raises_where_it_runs(
    a: np.ndarray, b: np.ndarray, flag: bool
) -> None:
    # NumPy's ValueError (the result does not fit `a`), only where the statement runs: it was
    # an internal compiler error even on a path never taken
    assert_same_arrays(inplace_wider, a, b, flag)
    if a.ndim == 1:
        assert_same_arrays(inplace_wider_slice, a, b)


def assign_wider(a, v):  # noqa: ANN001, ANN201
    a[...] = v
    a[1:] = v[..., 1:] * 2
    a[np.array([0, 1])] = v[..., :2]
    np.copyto(a, v + 1)
    m = np.zeros((2, a.shape[0]))
    m[0] = v
    return a, m


@given(st.integers(2, 5), st.sampled_from([(1,), (1, 1), (2,), (1, 2)]))
def test_an_assigned_array_may_have_leading_axes_of_length_one(n: int, lead: tuple) -> None:
    # NumPy drops leading axes of length 1 (ValueError for others); they were TypingErrors
    v = np.arange(float(np.prod(lead) * n)).reshape(lead + (n,))
    assert_same_arrays(assign_wider, np.zeros(n), v)
    assert_same_arrays(assign_mask, np.arange(float(n)), v)


def assign_mask(a, v):  # noqa: ANN001, ANN201
    a[a > 0] = v[..., :1]  # a whole-array mask takes 0-d and 1-d values only: TypeError
    return a


def assign_slices(a, v):  # noqa: ANN001, ANN201
    a[:, 0] = v
    a[1:] = 0
    return a


@given(arrays(NUMERIC, min_dims=2, max_dims=2, min_side=1), st.integers(-5, 5))
def test_assignment_to_slices(a: np.ndarray, v: int) -> None:
    assert_same_arrays(assign_slices, a, v)


UFUNCS_1 = [
    "sqrt",
    "exp",
    "log",
    "log1p",
    "expm1",
    "sin",
    "cos",
    "tan",
    "tanh",
    "abs",
    "absolute",
    "floor",
    "ceil",
    "sign",
    "isnan",
    "isinf",
    "isfinite",
]


def _ufunc_kernel(name: str):  # noqa: ANN202
    return getattr(ufunc_kernels, f"u_{name}")


@pytest.mark.parametrize("name", UFUNCS_1)
@given(a=arrays(FLOATS))
def test_unary_ufuncs(name: str, a: np.ndarray) -> None:
    assert_same_arrays(_ufunc_kernel(name), a, ulps=4)


@pytest.mark.parametrize("name", ["arctan2", "minimum", "maximum", "power", "hypot"])
@given(a=arrays(FLOATS, max_dims=2), b=arrays(FLOATS, max_dims=2))
def test_binary_ufuncs(name: str, a: np.ndarray, b: np.ndarray) -> None:
    assert_same_arrays(_ufunc_kernel(name), a, b, ulps=4)


def where_clip(a, lo):  # noqa: ANN001, ANN201
    return np.where(a > lo, a, lo), np.clip(a, lo, lo + 1), a.clip(-1, 1), np.where(a < 0, 1, 2.5)


@given(arrays(FLOATS), st.floats(-2, 2))
def test_where_and_clip(a: np.ndarray, lo: float) -> None:
    assert_same_arrays(where_clip, a, lo)


def reductions(a):  # noqa: ANN001, ANN201
    return (np.sum(a), a.prod(), np.mean(a), a.var(), np.std(a), a.any(), np.all(a), np.cumsum(a))


@given(arrays(NUMERIC, bounded=True))
def test_reductions(a: np.ndarray) -> None:
    # NumPy multiplies in a vectorized order, jitcore sequentially: where an intermediate
    # product overflows the two can differ (README, differences), hence bounded elements.
    assert_same_arrays(reductions, a, ulps=64)


def extremes(a):  # noqa: ANN001, ANN201
    return np.min(a), a.max(), np.argmin(a), a.argmax()


@given(arrays(NUMERIC))
def test_min_max_argmin_argmax(a: np.ndarray) -> None:
    assert_same_arrays(extremes, a)  # empty arrays raise ValueError both ways


def axis_reductions(a):  # noqa: ANN001, ANN201
    return (
        np.sum(a, axis=0),
        a.sum(axis=1),
        a.max(axis=0),
        np.min(a, axis=1),
        a.mean(axis=0),
        np.argmax(a, axis=1),
        a.argmin(axis=0),
        a.any(axis=1),
        np.all(a, axis=0),
        a.prod(axis=-1),
        np.var(a, axis=1),
        a.std(axis=0),
    )


@given(arrays(NUMERIC, min_dims=2, max_dims=2, min_side=1))
def test_reductions_along_an_axis(a: np.ndarray) -> None:
    assert_same_arrays(axis_reductions, a, ulps=64)


def dots(a, b, m):  # noqa: ANN001, ANN201
    return np.dot(a, b), m @ a, np.dot(m, m.T), m.T @ m, a.dot(b)


@given(st.integers(0, 5), st.integers(0, 5), st.sampled_from([np.float64, np.int64, np.float32]))
def test_dot_and_matmul(n: int, k: int, dtype: type) -> None:
    rng = np.random.default_rng(n * 7 + k)
    a = rng.integers(-5, 5, n).astype(dtype)
    b = rng.integers(-5, 5, n).astype(dtype)
    m = rng.integers(-5, 5, (k, n)).astype(dtype)
    assert_same_arrays(dots, a, b, m, ulps=16)


def test_out_of_bounds_raises_index_error_not_a_crash() -> None:
    def read(a, i):  # noqa: ANN001, ANN202
        return a[i]

    f = jit(read, mode="compiled")
    a = np.arange(5.0)
    for i in (5, -6, 10**9, -(10**9)):
        with pytest.raises(IndexError):
            f(a, i)


def test_boundscheck_false_drops_the_checks() -> None:
    def read(a, i):  # noqa: ANN001, ANN202
        return a[i]

    checked = jit(read, mode="compiled")
    unchecked = jit(read, mode="compiled", boundscheck=False)
    a = np.arange(5.0)
    assert unchecked(a, 2) == checked(a, 2) == 2.0
    assert "raise IndexError" in checked.inspect("lower")
    assert "IndexError" not in unchecked.inspect("lower")


def test_specialization_key_records_dtype_ndim_and_layout() -> None:
    f = compiled(index_sum)
    a = np.arange(6.0)
    f(a)
    f(a[::2])
    f(a.astype(np.float32))
    names = {str(sig[0]) for sig in f.signatures}
    assert {"array(f64, 1d, C)", "array(f64, 1d, A)", "array(f32, 1d, C)"} <= names


from tests.jitcore.e2e import ufunc_kernels  # noqa: E402

BUFFERS = (np.zeros(3), np.zeros(3))


def bump_buffer():  # noqa: ANN201
    BUFFERS[0][0] += 1.0
    return BUFFERS[0][0]


def bump_buffer_view():  # noqa: ANN201
    view = BUFFERS[1][1:]
    view[0] = 2.0
    return view[0]


@pytest.mark.parametrize("f", [bump_buffer, bump_buffer_view], ids=lambda f: f.__name__)
def test_an_array_in_a_global_tuple_is_read_only_in_compiled_code(f) -> None:  # noqa: ANN001
    """It is frozen with the tuple: writes once went to a hidden copy Python never saw (and
    arrays of equal contents shared it)."""
    with pytest.raises(TypingError, match="read-only"):
        jit(mode="compiled")(f)()


def clipped(a, lo, hi):  # noqa: ANN001, ANN201
    return np.clip(a, lo, hi), a.clip(lo, hi)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64, np.int64, np.int8])
@pytest.mark.parametrize(("lo", "hi"), [(-1, 5), (-5, -1), (2, 2**40), (-(2**62), 2**62)])
def test_clip_of_unsigned_ints_by_python_int_bounds(dtype: type, lo: int, hi: int) -> None:
    assert_same_arrays(clipped, np.array([0, 3, 10, 100], dtype=dtype), lo, hi)


def bool_powers(a):  # noqa: ANN001, ANN201
    return a**2, a**3, a**2.0, a**True, (a**2) + a


def test_a_bool_array_squared_is_int8_as_numpy() -> None:
    got = assert_same_arrays(bool_powers, np.array([True, False, True]))
    assert [g.dtype for g in got] == [e.dtype for e in bool_powers(np.array([True]))]


def slices_by_uint64(a, s, u):  # noqa: ANN001, ANN201
    return a[u:], a[:u], a[::u], s[u:], s[:u], list(range(4))[u:]


@pytest.mark.parametrize("u", [2**63, 2**64 - 1, 2**63 - 1, 3])
def test_a_uint64_slice_bound_beyond_int64_is_huge_not_negative(u: int) -> None:
    """It wrapped to a negative int64: `s[np.uint64(2**63):]` gave the whole string."""
    args = (np.arange(5.0), "abcé", np.uint64(u))
    got = jit(mode="compiled")(slices_by_uint64)(*args)
    want = slices_by_uint64(*args)
    for g, w in zip(got, want, strict=True):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)
        else:
            assert g == w
