"""Sorting and searching (jitcore/lib/npsort.py) compiled vs NumPy: every dtype, N-D, empty,
NaN/inf, ties, all layouts; NumPy's errors for bad arguments."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore.errors import TypingError, UnsupportedError
from jitcore.lib import npsortk
from tests.jitcore.lib.arrays_strategy import arrays
from tests.jitcore.support import assert_same, assert_same_arrays, compiled

EXAMPLES = settings(max_examples=30)

# --- sort, argsort ---------------------------------------------------------------------------


def sort_last(a):
    return np.sort(a)


def sort_first(a):
    return np.sort(a, axis=0)


def sort_flat(a):
    return np.sort(a, axis=None)


def sort_in_place(a):
    a.sort()
    return a


def sort_in_place_first(a):
    a.sort(axis=0)


def argsort_stable(a):
    return np.argsort(a, kind="stable")


def argsort_stable_first(a):
    return np.argsort(a, axis=0, kind="stable")


def argsort_flat(a):
    return a.argsort(axis=None, kind="mergesort")


@EXAMPLES
@given(a=arrays())
@pytest.mark.parametrize(
    "f", [sort_last, sort_first, sort_flat, argsort_stable, argsort_stable_first, argsort_flat]
)
def test_sort_and_stable_argsort_match_numpy(f, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same(f, a)


@EXAMPLES
@given(a=arrays())
@pytest.mark.parametrize("f", [sort_in_place, sort_in_place_first])
def test_sort_method_sorts_in_place(f, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same_arrays(f, a)


def argsort_default(a):
    return np.argsort(a)


@EXAMPLES
@given(a=arrays(max_dims=2))
def test_default_argsort_is_a_sorting_permutation(a: np.ndarray) -> None:
    """The default kind may order ties unlike NumPy's quicksort; it sorts all the same."""
    got = compiled(argsort_default)(a)
    assert got.shape == a.shape and got.dtype == np.int64
    assert np.array_equal(np.take_along_axis(a, got, -1), np.sort(a), equal_nan=True)


