"""Statistics and array algorithms (jitcore/lib/npstats.py) compiled vs NumPy: dtypes,
layouts, N-D with axis/keepdims, empty, NaN/inf, and NumPy's errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import TypingError
from tests.jitcore.lib.arrays_strategy import arrays
from tests.jitcore.support import assert_same, compiled

EXAMPLES = settings(max_examples=25)
floats = arrays(dtype="float64")

# --- reductions with axis, keepdims, ddof (jitcore/lib/reductions.py) -----------------------


def sum_axes(a):
    return np.sum(a, axis=0), a.sum(axis=-1, keepdims=True)


def sum_tuple_axes(a):
    return np.sum(a, axis=(0, -1)), a.mean(axis=(1, 0), keepdims=True)


def mean_var_std(a):
    return np.mean(a, axis=0), np.var(a, axis=-1, ddof=1), a.std(keepdims=True), np.std(a, ddof=2)


def min_max_axes(a):
    return np.min(a, axis=-1), a.max(axis=(0,), keepdims=True)


def argmin_argmax_axes(a):
    return np.argmin(a, axis=0), a.argmax(axis=-1, keepdims=True)


def any_all_prod(a):
    return np.any(a, axis=0), a.all(axis=-1), np.prod(a, axis=0)


@EXAMPLES
@given(a=arrays(min_side=1))
@pytest.mark.parametrize(
    "f", [sum_axes, mean_var_std, min_max_axes, argmin_argmax_axes, any_all_prod]
)
def test_reductions_along_axes_match_numpy(f, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same(f, a)


@EXAMPLES
@given(a=arrays(min_dims=2, min_side=1))
def test_reductions_over_tuple_axes_match_numpy(a: np.ndarray) -> None:
    assert_same(sum_tuple_axes, a)


@EXAMPLES
@given(a=arrays(min_side=0))
def test_reductions_of_empty_lanes_raise_as_numpy(a: np.ndarray) -> None:
    assert_same(min_max_axes, a)
    assert_same(sum_axes, a)


# --- nan-functions, ptp, count_nonzero ---------------------------------------------------------


def nan_sums(a):
    return np.nansum(a), np.nansum(a, axis=0), np.nanmean(a, axis=-1, keepdims=True)


def nan_spread(a):
    return np.nanvar(a, axis=0), np.nanstd(a, ddof=1)


def nan_extremes(a):
    return np.nanmin(a, axis=-1), np.nanmax(a)


def nan_args(a):
    return np.nanargmin(a), np.nanargmax(a, axis=0)


def ptp_count(a):
    return np.count_nonzero(a), np.count_nonzero(a, axis=0)


def ptp(a):
    return np.ptp(a), np.ptp(a, axis=-1, keepdims=True)


@EXAMPLES
@given(a=arrays())
# NumPy's nanargmax takes NaN for -inf: [nan, -inf] down a column gives 0, not 1
@example(a=np.array([[np.nan, 0.0], [-np.inf, 0.0]]))
@pytest.mark.parametrize("f", [nan_sums, nan_spread, nan_extremes, nan_args, ptp_count])
def test_nan_functions_match_numpy(f, a: np.ndarray) -> None:  # noqa: ANN001
    assert_same(f, a)


@EXAMPLES
@given(a=arrays(dtype="float64") | arrays(dtype="int32"))
def test_ptp_matches_numpy(a: np.ndarray) -> None:
    assert_same(ptp, a)


def integer_sums(a):
    """Sums of narrow integers and bools, read as they are and added in the wider type."""
    return np.sum(a), a.sum(), np.sum(a[::-2]), (a > 1).sum()


@EXAMPLES
@given(
    a=hnp.arrays(
        st.sampled_from([np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64]),
        st.integers(0, 40),
    )
)
def test_sums_of_narrow_integers_and_bools_match_numpy(a: np.ndarray) -> None:
    got = assert_same(integer_sums, a)
    assert [type(x) for x in got] == [type(x) for x in integer_sums(a)]


def extremes(a):
    """Float max/min run as vectorized IEEE maximum/minimum reductions (`ieeeminmax`)."""
    return np.max(a), np.min(a), a[::-3].max(), a[1:].min() if a.shape[0] > 1 else a.min()


@EXAMPLES
@given(
    a=hnp.arrays(
        st.sampled_from([np.float64, np.float32]),
        st.integers(1, 70),
        elements=st.one_of(
            st.floats(-1e6, 1e6, width=32),
            st.sampled_from([np.nan, np.inf, -np.inf, 0.0, -0.0]),
        ),
    )
)
def test_float_max_and_min_propagate_nan_like_numpy(a: np.ndarray) -> None:
    got = assert_same(extremes, a)
    assert [type(x) for x in got] == [type(x) for x in extremes(a)]


def row_extremes(a):
    return np.max(a, axis=1), np.min(a, axis=-1), a.max(axis=0), np.min(a[:, ::-1], axis=1)


@EXAMPLES
@given(
    a=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=12),
        elements=st.one_of(st.floats(-1e6, 1e6), st.sampled_from([np.nan, np.inf, -np.inf])),
    )
)
def test_float_max_and_min_along_rows_match_numpy(a: np.ndarray) -> None:
    assert_same(row_extremes, a)


def empty_max(a):
    return np.max(a)


def empty_row_min(a):
    return np.min(a, axis=-1)


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4)])
def test_float_max_and_min_of_nothing_raise_like_numpy(shape: tuple[int, ...]) -> None:
    a = np.zeros(shape)
    assert_same(empty_max, a)
    assert_same(empty_row_min, a)


def test_the_zero_of_max_and_min_is_signed_by_ieee_rules() -> None:
    """NumPy's sign of a zero extreme depends on SIMD lanes; here +0.0 is the larger."""
    a = np.array([-0.0, 0.0, -0.0])
    got = compiled(extremes)(a)
    assert [np.signbit(x) for x in got[:2]] == [False, True]


