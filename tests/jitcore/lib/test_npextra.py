"""Splitting, broadcasting, NaN statistics and more (jitcore/lib/npextra.py, npextrak.py)
compiled vs NumPy: split, array_split, hsplit, vsplit, dsplit, broadcast_arrays, nanmedian,
nanquantile, nanpercentile, nanprod, nancumsum, nancumprod, angle, gradient, tril/triu_indices
(and _from), diagonal, fill_diagonal, trim_zeros, asarray_chkfinite, iscomplexobj, isrealobj,
isscalar, linalg.matrix_power and linalg.cond, over dtypes and layouts, empty axes, NaN lanes,
every form of split points, NumPy's errors, views that share memory, no leaks, and the forms
that are refused."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import TypingError, jit, runtime
from tests.jitcore.lib.arrays_strategy import _elements, arrays, laid_out
from tests.jitcore.support import assert_same, assert_same_arrays, ci_examples, compiled

# --- split, array_split, hsplit, vsplit, dsplit -----------------------------------------------


def array_split_n(a, n):
    return np.array_split(a, n)


def split_n_axis1(a, n):
    return np.split(a, n, axis=1)


def array_split_list_last(a, points):
    return np.array_split(a, points, axis=-1)


def split_tuple(a):
    return np.split(a, (1, -1, 7))


def split_array_points(a, points):
    return np.split(a, points)


def hsplit_(a, n):
    return np.hsplit(a, n)


def vsplit_(a, n):
    return np.vsplit(a, n)


def dsplit_(a, points):
    return np.dsplit(a, points)


def split_empty_tuple(a):
    return np.split(a, ())


SPLIT_DTYPES = st.sampled_from(["float64", "bool"])
points = st.lists(st.integers(-6, 8), max_size=4)


@ci_examples(8)
@given(data=st.data(), dtype=SPLIT_DTYPES, n=st.integers(-1, 5))
def test_split_into_sections_matches_numpy(data: st.DataObject, dtype: str, n: int) -> None:
    a = data.draw(arrays(dtype=dtype, min_dims=2, max_dims=3, max_side=5))
    assert_same_arrays(array_split_n, a, n)
    assert_same_arrays(split_n_axis1, a, n)
    assert_same_arrays(hsplit_, a, n)
    assert_same_arrays(vsplit_, a, n)


@ci_examples(8)
@given(data=st.data(), dtype=SPLIT_DTYPES, p=points)
def test_split_at_points_matches_numpy(data: st.DataObject, dtype: str, p: list[int]) -> None:
    a = data.draw(arrays(dtype=dtype, min_dims=1, max_dims=3, max_side=5))
    assert_same_arrays(array_split_list_last, a, p if p else [0])
    assert_same_arrays(split_array_points, a, np.array(p, dtype=np.int64))
    assert_same_arrays(split_tuple, a)


def test_split_edges_match_numpy() -> None:
    a = np.arange(24.0).reshape(4, 6)
    assert_same_arrays(split_empty_tuple, a)
    assert_same_arrays(split_array_points, a, np.array([], dtype=np.int32))
    assert_same_arrays(split_array_points, a, np.array([3, 1], dtype=np.uint8))  # stop < start
    assert_same_arrays(array_split_n, np.zeros((0, 3)), 4)  # more parts than items
    assert_same_arrays(array_split_n, np.arange(7), 3)  # the first parts are longer
    assert_same_arrays(array_split_n, np.arange(7), np.array(3))  # a 0-d array of sections
    assert_same_arrays(split_n_axis1, a[::2, ::-1], 3)
    assert_same_arrays(split_n_axis1, np.asfortranarray(a), 2)
    assert_same_arrays(hsplit_, np.arange(6), 3)  # 1-D: along axis 0
    assert_same_arrays(dsplit_, np.arange(24).reshape(2, 3, 4), [1, 3])
    assert_same_arrays(array_split_list_last, a, [2, 1, 5, -1])


def test_split_errors_match_numpy() -> None:
    a = np.arange(24.0).reshape(4, 6)
    for n in (5, 0, -2, -3):  # unequal, modulo by zero, negative (one divides 6 evenly)
        assert_same_arrays(split_n_axis1, a, n)
    assert_same_arrays(array_split_n, a, 0)
    assert_same_arrays(hsplit_, np.array(3.0), 1)  # too few dimensions: ValueError
    assert_same_arrays(vsplit_, np.arange(4.0), 2)
    assert_same_arrays(dsplit_, a, [1])


def first_part_written(a):
    parts = np.split(a, 2, axis=1)
    parts[1][0, 0] = -1.0
    return a


def test_split_parts_are_views_of_the_array() -> None:
    assert_same_arrays(first_part_written, np.arange(8.0).reshape(2, 4))
    out = jit(mode="compiled")(array_split_n)(np.arange(6.0), 3)
    assert all(part.base is not None for part in out)


def split_many(a, n):
    total = 0.0
    for _ in range(50):
        for part in np.array_split(a, n):
            total += part.sum()
    return total


def test_split_frees_its_views() -> None:
    f, g = compiled(split_many), compiled(array_split_list_last)
    a = np.arange(12.0).reshape(3, 4)
    f(a, 2), g(a, [1])
    before = runtime.live_blocks(), runtime.live_bytes()
    for _ in range(20):
        out = f(a, 3)
        kept = g(a, [1, 2])
        del out, kept
    assert (runtime.live_blocks(), runtime.live_bytes()) == before


def split_float_points(a):
    return np.split(a, 2.5)


def split_axis_name(a, k):
    return np.split(a, 2, axis=k)


def split_axis_out(a):
    return np.split(a, 2, axis=2)


def split_2d_points(a):
    return np.split(a, np.ones((2, 2), np.int64))


def split_of_tuple(a):
    return np.split((1, 2), 2)


@pytest.mark.parametrize(
    ("f", "args", "words"),
    [
        (split_float_points, (np.ones(4),), "indices_or_sections must be an int"),
        (split_axis_name, (np.ones(4), 0), "axis must be a constant"),
        (split_axis_out, (np.ones((2, 2)),), "axis 2 is out of bounds"),
        (split_axis_out, (np.array(1.0),), "out of bounds for array of dimension 0"),
        (split_2d_points, (np.ones(4),), "1-D sequence of ints"),
        (split_of_tuple, (np.ones(4),), "ary must be an array"),
    ],
)
def test_split_refusals_are_typing_errors_in_plain_words(f, args, words: str) -> None:  # noqa: ANN001
    with pytest.raises(TypingError) as info:
        jit(mode="compiled")(f)(*args)
    text = str(info.value)
    assert words in text
    assert "hint:" in text


# --- broadcast_arrays -------------------------------------------------------------------------


def broadcast_two(a, b):
    return np.broadcast_arrays(a, b)


def broadcast_with_numbers(a, x):
    return np.broadcast_arrays(x, a, 2)


def broadcast_none():
    return np.broadcast_arrays()


shapes = st.sampled_from([(0,), (1,), (3,), (2, 1), (1, 3), (2, 3), (0, 3), (2, 1, 1), (2,)])


@ci_examples(8)
@given(data=st.data(), s1=shapes, s2=shapes)
def test_broadcast_arrays_matches_numpy(data: st.DataObject, s1: tuple, s2: tuple) -> None:
    a = data.draw(arrays(dtype="float64", min_dims=len(s1), max_dims=len(s1), max_side=3))
    b = data.draw(arrays(dtype="int32", min_dims=len(s2), max_dims=len(s2), max_side=3))
    a, b = np.resize(a, s1), np.resize(b, s2)
    assert_same_arrays(broadcast_two, a, b)


def test_broadcast_arrays_edges_match_numpy() -> None:
    a = np.arange(6.0).reshape(2, 3)
    assert_same_arrays(broadcast_with_numbers, a.T, 1.5)
    assert_same_arrays(broadcast_with_numbers, a[:, ::-2], np.float32(2))
    assert_same_arrays(broadcast_two, a, np.ones((3, 2)))  # ValueError
    assert_same_arrays(broadcast_two, np.array(1.0), np.ones(0))
    assert_same(broadcast_none)
    x, y = jit(mode="compiled")(broadcast_two)(a, np.zeros((1, 3), np.int64))
    assert y.strides == (0, 8) and np.shares_memory(x, a)


# --- nanmedian, nanquantile, nanpercentile -----------------------------------------------------


def nanmedian_all(a):
    return np.nanmedian(a)


def nanmedian_axis0(a):
    return np.nanmedian(a, axis=0)


def nanmedian_last_kept(a):
    return np.nanmedian(a, axis=-1, keepdims=True)


def nanmedian_kept(a):
    return np.nanmedian(a, keepdims=True)


def nanmedian_two_axes(a):
    return np.nanmedian(a, axis=(0, 2))


def nanquantile_all(a, q):
    return np.nanquantile(a, q)


def nanquantile_last_kept(a, q):
    return np.nanquantile(a, q, axis=-1, keepdims=True)


def nanpercentile_axis0(a, q):
    return np.nanpercentile(a, q, axis=0)


def _quiet() -> warnings.catch_warnings:
    """NumPy warns of all-NaN lanes (compiled code does not)."""
    return warnings.catch_warnings(action="ignore", category=RuntimeWarning)


@st.composite
def with_nans(draw: st.DrawFn, dtype: str, max_dims: int = 3) -> np.ndarray:
    """Arrays with NaN lanes, NaN items and infinities (floats), C-ordered or reversed (each
    layout is a specialization to compile; `arrays` draws more of them for the splits)."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=max_dims, min_side=0, max_side=5))
    a = draw(hnp.arrays(np.dtype(dtype), shape, elements=_elements(np.dtype(dtype))))
    if a.dtype.kind == "f" and a.size and draw(st.booleans()):
        a[(0,) * (a.ndim - 1)] = np.nan  # a lane of NaNs along the last axis
    return laid_out(a, draw(st.sampled_from(["C", "reversed"])))


