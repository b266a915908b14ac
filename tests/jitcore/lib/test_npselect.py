"""Selecting and locating elements (jitcore/lib/npselect.py) compiled vs NumPy: take, put,
take_along_axis, compress, extract, select, nan_to_num, (un)ravel indices, isin, the sorted-set
functions and ediff1d, over dtypes and layouts, empty and 0-d arrays, NaN/inf, negative and
out-of-range indices (NumPy's exception types), and the argument forms that are refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import TypingError
from tests.jitcore.lib.arrays_strategy import LAYOUTS, arrays, laid_out
from tests.jitcore.support import assert_same_arrays, compiled

EXAMPLES = settings(max_examples=25)
INT64 = (-(2**63), 2**63 - 1)
# 0-d arrays (the layouts of `arrays` need at least one axis)
zero_d = hnp.arrays(st.sampled_from(["float64", "float32", "int64", "uint8", "bool"]), ())
any_arrays = arrays(max_side=4) | zero_d


@st.composite
def indices(
    draw: st.DrawFn, max_dims: int = 2, lo: int = -7, hi: int = 7, dtype: str | None = None
) -> np.ndarray:
    """Small index arrays (some out of range) of an integer or bool dtype, in any layout."""
    dt = dtype or draw(st.sampled_from(["int64", "int32", "uint8"]))
    info = np.iinfo(dt)
    elements = st.integers(max(lo, int(info.min)), min(hi, int(info.max)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=4))
    a = draw(hnp.arrays(np.dtype(dt), shape, elements=elements))
    return laid_out(a, draw(st.sampled_from(LAYOUTS))) if a.ndim else a


# --- take ------------------------------------------------------------------------------------


def take_flat(a, i):
    return np.take(a, i)


def take_axis0(a, i):
    return np.take(a, i, axis=0)


def take_last_method(a, i):
    return a.take(i, axis=-1)


# (a few dtypes per test, each its own case: every dtype compiles its kernels anew)
TAKE_DTYPES = pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])


@EXAMPLES
@given(data=st.data(), i=indices())
@TAKE_DTYPES
@pytest.mark.parametrize("f", [take_flat, take_axis0, take_last_method])
def test_take_with_index_arrays_matches_numpy(
    f,
    dtype: str,
    data: st.DataObject,
    i: np.ndarray,  # noqa: ANN001
) -> None:
    assert_same_arrays(f, data.draw(arrays(dtype=dtype, max_dims=2, max_side=4)), i)


@EXAMPLES
@given(data=st.data(), k=st.integers(-6, 6) | st.sampled_from(INT64))
@TAKE_DTYPES
@pytest.mark.parametrize("f", [take_flat, take_axis0, take_last_method])
def test_take_with_an_int_matches_numpy(f, dtype: str, data: st.DataObject, k: int) -> None:  # noqa: ANN001
    assert_same_arrays(f, data.draw(arrays(dtype=dtype, max_side=4)), k)


def take_bools(a, i):
    return np.take(a, i), a.take(i, axis=0)


def test_take_edges_match_numpy() -> None:
    assert_same_arrays(take_axis0, np.zeros(0), 0)
    assert_same_arrays(take_last_method, np.zeros((2, 0)), -1)
    assert_same_arrays(take_bools, np.arange(6.0), np.array([True, False, True]))
    assert_same_arrays(take_flat, np.array(5.0), np.array([0, -1]))  # 0-d, flat
    assert_same_arrays(take_flat, np.array(5), 0)
    assert_same_arrays(take_flat, np.arange(4), np.array(2))  # 0-d indices: a scalar
    assert_same_arrays(take_axis0, np.zeros((2, 0)), np.array([0]))
    assert_same_arrays(take_last_method, np.zeros((2, 0)), np.array([0]))  # empty axis
    assert_same_arrays(take_last_method, np.zeros((0, 0)), np.array([0]))  # nothing taken
    assert_same_arrays(take_flat, np.arange(6).reshape(2, 3).T, np.array([[5, -6], [0, 1]]))
    assert_same_arrays(take_flat, np.array(INT64), np.array([1, 0]))


# --- put -------------------------------------------------------------------------------------


def put_(a, i, v):
    np.put(a, i, v)
    return a


@EXAMPLES
@given(data=st.data(), i=indices(max_dims=2))
@TAKE_DTYPES
def test_put_matches_numpy(dtype: str, data: st.DataObject, i: np.ndarray) -> None:
    a = data.draw(arrays(dtype=dtype, max_side=4))
    v = data.draw(arrays(dtype=dtype, min_dims=1, max_dims=1, max_side=3))
    assert_same_arrays(put_, a, i, v)


def test_put_edges_match_numpy() -> None:
    a = np.arange(6.0).reshape(2, 3)
    assert_same_arrays(put_, a, np.array([0, 1, 2, 3, 4]), np.array([7.0, 8.0]))  # cyclic
    assert_same_arrays(put_, a.T, np.array([-1, 0]), 9.5)  # a number, transposed
    assert_same_arrays(put_, np.arange(6), 2, np.array([1.9, 3.0]))  # floats into ints
    assert_same_arrays(put_, np.zeros(3, bool), np.array([0, 1]), np.array([2, 0]))
    assert_same_arrays(put_, np.zeros(2, np.int8), np.array([0, 1]), np.array(INT64))  # wraps
    assert_same_arrays(put_, a, np.array([0, 1]), np.zeros(0))  # no values: nothing
    assert_same_arrays(put_, np.zeros(0), np.zeros(0, np.int64), np.ones(1))
    assert_same_arrays(put_, np.zeros(0), np.array([0]), np.ones(1))  # IndexError
    assert_same_arrays(put_, a[:, ::2], np.array([6]), np.ones(1))  # out of range


# --- take_along_axis -------------------------------------------------------------------------


def along_last(a, i):
    return np.take_along_axis(a, i, axis=-1)


def along_first(a, i):
    return np.take_along_axis(a, i, 0)


def along_flat(a, i):
    return np.take_along_axis(a, i, None)


@st.composite
def along_args(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    a = draw(arrays(min_dims=1, max_dims=3, max_side=4))
    shape = tuple(draw(st.sampled_from([s, 1, 0, 2])) for s in a.shape)
    i = draw(hnp.arrays(np.int64, shape, elements=st.integers(-5, 5)))
    return a, laid_out(i, draw(st.sampled_from(LAYOUTS)))


@EXAMPLES
@given(args=along_args())
@pytest.mark.parametrize("f", [along_last, along_first])
def test_take_along_axis_matches_numpy(f, args: tuple[np.ndarray, np.ndarray]) -> None:  # noqa: ANN001
    assert_same_arrays(f, *args)


def test_take_along_axis_edges_match_numpy() -> None:
    a = np.array([[10.0, 30.0, 20.0], [60.0, 40.0, 50.0]])
    assert_same_arrays(along_last, a, np.argsort(a, axis=-1))
    assert_same_arrays(along_first, a.T, np.array([[1, 0]]))  # broadcast along axis 1
    assert_same_arrays(along_first, a, np.array([[0, 1, 0, 1]]))  # IndexError: shape mismatch
    assert_same_arrays(along_flat, a, np.array([5, -6, 2]))
    assert_same_arrays(along_flat, a, np.array([6]))  # IndexError


# --- compress, extract -----------------------------------------------------------------------


def compress_flat(c, a):
    return np.compress(c, a)


def compress_axis(c, a):
    return np.compress(c, a, axis=-1), np.compress(c, a, 0)


def extract(c, a):
    return np.extract(c, a)


@EXAMPLES
@given(
    c=arrays(max_dims=1, max_side=7, dtype="bool") | arrays(max_dims=1, max_side=6, dtype="int64"),
    a=arrays(max_side=4),
)
@pytest.mark.parametrize("f", [compress_flat, compress_axis])
def test_compress_matches_numpy(f, c: np.ndarray, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same_arrays(f, c, a)


@EXAMPLES
@given(c=any_arrays, a=any_arrays)
@example(c=np.array([False, False, True]), a=np.arange(2))
@example(c=np.array(True), a=np.array(3.5))
def test_extract_matches_numpy(c: np.ndarray, a: np.ndarray) -> None:
    assert_same_arrays(extract, c, a)


# --- select ----------------------------------------------------------------------------------


def select_tuple(x, y):
    return np.select((x < 0, y > 1), (x, y), 7)


def select_list(x, y):
    return np.select([x < 0, y > 1, x == y], [x, -x, x * 2])


def select_default(x, y, d):
    return np.select((x < 0,), (y,), default=d)


@EXAMPLES
@given(data=st.data())
@pytest.mark.parametrize(("x_dtype", "y_dtype"), [("float64", "int32"), ("int8", "float32")])
@pytest.mark.parametrize("f", [select_tuple, select_list])
def test_select_matches_numpy(f, x_dtype: str, y_dtype: str, data: st.DataObject) -> None:  # noqa: ANN001
    x = data.draw(arrays(dtype=x_dtype, max_dims=1, max_side=5))
    y = data.draw(hnp.arrays(np.dtype(y_dtype), x.shape, elements=st.integers(-3, 3)))
    assert_same_arrays(f, x, laid_out(y, data.draw(st.sampled_from(LAYOUTS))))


def test_select_edges_match_numpy() -> None:
    x = np.array([-1.5, 0.0, np.nan, 2.0])
    y = np.arange(4, dtype=np.float32)
    assert_same_arrays(select_default, y, y, 2.5)  # a Python float default stays weak
    assert_same_arrays(select_default, x, np.arange(4, dtype=np.int8), np.int16(3))
    assert_same_arrays(select_tuple, np.zeros((2, 1)), np.zeros((1, 3)))  # tuples broadcast
    assert_same_arrays(select_tuple, np.zeros(0), np.zeros(0))
    assert_same_arrays(select_list, np.zeros((2, 0)), np.zeros((2, 0)))
    z = np.array([[-1.0, 2.0, 3.0], [0.0, -5.0, np.inf]])
    assert_same_arrays(select_list, z.T, np.ones((3, 2)))
    assert_same_arrays(select_pair, np.ones(2), np.ones(3))  # ValueError: shapes differ


def select_pair(a, b):
    return np.select([a > 0, b > 0], [a, b])


# --- nan_to_num ------------------------------------------------------------------------------


def nan_to_num(x):
    return np.nan_to_num(x)


def nan_to_num_given(x, nan, big):
    return np.nan_to_num(x, nan=nan, posinf=big, neginf=-big)


def nan_to_num_in_place(x):
    return np.nan_to_num(x, copy=False, posinf=1.0)


complex_arrays = st.builds(
    lambda re, im: re + 1j * im,
    arrays(dtype="float64", min_dims=1, max_dims=1, max_side=4),
    st.sampled_from([0.0, np.nan, np.inf, -np.inf, 2.0]),
)


def _complex64(z: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return z.astype(np.complex64)


@EXAMPLES
@given(x=arrays() | zero_d | complex_arrays | complex_arrays.map(_complex64))
@pytest.mark.parametrize("f", [nan_to_num, nan_to_num_in_place])
def test_nan_to_num_of_arrays_matches_numpy(f, x: np.ndarray) -> None:  # noqa: ANN001
    assert_same_arrays(f, x)


@EXAMPLES
@given(
    x=arrays(dtype="float32") | arrays(dtype="float64") | complex_arrays,
    nan=st.floats(allow_nan=False),
    big=st.floats(-1e300, 1e300),
)
def test_nan_to_num_with_replacements_matches_numpy(x: np.ndarray, nan: float, big: float) -> None:
    assert_same_arrays(nan_to_num_given, x, nan, big)


@pytest.mark.parametrize(
    "x",
    [np.nan, np.inf, -np.inf, 1.5, np.float32(np.inf), complex(np.nan, -np.inf), 3, np.int8(-2)],
)
def test_nan_to_num_of_numbers_matches_numpy(x: object) -> None:
    assert_same_arrays(nan_to_num, x)
    assert_same_arrays(nan_to_num, np.array(x))  # a 0-d array gives a scalar


# --- unravel_index, ravel_multi_index --------------------------------------------------------


def unravel(i, shape):
    return np.unravel_index(i, shape)


def unravel_const(i):
    return np.unravel_index(i, (2, 3, 1))


def ravel2(i, j, dims):
    return np.ravel_multi_index((i, j), dims)


def ravel3(i, dims):
    return np.ravel_multi_index((i, 0, i), dims)


@EXAMPLES
@given(
    i=indices(lo=-2, hi=26) | st.integers(-2, 26) | st.sampled_from(INT64),
    shape=st.tuples(st.integers(0, 5), st.integers(0, 5)) | st.integers(-1, 5),
)
@example(i=0, shape=(2, -3))
@example(i=0, shape=(2**62, -2))
@example(i=0, shape=(-(2**62), -4))  # too large
@example(i=0, shape=(2**62, 2**62, 0))
@example(i=0, shape=(0, 2**62, 2**62))
@example(i=np.array([], np.int64), shape=(0, 3))
@example(i=np.array([], np.int64), shape=-1)  # a negative int shape: ValueError
def test_unravel_index_matches_numpy(i: object, shape: object) -> None:
    assert_same_arrays(unravel, i, shape)
    assert_same_arrays(unravel_const, i)


@EXAMPLES
@given(
    i=indices(max_dims=1, lo=-1, hi=4) | st.integers(-1, 4),
    j=indices(max_dims=1, lo=-1, hi=4, dtype="int64")
    | st.integers(-1, 4)
    | st.sampled_from(INT64),
    dims=st.tuples(st.integers(-1, 5), st.integers(0, 5)),
)
@example(i=np.array([[1], [0]]), j=np.array([2, 0, 1]), dims=(2, 3))
@example(i=0, j=0, dims=(2**62, 2))  # too large
@example(i=np.zeros(0, np.int64), j=0, dims=(2**62, 2))
@example(i=0, j=0, dims=(0, 2))  # an empty shape
@example(i=np.zeros(0, np.int64), j=0, dims=(0, 2))
@example(i=0, j=0, dims=(3, -2))
def test_ravel_multi_index_matches_numpy(i: object, j: object, dims: tuple[int, int]) -> None:
    assert_same_arrays(ravel2, i, j, dims)


@pytest.mark.parametrize(
    "dims", [(2**62, 2**62, 0), (0, 2**62, 2**62), (3, 1, 2), (2, 1, 0), (-1, -1, 4)]
)
def test_ravel_multi_index_checks_dims_as_numpy(dims: tuple[int, int, int]) -> None:
    assert_same_arrays(ravel3, 0, dims)
    assert_same_arrays(ravel3, np.array([1, 0]), dims)


# --- isin and the sorted-set functions -------------------------------------------------------


@st.composite
def set_arrays(draw: st.DrawFn, dtype: str) -> np.ndarray:
    """Arrays with many repeats (values from a small range), NaN too for floats."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        elements = st.sampled_from([0.0, 1.0, 2.0, -3.0, np.nan, np.inf, 5.5])
    elif dt.kind == "b":
        elements = st.booleans()
    else:
        elements = st.integers(0, 6) | st.sampled_from(
            [int(np.iinfo(dt).min), int(np.iinfo(dt).max)]
        )
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=1, min_side=0, max_side=6))
    a = draw(hnp.arrays(dt, shape, elements=elements))
    return laid_out(a, draw(st.sampled_from(["C", "reversed"])))