def variances(a):
    return a.var(), np.std(a), np.var(a, ddof=1)


@EXAMPLES
@given(
    n=st.integers(1, 600),
    seed=st.integers(0, 2**32 - 1),
    scale=st.sampled_from([1.0, 1e-3, 1e8]),
)
def test_var_sums_squared_deviations_in_numpys_order(n: int, seed: int, scale: float) -> None:
    """`pairwise_sq_dev` adds what NumPy's var adds, in its order: equal to the last bit."""
    a = np.random.default_rng(seed).standard_normal(n) * scale + scale
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(compiled(variances)(a), variances(a))  # NaN equals NaN


# --- scans, diff ------------------------------------------------------------------------


def scans(a):
    return np.cumsum(a), np.cumsum(a, axis=0), a.cumprod(axis=-1)


def diffs(a, n):
    return np.diff(a), np.diff(a, n, axis=0)


@EXAMPLES
@given(a=arrays())
def test_cumsum_cumprod_along_axes_match_numpy(a: np.ndarray) -> None:
    assert_same(scans, a)


def scans_of_views(a):
    """One-dimensional scans read their lane in place, whatever its strides."""
    return np.cumsum(a[::-1]), np.cumprod(a[::2]), a[1::3].cumsum(), np.cumsum(a[::-2], axis=0)


@EXAMPLES
@given(
    a=hnp.arrays(
        st.sampled_from([np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_]),
        st.integers(0, 12),
    )
)
def test_scans_of_strided_vectors_match_numpy(a: np.ndarray) -> None:
    assert_same(scans_of_views, a)


@EXAMPLES
@given(a=arrays(), n=st.integers(-1, 4))
def test_diff_matches_numpy(a: np.ndarray, n: int) -> None:
    assert_same(diffs, a, n)


# --- bincount, digitize, histogram --------------------------------------------------------


def bincount(x, w, minlength):
    return np.bincount(x, minlength=minlength), np.bincount(x, weights=w)


small_ints = hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-1, 8))


@EXAMPLES
@given(x=small_ints, minlength=st.integers(-1, 10))
def test_bincount_matches_numpy(x: np.ndarray, minlength: int) -> None:
    if x.size == 0:  # documented: NumPy's weighted bincount of nothing is int64
        return
    assert_same(bincount, x, x * 0.25, minlength)


def digitize(x, bins):
    return np.digitize(x, bins), np.digitize(x, bins, right=True)