quantiles = st.one_of(
    st.sampled_from([0.0, 0.25, 0.5, 1.0, 0, 1]),
    st.floats(0, 1),
    st.lists(st.floats(0, 1), min_size=1, max_size=3).map(np.array),
)


@ci_examples(8)
@given(data=st.data(), dtype=st.sampled_from(["float64"]))
def test_nanmedian_matches_numpy(data: st.DataObject, dtype: str) -> None:
    a = data.draw(with_nans(dtype))
    with _quiet():
        assert_same_arrays(nanmedian_all, a)
        assert_same_arrays(nanmedian_axis0, a.astype(np.float32))
        assert_same_arrays(nanmedian_axis0, a)
        assert_same_arrays(nanmedian_last_kept, a)


@ci_examples(8)
@given(data=st.data(), dtype=st.sampled_from(["float64"]), q=quantiles)
def test_nanquantile_matches_numpy(data: st.DataObject, dtype: str, q: object) -> None:
    a = data.draw(with_nans(dtype, max_dims=2))
    # of an empty array NumPy returns its nanmean, without q's axes (a documented difference)
    assume(a.size or not isinstance(q, np.ndarray))
    assume(a.size or not (dtype == "int32" and isinstance(q, int)))  # NaN: not an integer
    # (float32 and integers are in the edge cases, each dtype compiles its kernels anew;
    # NumPy gives an all-NaN float32 lane a's dtype, the others q's)
    with _quiet():
        assert_same_arrays(nanquantile_all, a, q)
        assert_same_arrays(nanquantile_last_kept, a, q)
        assert_same_arrays(nanpercentile_axis0, a, q * 100)