def test_sort_is_n_log_n_on_adversarial_input() -> None:
    """Organ-pipe and all-equal inputs (quicksort's worst cases) sort (the heapsort guard)."""
    n = 200_000
    pipe = np.concatenate([np.arange(n // 2), np.arange(n // 2)[::-1]]).astype(np.float64)
    for a in (pipe, np.ones(n), np.arange(n)[::-1].copy()):
        assert np.array_equal(compiled(sort_last)(a), np.sort(a))


def sort_kind(a):
    return np.sort(a, kind="bogus")


def sort_complex(a):
    return np.sort(a)


def test_bad_sort_arguments_are_typing_errors() -> None:
    with pytest.raises(TypingError, match="sort kind"):
        compiled(sort_kind)(np.ones(3))
    with pytest.raises(UnsupportedError, match="complex"):
        compiled(sort_complex)(np.ones(3, np.complex128))


# --- searchsorted ---------------------------------------------------------------------------


def search_both(a, v):
    return np.searchsorted(a, v), np.searchsorted(a, v, side="right")


def search_method(a, v):
    return a.searchsorted(v, "right")


@EXAMPLES
@given(a=arrays(max_dims=1), v=arrays(max_dims=2), x=st.floats(allow_nan=True))
def test_searchsorted_matches_numpy(a: np.ndarray, v: np.ndarray, x: float) -> None:
    a = np.sort(a)
    assert_same(search_both, a, v)
    assert_same(search_both, a, x)
    assert_same(search_method, a, v)


@settings(max_examples=60)
@given(
    a=hnp.arrays(np.float64, st.integers(0, 7), elements=st.sampled_from([np.nan, 0.0, 1.0, 2.0])),
    v=hnp.arrays(np.float64, st.integers(0, 8), elements=st.sampled_from([np.nan, 0.5, 1.0, 3.0])),
)
def test_searchsorted_in_an_unsorted_array_is_numpys_binsearch(
    a: np.ndarray, v: np.ndarray
) -> None:
    """NumPy's result there depends on where each search starts (the previous key's bounds,
    kept by comparing the keys as it compares them with items: `<=` for side='right'), which
    digitize relies on for bins with a NaN among them."""
    assert_same(search_both, a, v)


# --- unique ---------------------------------------------------------------------------------


def unique_plain(a):
    return np.unique(a)


def unique_all(a):
    return np.unique(a, return_index=True, return_inverse=True, return_counts=True)


def unique_counts(a):
    return np.unique(a, return_counts=True)


@EXAMPLES
@given(a=arrays())
@pytest.mark.parametrize("f", [unique_plain, unique_all, unique_counts])
def test_unique_matches_numpy(f, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same(f, a)


# --- nonzero, argwhere, flatnonzero, where(condition) ------------------------------------


def nonzero(a):
    return np.nonzero(a)


def nonzero_method(a):
    return a.nonzero()


def argwhere(a):
    return np.argwhere(a)


def flatnonzero(a):
    return np.flatnonzero(a)


def where_one(a):
    return np.where(a)


@EXAMPLES
@given(a=arrays())
@pytest.mark.parametrize("f", [nonzero, nonzero_method, argwhere, flatnonzero, where_one])
def test_nonzero_family_matches_numpy(f, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same(f, a)


# --- partition ------------------------------------------------------------------------------


def partition(a, k):
    return np.partition(a, k)


def argpartition(a, k):
    return np.argpartition(a, k, axis=0)


@EXAMPLES
@given(a=arrays(max_dims=2), k=st.integers(-6, 6))
def test_partition_puts_kth_in_place(a: np.ndarray, k: int) -> None:
    """NumPy leaves each side in an unspecified order: compare the kth element, the sides'
    contents and the errors."""
    try:
        expected = np.partition(a, k)
    except ValueError:
        with pytest.raises(ValueError, match="kth"):
            compiled(partition)(a, k)
        return
    got = compiled(partition)(a, k)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    if a.size == 0:
        return
    assert np.array_equal(got[..., k], expected[..., k], equal_nan=True)
    assert np.array_equal(np.sort(got), np.sort(expected), equal_nan=True)


@EXAMPLES
@given(a=arrays(min_dims=1, max_dims=2, min_side=1), k=st.integers(-1, 0))
def test_argpartition_indexes_a_partition(a: np.ndarray, k: int) -> None:
    got = compiled(argpartition)(a, k)
    expected = np.argpartition(a, k, axis=0)
    assert got.shape == expected.shape
    taken = np.take_along_axis(a, got, 0)
    assert np.array_equal(taken[k], np.take_along_axis(a, expected, 0)[k], equal_nan=True)


def partition_bool_kth(a):
    return np.partition(a, True)


def test_partition_rejects_a_boolean_kth_as_numpy() -> None:
    assert_same(partition_bool_kth, np.arange(3.0))


# --- median, quantile, percentile -----------------------------------------------------------


def median_all(a):
    return np.median(a)


def median_axes(a):
    return np.median(a, axis=0), np.median(a, axis=-1, keepdims=True)


def quantile_scalar(a, q):
    return np.quantile(a, q), np.quantile(a, q, axis=0)


def percentile_array(a, q):
    return np.percentile(a, q, axis=-1), np.percentile(a, q, keepdims=True)


def quantile_ints(a, q):
    return np.quantile(a, q)


@EXAMPLES
@given(a=arrays(min_side=1, dtype=None))
def test_median_matches_numpy(a: np.ndarray) -> None:
    assert_same(median_all, a)
    assert_same(median_axes, a)


@EXAMPLES
@given(a=arrays(min_side=1), q=st.floats(-0.5, 1.5) | st.sampled_from([0.0, 0.5, 1.0]))
def test_quantile_matches_numpy(a: np.ndarray, q: float) -> None:
    assert_same(quantile_scalar, a, q)


@EXAMPLES
@given(
    a=arrays(min_side=1),
    q=st.lists(st.floats(0, 100), min_size=1, max_size=3).map(np.array),
)
def test_percentile_of_an_array_of_q_matches_numpy(a: np.ndarray, q: np.ndarray) -> None:
    assert_same(percentile_array, a, q)


def test_quantile_with_integer_q_takes_items() -> None:
    big = np.array([2**62 + 1, 3, 2**62 + 3], dtype=np.int64)
    assert_same(quantile_ints, big, 1)
    assert_same(quantile_ints, big, np.array([0, 1]))
    assert_same(quantile_ints, big, np.array([0.5]))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "float32"])
@pytest.mark.parametrize("q_dtype", ["float32", "float64"])
def test_a_numpy_float_q_takes_part_in_the_result_dtype(dtype: str, q_dtype: str) -> None:
    """An int8 array's quantile at float32 q is float32 in NumPy (int8 and float32 promote to
    float32); it was always float64 here. A Python float q is weak and does not take part."""
    a = np.array([5, 1, 3, 2], dtype=dtype)
    assert_same(quantile_ints, a, np.array([0.5, 0.25], dtype=q_dtype))
    assert_same(percentile_array, a, np.array([50.0], dtype=q_dtype))
    assert_same(quantile_ints, a, 0.5)


def percentile_plain(a, q):
    return np.percentile(a, q)


def test_integer_and_boolean_q_take_numpys_dtypes() -> None:
    """np.percentile divides an integer q by 100 first: a float32 array's percentile at an
    int64 array of q is float64; np.quantile at booleans takes items (an int8 result). Both
    were float32/float64 here until np.quantile and np.nanquantile shared one dtype rule, and
    the quantile of a boolean array at an integer q was a TypingError."""
    a = np.arange(5, dtype=np.float32)
    assert compiled(percentile_plain)(a, np.array([50])).dtype == np.float64
    assert_same(percentile_plain, a, np.array([50, 10]))
    assert_same(quantile_ints, np.arange(5, dtype=np.int8), np.array([True, False]))
    bools = np.array([True, False, True])
    assert_same(quantile_ints, bools, 1)  # items of a boolean array: booleans
    assert_same(quantile_ints, bools, np.array([0, 1]))
    assert_same(quantile_ints, bools, 0.5)  # interpolating booleans raises TypeError


def test_quantile_out_of_range_and_empty_raise_as_numpy() -> None:
    assert_same(quantile_scalar, np.arange(3.0), 1.5)
    assert_same(percentile_array, np.arange(3.0), np.array([101.0]))
    assert_same(quantile_scalar, np.zeros(0), 0.5)
    # NumPy checks q / 100: a negative subnormal percentile divides to -0.0 and is valid
    # (found by jitcheck's corner inputs)
    assert_same(percentile_array, np.zeros(1), np.array([-5e-324]))
    assert_same(percentile_array, np.arange(3.0), np.array([-1e-300]))


# --- structured input at the kernels' cutoffs ----------------------------------------------
# The kernels index without wrapping (registry.nonnegative_kernel), the introsort switches to
# insertion sort at 16 items, the merge sort merges runs of 16, has_nan tests blocks of 1024
# and the median's lower maximum takes four items at a time: sizes on each side of those.

SIZES = (0, 1, 2, 3, 4, 5, 7, 15, 16, 17, 18, 31, 32, 33, 64, 65, 1023, 1024, 1025, 2100)
FLOATS = (0.0, -0.0, 1.0, -1.0, 2.5, np.nan, np.inf, -np.inf)
INTS = (0, 1, -1, 7, np.iinfo(np.int64).min, np.iinfo(np.int64).max)


@st.composite
def structured(draw: st.DrawFn) -> np.ndarray:
    """A 1-D array: random, all equal, sorted, reverse-sorted, or two values, of floats with
    NaN, inf and signed zeros or of int64 with its extremes."""
    n = draw(st.sampled_from(SIZES) | st.integers(0, 300))
    floats = draw(st.booleans())
    specials = FLOATS if floats else INTS
    dtype = np.float64 if floats else np.int64
    pattern = draw(st.sampled_from(["random", "equal", "sorted", "reversed", "two"]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if pattern == "equal":
        return np.full(n, draw(st.sampled_from(specials)), dtype)
    if pattern == "two":
        pair = draw(st.lists(st.sampled_from(specials), min_size=2, max_size=2))
        return rng.choice(np.array(pair, dtype), n)
    pool = np.array(specials, dtype)
    a = np.where(rng.random(n) < 0.3, rng.choice(pool, n), rng.integers(-5, 5, n)).astype(dtype)
    if pattern == "sorted":
        a = np.sort(a)
    elif pattern == "reversed":
        a = np.sort(a)[::-1].copy()
    return a


def unique_index_counts(a):
    return np.unique(a, return_index=True, return_counts=True)


@settings(max_examples=80)
@given(a=structured(), v=structured())
def test_sorting_kernels_on_structured_input(a: np.ndarray, v: np.ndarray) -> None:
    assert_same(sort_last, a)
    assert_same(argsort_stable, a)
    needles = v if v.dtype == a.dtype else a[::-1].copy()
    assert_same(search_both, np.sort(a), needles)
    assert_same(unique_all, a)
    assert_same(unique_index_counts, a)
    if a.size:
        assert_same(median_all, a)


def lower_max(row, hi):
    return npsortk.largest_before(row, hi)


@settings(max_examples=150)
@given(
    a=structured().filter(lambda a: a.dtype == np.float64 and a.size > 0)
    | hnp.arrays(np.float64, st.integers(1, 13), elements=st.sampled_from([-1.0, -0.0, 0.0])),
    data=st.data(),
)
def test_largest_before_is_the_sequential_scan(a: np.ndarray, data: st.DataObject) -> None:
    """Bit for bit the value `if row[i] > m: m = row[i]` keeps, the sign of a zero included."""
    a = a[~np.isnan(a)]
    if not a.size:
        return
    hi = data.draw(st.integers(1, a.size))
    m = a[0]
    for x in a[1:hi]:
        if x > m:
            m = x
    got = compiled(lower_max)(a, hi)
    assert got == m and np.signbit(got) == np.signbit(m)


# --- 0-d arrays -----------------------------------------------------------------------------

ZERO_D = [np.array(1.5), np.array(np.nan), np.array(-2, np.int32), np.array(True)]


def argsort_0d(a):
    return np.argsort(a), np.argsort(a, axis=0), a.argsort(axis=None), a.argsort(kind="stable")


def argpartition_0d(a, k):
    return np.argpartition(a, k), np.argpartition(a, k, axis=-1)


def flat_sorts(a):
    return np.sort(a, axis=None), np.partition(a, 0, axis=None), np.argpartition(a, 0, axis=None)


@pytest.mark.parametrize("a", ZERO_D)
def test_a_0d_array_argsorts_as_the_1d_array_of_its_item(a: np.ndarray) -> None:
    """NumPy's argsort and argpartition ravel a 0-d array (axis 0, -1 or None: array([0]));
    kth beyond its one item raises as NumPy."""
    assert_same(argsort_0d, a)
    for k in (0, -1, 1, -2):
        assert_same(argpartition_0d, a, k)
    assert_same(flat_sorts, a)


@pytest.mark.parametrize("f", [sort_last, sort_in_place, partition])
def test_sorting_a_0d_array_along_its_last_axis_is_numpys_axis_error(f) -> None:  # noqa: ANN001
    """np.sort, a.sort() and np.partition do not ravel: NumPy's AxisError, which is a
    TypingError in compiled code (the axis and ndim are known while compiling)."""
    args = (np.array(1.5), 0)[: f.__code__.co_argcount]
    with pytest.raises(TypingError, match="axis -1 is out of bounds for array of dimension 0"):
        compiled(f)(*args)


def nonzero_unused(a):
    np.nonzero(a)
    return 1


@pytest.mark.parametrize("f", [nonzero, nonzero_method, where_one, nonzero_unused])
@pytest.mark.parametrize("a", [np.array(0.0), np.array(2)])
def test_nonzero_of_a_0d_array_raises_as_numpy(f, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same(f, a)  # ValueError, even when the result is unused


@pytest.mark.parametrize("v", [np.array(1.5), np.array(np.nan), np.array(2, np.int8)])
def test_searchsorted_of_a_0d_needle_is_a_numpy_scalar(v: np.ndarray) -> None:
    assert_same(search_both, np.arange(3.0), v)
    assert_same(search_method, np.arange(3), v)


def keepdims_0d(a, q):
    return (
        np.median(a, keepdims=True),
        np.quantile(a, 0.5, keepdims=True),
        np.percentile(a, q, keepdims=True),
    )


@pytest.mark.parametrize("a", [np.array(1.5), np.array(3)])
def test_median_and_quantile_keep_a_0d_array_0d(a: np.ndarray) -> None:
    """Not ufunc reductions: with keepdims a 0-d array stays one (np.sum gives a scalar)."""
    assert_same(keepdims_0d, a, np.array([10.0, 50.0]))
    assert_same(keepdims_0d, a, 50.0)


def partition_kth_keyword(a):
    return np.partition(a, kth=1)[1], np.argpartition(a, kth=1)[1]


def test_kth_may_be_given_by_keyword() -> None:
    assert_same(partition_kth_keyword, np.array([3.0, 1.0, 2.0]))
    assert_same(partition_kth_keyword, np.array([3.0]))  # kth out of bounds: ValueError