@EXAMPLES
@given(
    x=arrays(dtype="float64"),
    bins=hnp.arrays(np.float64, st.integers(0, 5), elements=st.floats(-3, 3)),
)
def test_digitize_matches_numpy(x: np.ndarray, bins: np.ndarray) -> None:
    assert_same(digitize, x, bins)
    assert_same(digitize, x, np.sort(bins))
    assert_same(digitize, x, np.sort(bins)[::-1].copy())


def histogram(a, bins):
    return np.histogram(a, bins)


def histogram_range(a, bins, lo, hi):
    return np.histogram(a, bins, (lo, hi))


def histogram_default(a):
    return np.histogram(a)


@EXAMPLES
@given(
    a=arrays(dtype="float64") | arrays(dtype="int64"),
    bins=st.integers(0, 12),
    lo=st.floats(-5, 5),
    width=st.floats(0, 10),
)
def test_histogram_matches_numpy(a: np.ndarray, bins: int, lo: float, width: float) -> None:
    assert_same(histogram, a, bins)
    assert_same(histogram_default, a)
    assert_same(histogram_range, a, bins, lo, lo + width)


@EXAMPLES
@given(
    a=arrays(dtype="float64"),
    edges=hnp.arrays(np.float64, st.integers(1, 5), elements=st.floats(-3, 3)),
)
def test_histogram_with_edges_matches_numpy(a: np.ndarray, edges: np.ndarray) -> None:
    assert_same(histogram, a, edges)
    assert_same(histogram, a, np.sort(edges))


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """Equal values, dtypes and signs of zeros (edges are returned to the user)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True), (got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want)), (got, want)


def _near_edges(draw: st.DrawFn, lo: float, hi: float, bins: int) -> np.ndarray:
    """Values on NumPy's edges of [lo, hi] and a few ulps either side, and some inside."""
    edges = np.linspace(lo, hi, bins + 1)
    steps = draw(st.lists(st.integers(-3, 3), min_size=1, max_size=4))
    near = []
    for k in steps:
        moved = edges
        for _ in range(abs(k)):
            moved = np.nextafter(moved, np.inf if k > 0 else -np.inf)
        near.append(moved)
    inside = draw(hnp.arrays(np.float64, st.integers(0, 40), elements=st.floats(lo, hi)))
    return np.concatenate([edges, *near, inside, [lo, hi]])


@settings(max_examples=60)
@given(
    data=st.data(),
    bins=st.integers(1, 300),
    lo=st.one_of(
        st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 1.0, 1e15, -1e300, 2.0**-1070])
    ),
    width=st.one_of(st.floats(1e-300, 1e6), st.sampled_from([1e-9, 2.0**-40, 1.0, 3.0])),
)
def test_histogram_bins_at_the_edges_are_numpys(
    data: st.DataObject, bins: int, lo: float, width: float
) -> None:
    """`count_scaled` (a well-conditioned range) and the division path (one that is not: a
    narrow range far from 0, many bins) both give NumPy's bins, values an ulp off an edge
    included; the range given or taken from the data."""
    hi = lo + width
    if not hi > lo or not np.isfinite(hi):
        return
    try:
        np.histogram(np.array([lo]), bins, (lo, hi))
    except ValueError:  # too many bins for the range: checked elsewhere
        return
    a = _near_edges(data.draw, lo, hi, bins)
    a = a[(a >= lo) & (a <= hi)] if data.draw(st.booleans()) else a
    f = compiled(histogram_range)
    for got, want in zip(f(a, bins, lo, hi), histogram_range(a, bins, lo, hi), strict=True):
        _same_bits(got, want)
    if a.size and np.isfinite(a).all() and a.max() > a.min():
        for got, want in zip(compiled(histogram)(a, bins), histogram(a, bins), strict=True):
            _same_bits(got, want)