def test_nan_statistics_edges_match_numpy() -> None:
    a = np.array([[1.0, np.nan, 3.0, 4.0], [np.nan] * 4, [1e308, 5.0, 1e308, np.nan]])
    with _quiet():
        assert_same_arrays(nanmedian_axis0, a.T)  # odd counts: inf, as NumPy's masked median
        assert_same_arrays(nanmedian_all, a)
        assert_same_arrays(nanmedian_two_axes, np.arange(24.0).reshape(2, 3, 4))
        assert_same_arrays(nanmedian_all, np.array(np.nan))
        assert_same_arrays(nanmedian_kept, np.array(2.0))  # 0-d stays 0-d
        assert_same_arrays(nanmedian_axis0, np.zeros((0, 3)))
        assert_same_arrays(nanmedian_last_kept, np.zeros((2, 0), np.float32))
        long = np.arange(1300.0).reshape(2, 650)
        long[0, ::3] = np.nan
        assert_same_arrays(nanmedian_last_kept, long)  # NumPy's 1-D median per lane
        assert_same_arrays(nanquantile_last_kept, a, np.array([0, 1, 2]))  # items, no lerp
        assert_same_arrays(nanquantile_all, a.astype(np.float32), 0.3)  # stays float32
        assert_same_arrays(nanquantile_all, a.astype(np.float32), np.array(0.3))  # float64
        assert_same_arrays(nanpercentile_axis0, a, np.array([10.0, 100.0], np.float32))
        assert_same_arrays(nanpercentile_axis0, a, np.array([10, 100]))
        for bad in (1.5, -0.1, np.array([0.5, np.nan])):
            assert_same_arrays(nanquantile_all, a, bad)  # ValueError
        assert_same_arrays(nanpercentile_axis0, a, 100.5)
        assert_same_arrays(nanquantile_all, np.array([True, False]), 0.5)  # TypeError
        assert_same_arrays(nanquantile_all, np.array([True, False]), 1)
        ints = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::-1]
        assert_same_arrays(nanmedian_axis0, ints)
        assert_same_arrays(nanmedian_all, ints)
        for q in (0.3, 1, np.array([0, 2]), np.array([0.5, 1.0])):
            assert_same_arrays(nanquantile_last_kept, ints, q)
        assert_same_arrays(nanpercentile_axis0, ints, 50)
    with pytest.raises(ValueError, match="integer result cannot hold"):  # NumPy: NaN
        compiled(nanquantile_all)(np.zeros(0, np.int32), 1)