def isin(a, b):
    return np.isin(a, b), np.isin(a, b, invert=True)


def set_ops(a, b):
    return np.intersect1d(a, b), np.union1d(a, b), np.setxor1d(a, b), np.setdiff1d(a, b)


def intersect_union(a, b):
    return np.intersect1d(a, b), np.union1d(a, b)


def xor_diff(a, b):
    return np.setxor1d(a, b), np.setdiff1d(a, b)


# NumPy's setdiff1d and isin take another path (a table) for integers, which fails on a NaN
# or an int64/uint64 mix: the pairs are of one kind.
SET_PAIRS = pytest.mark.parametrize(
    ("d1", "d2"),
    [("float64", "float64"), ("float32", "float64"), ("int64", "int32"), ("uint8", "uint8")]
    + [("bool", "bool")],
)


@EXAMPLES
@given(data=st.data())
@SET_PAIRS
def test_isin_matches_numpy(d1: str, d2: str, data: st.DataObject) -> None:
    assert_same_arrays(isin, data.draw(set_arrays(d1)), data.draw(set_arrays(d2)))


@EXAMPLES
@given(data=st.data())
@SET_PAIRS
@pytest.mark.parametrize("f", [intersect_union, xor_diff])
def test_set_operations_match_numpy(f, d1: str, d2: str, data: st.DataObject) -> None:  # noqa: ANN001
    assert_same_arrays(f, data.draw(set_arrays(d1)), data.draw(set_arrays(d2)))