@settings(max_examples=150)
@given(
    values=st.lists(
        st.sampled_from([0.0, -0.0, 1.0, -1.0, -2.5, 3.0, np.nan, np.inf, -np.inf]),
        min_size=0,
        max_size=11,
    ),
    bins=st.integers(1, 5),
)
@example(values=[-1.0, -0.0, -1.0, -1.0, 0.0], bins=1)  # the first zero is in another lane
def test_histogram_data_range_as_numpy(values: list[float], bins: int) -> None:
    """The data's range (four minima and maxima at a time, a tail of n % 4): all equal, signed
    zeros at either end, NaN and inf raising NumPy's ValueError, lengths 0 to 11. A last edge
    of zero has the sign of the first zero in the data, as a sequential scan finds it (NumPy's
    SIMD max may give the other zero: the values are equal)."""
    a = np.array(values, dtype=np.float64)
    f = compiled(histogram)
    try:
        want = histogram(a, bins)
    except ValueError:  # NumPy's message also names the range
        with pytest.raises(ValueError, match="autodetected range"):
            f(a, bins)
        return
    counts, edges = f(a, bins)
    _same_bits(counts, want[0])
    assert np.array_equal(edges, want[1]) and edges.dtype == want[1].dtype
    if edges[-1] == 0:
        assert np.signbit(edges[-1]) == np.signbit(a[a == 0][0])


# --- interp, average ----------------------------------------------------------------------


def interp(x, xp, fp):
    return np.interp(x, xp, fp), np.interp(x, xp, fp, left=-1.0, right=7.5)


@EXAMPLES
@given(
    x=arrays(dtype="float64"),
    xp=hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-4, 4), unique=True),
    data=st.data(),
)
def test_interp_matches_numpy(x: np.ndarray, xp: np.ndarray, data: st.DataObject) -> None:
    xp = np.sort(xp)
    fp = data.draw(hnp.arrays(np.float64, xp.shape, elements=st.floats(-1e6, 1e6)))
    assert_same(interp, x, xp, fp)
    assert_same(interp, 0.5, xp, fp)


def average(a, w):
    return np.average(a), np.average(a, weights=w), np.average(a, axis=0, weights=w)


@EXAMPLES
@given(a=arrays(min_side=1), data=st.data())
def test_average_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    w = data.draw(hnp.arrays(np.float64, a.shape, elements=st.floats(0, 4)))
    assert_same(average, a, w)


# --- closeness ------------------------------------------------------------------------------


def closeness(a, b):
    return (
        np.isclose(a, b),
        np.isclose(a, b, equal_nan=True),
        np.allclose(a, b),
        np.array_equal(a, b),
        np.array_equal(a, b, equal_nan=True),
    )


@EXAMPLES
@given(a=arrays(dtype="float64"), data=st.data())
def test_closeness_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    noise = data.draw(hnp.arrays(np.float64, a.shape, elements=st.sampled_from([0, 1e-9, 1e-3])))
    assert_same(closeness, a, a + noise)
    assert_same(closeness, a, a.astype(np.int64) if np.isfinite(a).all() else a)


# --- small products -----------------------------------------------------------------------


def products(a, b):
    return np.outer(a, b), np.kron(a, b)


def trace(m, k):
    return np.trace(m), np.trace(m, k)


def cross(a, b):
    return np.cross(a, b)


def convolutions(a, v):
    return (
        np.convolve(a, v),
        np.convolve(a, v, "same"),
        np.convolve(a, v, "valid"),
        np.correlate(a, v),
        np.correlate(a, v, "same"),
        np.correlate(a, v, "full"),
    )


vectors = arrays(dtype="float64", max_dims=1) | arrays(dtype="int64", max_dims=1)


@EXAMPLES
@given(a=vectors, b=vectors, m=arrays(min_dims=2, max_dims=2), k=st.integers(-3, 3))
def test_products_match_numpy(a: np.ndarray, b: np.ndarray, m: np.ndarray, k: int) -> None:
    assert_same(products, a, b)
    assert_same(trace, m, k)


@EXAMPLES
@given(a=vectors, b=vectors)
def test_convolve_and_correlate_match_numpy(a: np.ndarray, b: np.ndarray) -> None:
    assert_same(convolutions, a, b)


@EXAMPLES
@given(
    a=hnp.arrays(np.float64, st.sampled_from([1, 2, 3, 4]), elements=st.floats(-9, 9)),
    b=hnp.arrays(np.float64, st.sampled_from([2, 3]), elements=st.floats(-9, 9)),
)
def test_cross_matches_numpy(a: np.ndarray, b: np.ndarray) -> None:
    """Two 2-vectors (NumPy: a 0-d result) are a documented ValueError."""
    if a.shape == b.shape == (2,):
        with pytest.raises(ValueError, match="2-vectors"):
            compiled(cross)(a, b)
        return
    assert_same(cross, a, b)