def nanmedian_out(a):
    return np.nanmedian(a, out=a)


def nanquantile_method(a):
    return np.nanquantile(a, 0.5, method="lower")


def nanquantile_weights(a):
    return np.nanquantile(a, 0.5, weights=a)


def nanquantile_complex_q(a):
    return np.nanquantile(a, 0.5j)


@pytest.mark.parametrize(
    ("f", "arg", "words"),
    [
        (nanmedian_out, np.ones(3), "out argument is not supported"),
        (nanmedian_all, np.ones(3, complex), "array of real numbers"),
        (nanquantile_method, np.ones(3), "method='linear'"),
        (nanquantile_weights, np.ones(3), "weights argument"),
        (nanquantile_complex_q, np.ones(3), "real number"),
    ],
)
def test_nan_statistics_refusals_are_typing_errors(f, arg, words: str) -> None:  # noqa: ANN001
    with pytest.raises(TypingError) as info:
        jit(mode="compiled")(f)(arg)
    assert words in str(info.value)


# --- angle ------------------------------------------------------------------------------------


def angle_(z):
    return np.angle(z)


def angle_deg(z):
    return np.angle(z, deg=True)


def angle_flag(z, d):
    return np.angle(z, d)


parts = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan]), st.floats(-10, 10)
)
complexes = st.builds(complex, parts, parts)


@ci_examples(8)
@given(
    z=complexes
    | parts
    | st.integers(-5, 5)
    | st.lists(complexes, max_size=4).map(lambda x: np.array(x, np.complex128)[::-1])
    | st.lists(parts, max_size=4).map(lambda x: np.array(x, np.float32)),
    d=st.booleans(),
)
def test_angle_matches_numpy(z: object, d: bool) -> None:
    assert_same(angle_, z)
    assert_same(angle_deg, z)
    assert_same(angle_flag, z, d)