def test_isin_and_set_operations_of_numbers_and_edges_match_numpy() -> None:
    assert_same_arrays(isin, 3, np.array([1, 3]))  # a number gives a 0-d array
    assert_same_arrays(isin, np.array([np.nan, 1.0]), np.array([np.nan]))  # NaN is in nothing
    assert_same_arrays(isin, np.arange(3.0), 2.0)
    assert_same_arrays(set_ops, np.zeros(0), np.zeros(0))
    assert_same_arrays(set_ops, np.array([1.0, np.nan]), np.array([np.nan]))  # two NaNs xor
    assert_same_arrays(set_ops, np.array(INT64), np.array([INT64[0], 0]))
    assert_same_arrays(set_ops, np.array([3, 1, 2]), np.array([2.5, 1.0], np.float32))


# --- ediff1d ---------------------------------------------------------------------------------


def ediff(a):
    return np.ediff1d(a)


def ediff_ends(a, begin, end):
    return np.ediff1d(a, to_end=end, to_begin=begin)


@EXAMPLES
@given(a=any_arrays.filter(lambda a: a.dtype != np.bool_))
@example(a=np.array(INT64))  # wraps
def test_ediff1d_matches_numpy(a: np.ndarray) -> None:
    assert_same_arrays(ediff, a)