def signed_zero_sums(a):  # noqa: ANN001, ANN201
    return np.sum(a), np.mean(a), np.cumsum(a), np.median(a), np.nansum(a), a.sum(axis=-1)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 200])
def test_sums_of_negative_zeros_are_numpys(n: int) -> None:
    """NumPy adds a sum to its start, 0.0 (so a sum of -0.0 is 0.0, for any n), takes a median
    as the mean of the middle ones (0.0 too), and accumulates from the first item (cumsum keeps
    -0.0)."""
    a = np.full(n, -0.0)
    want, got = signed_zero_sums(a), compiled(signed_zero_sums)(a)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


def nanargmin_axis1(a):  # noqa: ANN001, ANN201
    return np.nanargmin(a, axis=1)


def test_nanargmin_of_an_empty_axis_raises_even_with_nothing_else() -> None:
    a = np.empty((1, 0, 0))
    with pytest.raises(ValueError, match="empty sequence"):
        nanargmin_axis1(a)
    with pytest.raises(ValueError, match="empty sequence"):
        compiled(nanargmin_axis1)(a)


def nan_spread_f32(a):  # noqa: ANN001, ANN201
    return np.nanvar(a), np.nanstd(a, axis=-1), np.var(a)


@given(a=arrays(dtype="float32", min_dims=1))
def test_float32_nanvar_is_numpys_bit_for_bit(a: np.ndarray) -> None:
    """Its mean stays float32 as NumPy's does (it once became float64: 1 ulp off)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN lanes
        assert_same(nan_spread_f32, np.ascontiguousarray(a), ulps=0)


def weighted_bincount(x, w):  # noqa: ANN001, ANN201
    return np.bincount(x, weights=w)


def test_bincount_refuses_complex_weights_as_numpy() -> None:
    with pytest.raises(TypeError):
        weighted_bincount(np.array([0, 1, 1]), np.array([1 + 2j, 3j, 1.0]))
    with pytest.raises(TypingError, match="complex128 to float64"):
        compiled(weighted_bincount)(np.array([0, 1, 1]), np.array([1 + 2j, 3j, 1.0]))


def closeness_flags(a, b):  # noqa: ANN001, ANN201
    return np.allclose(a, b), np.array_equal(a, b)


def test_allclose_and_array_equal_return_python_bools() -> None:
    got = compiled(closeness_flags)(np.ones(3), np.ones(3))
    assert got == closeness_flags(np.ones(3), np.ones(3))
    assert [type(x) for x in got] == [bool, bool]


# --- 0-d arrays -----------------------------------------------------------------------------

ZERO_D = [np.array(1.5), np.array(-2, np.int32), np.array(True)]


def diff_orders(a, n):
    return np.diff(a, n), np.diff(a, n=n, axis=0)


@pytest.mark.parametrize("a", ZERO_D)
@pytest.mark.parametrize("n", [0, 1, 2, -1])
def test_diff_of_a_0d_array_as_numpy(a: np.ndarray, n: int) -> None:
    """The array itself for n=0, NumPy's ValueErrors otherwise (the axis is not looked at)."""
    assert_same(diff_orders, a, n)


def kron(a, b):
    return np.kron(a, b)


@pytest.mark.parametrize("b", [np.array(2.0), np.arange(3), np.arange(4.0).reshape(2, 2)])
@pytest.mark.parametrize("a", ZERO_D)
def test_kron_of_0d_arrays(a: np.ndarray, b: np.ndarray) -> None:
    assert_same(kron, a, b)  # of two 0-d arrays: a NumPy scalar
    assert_same(kron, b, a)


def digitize_and_interp(x, xp):
    return np.digitize(x, xp), np.interp(x, xp, xp * 2.0), np.interp(x, xp, xp, left=x)


@pytest.mark.parametrize("x", [np.array(1.5), np.array(-1), np.array(np.nan), np.array(True)])
def test_digitize_and_interp_of_a_0d_array_are_numpy_scalars(x: np.ndarray) -> None:
    assert_same(digitize_and_interp, x, np.arange(3.0))