def test_angle_edges_match_numpy() -> None:
    assert_same(angle_, np.array(-1.0))  # a 0-d array gives a NumPy scalar
    assert_same(angle_deg, np.complex64(1j))  # float32
    assert_same(angle_deg, np.array([[1 + 1j, -1 - 0j]], np.complex64).T)
    assert_same(angle_, np.array([True, False]))  # float64, as NumPy's arctan2(0, bools)
    assert_same(angle_deg, np.arange(-2, 3, dtype=np.int16))  # float32
    assert_same(angle_, True)


# --- np.linalg.matrix_power, np.linalg.cond ----------------------------------------------------


def matrix_power_(a, n):
    return np.linalg.matrix_power(a, n)


def matrix_power_minus_two(a):
    return np.linalg.matrix_power(a, -2)


def cond_(a):
    return np.linalg.cond(a)


def cond_minus(a):
    return np.linalg.cond(a, p=-2)


small_matrices = st.integers(0, 3).flatmap(
    lambda m: hnp.arrays(np.float64, (m, m), elements=st.integers(-3, 3).map(float))
)


@ci_examples(8)
@given(a=small_matrices, n=st.integers(-3, 7), kind=st.sampled_from(["f8", "i8", "T"]))
def test_matrix_power_matches_numpy(a: np.ndarray, n: int, kind: str) -> None:
    if kind == "i8" and n >= 0:
        assert_same(matrix_power_, a.astype(np.int64), n)  # exactly: integer products
    else:
        assert_same(matrix_power_, a.T if kind == "T" else a, n, ulps=256, atol=1e-9)


def test_matrix_power_edges_match_numpy() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 3, 3))
    for n in (0, 1, 2, 3, 5, -1, -3):
        assert_same(matrix_power_, a, n, ulps=64)  # a stack
        assert_same(matrix_power_, a.astype(np.float32), n, ulps=64)
    assert_same(matrix_power_, np.eye(3, dtype=bool), 3)
    assert_same(matrix_power_, np.ones((2, 3)), 2)  # LinAlgError: not square
    assert_same(matrix_power_, np.ones((2, 2)), -1)  # LinAlgError: singular
    assert_same(matrix_power_, np.int64(2) ** 40 * np.eye(2, dtype=np.int64), 3)  # wraps
    assert_same(matrix_power_minus_two, np.array([[2, 1], [1, 1]]))  # an int matrix: float64
    assert_same(matrix_power_, np.zeros((0, 0)), -2)


@ci_examples(8)
@given(data=st.data(), dtype=st.sampled_from(["float64", "float32", "int32"]))
def test_cond_matches_numpy(data: st.DataObject, dtype: str) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4))
    a = data.draw(hnp.arrays(np.dtype(dtype), shape, elements=st.integers(-4, 4)))
    assert_same(cond_, a, ulps=1e6)  # near-singular matrices: LAPACK builds round differently
    assert_same(cond_minus, a, ulps=1e6)


def test_cond_edges_match_numpy() -> None:
    assert_same(cond_, np.zeros((2, 2)))  # 0 / 0: inf
    assert_same(cond_, np.eye(3) + 1j * np.eye(3))
    assert_same(cond_, np.zeros((0, 3)))  # LinAlgError
    assert_same(cond_, np.zeros((0, 2, 2)))  # no matrices: an empty result
    assert_same(cond_minus, np.arange(6.0).reshape(2, 3).T, ulps=64)


def matrix_power_float(a):
    return np.linalg.matrix_power(a, 2.0)


def cond_fro(a):
    return np.linalg.cond(a, "fro")


def cond_vector(a):
    return np.linalg.cond(a)


@pytest.mark.parametrize(
    ("f", "arg", "words"),
    [
        (matrix_power_float, np.eye(2), "must be an integer"),
        (matrix_power_, np.ones(3), "at least two-dimensional"),
        (cond_fro, np.eye(2), "p must be None, 2 or -2"),
        (cond_vector, np.ones(3), "at least two-dimensional"),
        (angle_, (1, 2), "z must be a number or an array"),
        (angle_, np.ones(2, np.int8), "float16"),
    ],
)
def test_linalg_and_angle_refusals_are_typing_errors(f, arg, words: str) -> None:  # noqa: ANN001
    with pytest.raises(TypingError) as info:
        jit(mode="compiled")(f)(arg) if f is not matrix_power_ else jit(mode="compiled")(f)(arg, 2)
    assert words in str(info.value)