def test_ediff1d_ends_match_numpy() -> None:
    a = np.array([1.0, 4.0, 2.0])[::-1]
    assert_same_arrays(ediff_ends, a, np.array([[1.0], [2.0]]), 3)
    assert_same_arrays(ediff_ends, np.arange(3, dtype=np.int8), -1, np.zeros(0, np.int8))
    assert_same_arrays(ediff_ends, np.zeros(0), 1.5, None)
    assert_same_arrays(ediff_ends, np.array([1, 5], np.int32), None, np.array([7]))


# --- refused forms ---------------------------------------------------------------------------


def take_clip(a):
    return np.take(a, 5, mode="clip")


def take_floats(a):
    return np.take(a, a)


def compress_2d(a):
    return np.compress(a > 0, a)


def select_ints(a):
    return np.select((a,), (a,))


def select_numbers(a):
    return np.select((a > 0,), (1,))


def isin_complex(a):
    return np.isin(a * 1j, a)


def intersect_indices(a):
    return np.intersect1d(a, a, return_indices=True)


def ediff_bool(a):
    return np.ediff1d(a > 0)


def unravel_fortran(a):
    return np.unravel_index(1, (2, 2), order="F")


def ediff_cast(a):
    return np.ediff1d(a.astype(np.int64), to_begin=1.5)