# --- triu_indices, tril_indices -----------------------------------------------------------------


def triu_indices_(n, k, m):
    return np.triu_indices(n, k, m)


def tril_indices_(n, k):
    return np.tril_indices(n, k=k)


def tril_indices_square(n):
    return np.tril_indices(n)


def triu_indices_from_(a, k):
    return np.triu_indices_from(a, k)


def tril_indices_from_(a):
    return np.tril_indices_from(a)


sizes = st.integers(-2, 6)
# (NumPy's own arange overflows for diagonals near the int64 limits)
diagonals = st.integers(-8, 8) | st.sampled_from([2**62, -(2**62)])


@ci_examples(8)
@given(n=sizes, k=diagonals, m=sizes)
def test_tri_indices_match_numpy(n: int, k: int, m: int) -> None:
    assert_same(triu_indices_, n, k, m)
    assert_same(tril_indices_, n, k)
    assert_same(tril_indices_square, n)


def test_tri_indices_from_match_numpy() -> None:
    assert_same(triu_indices_from_, np.ones((3, 5)), 1)
    assert_same(triu_indices_from_, np.ones((4, 2), np.int8).T, -1)
    assert_same(tril_indices_from_, np.ones((0, 3)))
    assert_same(tril_indices_from_, np.ones(3))  # ValueError: input array must be 2-d
    assert_same(tril_indices_, 2**62, 0)  # ValueError: too big for NumPy as well


# --- gradient --------------------------------------------------------------------------------


def gradient_(f):
    return np.gradient(f)


def gradient_spacing(f, dx):
    return np.gradient(f, dx)


def gradient_second_order_last(f):
    return np.gradient(f, 0.5, axis=-1, edge_order=2)


def gradient_axes(f):
    return np.gradient(f, axis=(1, 0), edge_order=2)


@ci_examples(8)
@given(
    data=st.data(),
    dtype=st.sampled_from(["float64", "int32"]),
    dx=st.sampled_from([1.0, 2, 0.0, -0.25]),
)
def test_gradient_matches_numpy(data: st.DataObject, dtype: str, dx: float) -> None:
    f = data.draw(arrays(dtype=dtype, min_dims=1, max_dims=2, max_side=5))
    assert_same(gradient_, f, ulps=16)
    assert_same(gradient_spacing, f, dx, ulps=16)
    assert_same(gradient_second_order_last, f, ulps=16)


def test_gradient_edges_match_numpy() -> None:
    rng = np.random.default_rng(3)
    f = rng.standard_normal((3, 4, 2))
    assert_same(gradient_, f, ulps=16)  # a tuple: one array per axis
    assert_same(gradient_axes, f[:, :, 0].T, ulps=16)
    assert_same(gradient_, f.astype(np.float32), ulps=16)  # float32 stays float32
    assert_same(gradient_spacing, f[0].astype(np.float32), np.float32(0.5), ulps=16)
    assert_same(gradient_second_order_last, np.ones(2))  # ValueError: too few items
    assert_same(gradient_, np.ones((2, 1)))  # ValueError along axis 1


# --- nanprod, nancumsum, nancumprod, iscomplexobj, isrealobj, isscalar --------------------------


def nanprod_(a):
    return np.nanprod(a)


def nanprod_kept(a):
    return np.nanprod(a, axis=0, keepdims=True)


def nancumsum_(a):
    return np.nancumsum(a)


def nancumsum_last(a):
    return np.nancumsum(a, axis=-1)


def nancumprod_first(a):
    return np.nancumprod(a, 0)


def kinds_of(x):
    return np.iscomplexobj(x), np.isrealobj(x), np.isscalar(x)


@ci_examples(8)
@given(data=st.data(), dtype=st.sampled_from(["float64", "int32"]))
def test_nan_accumulations_match_numpy(data: st.DataObject, dtype: str) -> None:
    a = data.draw(with_nans(dtype, max_dims=2))
    assert_same(nanprod_, a)
    assert_same(nanprod_kept, a)
    assert_same(nancumsum_, a)
    assert_same(nancumsum_last, a)
    assert_same(nancumprod_first, a)


def test_nan_accumulations_and_kinds_edges_match_numpy() -> None:
    a = np.array([[1.5, np.nan], [np.nan, np.nan]], np.float32)
    assert_same(nanprod_, a)
    assert_same(nancumsum_last, a.T)
    assert_same(nanprod_kept, np.ones((2, 3), bool))  # int64, as NumPy's prod of booleans
    for x in (1.5, 1j, True, np.ones(2, complex), np.array(2.0), np.zeros((0, 2), np.int8)):
        assert_same(kinds_of, x)  # Python bools, known while compiling


# --- diagonal, asarray_chkfinite --------------------------------------------------------------


def diagonal_(a, k):
    return np.diagonal(a, k)


def diagonal_method_axes(a, k):
    return a.diagonal(k, 2, 0)


def diagonal_last_two(a):
    return np.diagonal(a, axis1=-1, axis2=-2)


def chkfinite(a):
    return np.asarray_chkfinite(a)


# (not -2**31: NumPy negates it as a C int, which overflows, and reads outside the array)
offsets = st.integers(-6, 6) | st.sampled_from([2**31 - 1, 2**31, -(2**31) + 1, -(2**31) - 1])


@ci_examples(8)
@given(data=st.data(), k=offsets)
def test_diagonal_matches_numpy(data: st.DataObject, k: int) -> None:
    a = data.draw(arrays(dtype="float64", min_dims=2, max_dims=2, max_side=5))
    assert_same_arrays(diagonal_, a, k)
    b = data.draw(arrays(dtype="int32", min_dims=3, max_dims=3, max_side=4))
    assert_same_arrays(diagonal_method_axes, b, k)


def diagonal_written(a):
    d = np.diagonal(a, 1)
    d[0] = -1.0  # NumPy's view is read-only; compiled code writes through it
    return a


def test_diagonal_and_chkfinite_edges() -> None:
    a = np.arange(24).reshape(2, 3, 4)
    assert_same_arrays(diagonal_last_two, a)
    assert_same_arrays(diagonal_, np.ones(3), 0)  # ValueError: at least two dimensions
    out = compiled(diagonal_written)(np.zeros((2, 3)))
    assert out[0, 1] == -1.0
    for x in (np.arange(6.0).reshape(2, 3).T, np.array([1.0, np.inf]), np.array([1, 2])):
        assert_same_arrays(chkfinite, x)
    assert_same_arrays(chkfinite, np.array([1 + 1j, complex(0, np.nan)]))


# --- trim_zeros ---------------------------------------------------------------------------------


def trim_zeros_(a):
    return np.trim_zeros(a)


def trim_zeros_front(a):
    return np.trim_zeros(a, "f")


def trim_zeros_back_last(a):
    return np.trim_zeros(a, trim="B", axis=-1)


@ci_examples(8)
@given(data=st.data())
def test_trim_zeros_matches_numpy(data: st.DataObject) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=5))
    a = data.draw(hnp.arrays(np.int64, shape, elements=st.sampled_from([0, 0, 0, 1, -2])))
    a = laid_out(a, data.draw(st.sampled_from(["C", "reversed", "F"])))
    assert_same_arrays(trim_zeros_, a)
    assert_same_arrays(trim_zeros_front, a)
    assert_same_arrays(trim_zeros_back_last, a)


def trim_zeros_bad(a):
    return np.trim_zeros(a, "x")