@pytest.mark.parametrize(
    ("f", "words"),
    [
        (take_clip, "mode= is only supported as 'raise'"),
        (take_floats, "indices must be integers"),
        (compress_2d, "condition must be a 1-d array"),
        (select_ints, "conditions must be boolean arrays"),
        (select_numbers, "must be a list or a tuple of arrays"),
        (isin_complex, "complex numbers is not supported"),
        (intersect_indices, "return_indices=True is not supported"),
        (ediff_bool, "cannot subtract booleans"),
        (unravel_fortran, "order= is only supported as 'C'"),
        (ediff_cast, "same_kind"),
    ],
)
def test_unsupported_forms_are_typing_errors_with_a_hint(f, words: str) -> None:  # noqa: ANN001
    with pytest.raises(TypingError) as info:
        compiled(f)(np.arange(4.0).reshape(2, 2))
    assert words in str(info.value)
    assert "hint:" in str(info.value)


@given(
    st.sampled_from([np.uint8, np.int8, np.int32, np.int64]),
    st.one_of(
        st.integers(-(2**63), 2**63 - 1),
        st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e30, 2.5]),
    ),
)
def test_put_of_a_python_number_the_dtype_cannot_hold_raises_as_numpy(dtype: type, v) -> None:  # noqa: ANN001
    assert_same_arrays(put_, np.zeros(4, dtype=dtype), 1, v)  # OverflowError / ValueError