def test_trim_zeros_edges_match_numpy() -> None:
    assert_same_arrays(trim_zeros_, np.array([0.0, -0.0, np.nan, 0.0]))  # NaN is nonzero
    assert_same_arrays(trim_zeros_, np.zeros((0, 3)))  # nothing nonzero: every axis empty
    assert_same_arrays(trim_zeros_, np.array(0.0))  # 0-d: as it is
    assert_same_arrays(trim_zeros_bad, np.ones(2))  # ValueError, when the call runs


# --- fill_diagonal ------------------------------------------------------------------------------


def fill_diagonal_(a, v):
    np.fill_diagonal(a, v)
    return a


def fill_diagonal_wrapped(a, v):
    np.fill_diagonal(a, v, wrap=True)
    return a


fill_shapes = st.sampled_from([(3, 3), (5, 2), (2, 5), (7, 3), (0, 3), (3, 0), (2, 2, 2), (1, 1)])
fill_values = st.sampled_from([7, 2.5, np.array([1.5, 2.5, 3.5]), np.zeros(0), np.ones((2, 2))])


@ci_examples(8)
@given(shape=fill_shapes, v=fill_values, dtype=st.sampled_from(["float64", "int8"]))
def test_fill_diagonal_matches_numpy(shape: tuple, v: object, dtype: str) -> None:
    a = np.zeros(shape, dtype)
    assert_same_arrays(fill_diagonal_, a, v)
    assert_same_arrays(fill_diagonal_wrapped, a, v)


def test_fill_diagonal_edges_match_numpy() -> None:
    b = np.zeros((6, 4))
    assert_same_arrays(fill_diagonal_wrapped, b.T, np.array([1.0, 2.0]))  # a view, strided
    assert_same_arrays(fill_diagonal_wrapped, b[::2, ::-1], 3.0)
    assert_same_arrays(fill_diagonal_, np.zeros((2, 3, 2)), 1.0)  # ValueError: unequal
    assert_same_arrays(fill_diagonal_, np.zeros(3), 1.0)  # ValueError: at least 2-d
    assert_same_arrays(fill_diagonal_, np.zeros((2, 2), np.int8), 300)  # OverflowError
    assert_same_arrays(fill_diagonal_, np.zeros((2, 2), np.int8), np.nan)  # ValueError


# --- more forms that are refused ---------------------------------------------------------------


def gradient_bools(f):
    return np.gradient(f)


def gradient_coordinates(f):
    return np.gradient(f, f)


def gradient_edge_three(f):
    return np.gradient(f, edge_order=3)


@pytest.mark.parametrize(
    ("f", "arg", "words"),
    [
        (gradient_bools, np.ones(3, bool), "cannot subtract booleans"),
        (gradient_coordinates, np.ones(3), "coordinate arrays are not supported"),
        (gradient_edge_three, np.ones(3), "edge_order must be the constant 1 or 2"),
        (triu_indices_from_, (np.ones((2, 2)), 0.5), "k must be an integer"),
        (triu_indices_, (3, None, None), "k must be an integer"),
        (kinds_of, ((1, 2),), "np.iscomplexobj: the argument must be an array or a number"),
        (broadcast_two, (np.ones(2), [1, 2]), "argument 2 must be an array or a number"),
        (diagonal_, (np.ones((2, 2)), None), "offset must be an integer"),
    ],
)
def test_more_refusals_are_typing_errors_in_plain_words(f, arg, words: str) -> None:  # noqa: ANN001
    with pytest.raises(TypingError) as info:
        jit(mode="compiled")(f)(*(arg if isinstance(arg, tuple) else (arg,)))
    assert words in str(info.value)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "float32"])
def test_a_float32_q_takes_part_in_the_result_dtype(dtype: str) -> None:
    """An int8 array's nanquantile at np.float32 q is float32 (int8 and float32 promote to
    float32): it was float64. (Values: NumPy finds the point in float32; checked loosely.)"""
    a = np.array([5, 1, 3, 2, 4], dtype=dtype)
    for q in (np.float32(0.3), np.array([0.1, 0.3], dtype=np.float32)):
        want = np.nanquantile(a, q)
        got = compiled(nanquantile_all)(a, q)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        np.testing.assert_allclose(got, want, rtol=1e-6)
