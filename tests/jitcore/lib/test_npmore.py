"""More NumPy functions and methods (jitcore/lib/npmore.py) compiled vs NumPy: dtypes, layouts
(C, Fortran, strided, reversed, transposed), empty arrays, NaN/inf, zero divisors, int64
limits, views that share memory as NumPy's do, and NumPy's errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from jitcore import TypingError, jit
from tests.jitcore.lib.arrays_strategy import arrays, laid_out
from tests.jitcore.support import assert_same, assert_same_arrays

EXAMPLES = settings(max_examples=20)
FEW = settings(max_examples=10)

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
edge_floats = st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, math.inf, -math.inf, math.nan])
floats = st.one_of(edge_floats, st.floats(-50, 50), st.floats(allow_nan=False, width=64))
ints = st.one_of(st.integers(-3, 3), st.sampled_from([INT64_MIN, INT64_MAX]))
small_floats = st.one_of(st.integers(-4, 4).map(float), edge_floats)


def vectors(dtype: str | None = None, max_side: int = 6) -> st.SearchStrategy[np.ndarray]:
    return arrays(dtype=dtype, min_dims=1, max_dims=1, max_side=max_side)


def matrices(dtype: str | None = None, min_side: int = 0) -> st.SearchStrategy[np.ndarray]:
    return arrays(dtype=dtype, min_dims=2, max_dims=2, min_side=min_side, max_side=4)


def plain_vectors(dtype: str) -> st.SearchStrategy[np.ndarray]:
    """1-D arrays of one dtype, contiguous or reversed (few compiled specializations)."""
    a = hnp.arrays(np.dtype(dtype), st.integers(0, 5), elements=st.integers(0, 9))
    return st.tuples(a, st.booleans()).map(lambda p: p[0][::-1] if p[1] else p[0])


@st.composite
def complex_arrays(  # noqa: ANN201
    draw: st.DrawFn,
    ndim: int = 1,
    shape: tuple[int, ...] | None = None,
    finite: bool = False,
    dtype: str = "complex128",
    layouts: tuple[str, ...] = ("C", "reversed"),
):
    if shape is None:
        shape = draw(hnp.array_shapes(min_dims=ndim, max_dims=ndim, min_side=0, max_side=4))
    parts = st.integers(-3, 3).map(float)
    if not finite:
        parts = st.one_of(parts, st.sampled_from([math.nan, math.inf]))
    a = draw(hnp.arrays(np.dtype(dtype), shape, elements=st.builds(complex, parts, parts)))
    return laid_out(a, draw(st.sampled_from(layouts)))


# --- logspace, geomspace ----------------------------------------------------------------------


def logspace_default(start, stop, num):
    return np.logspace(start, stop, num)


def logspace_open(start, stop, num, base):
    return np.logspace(start, stop, num, endpoint=False, base=base)


def geomspace_default(start, stop, num):
    return np.geomspace(start, stop, num)


def geomspace_open(start, stop, num):
    return np.geomspace(start, stop, num=num, endpoint=False)


ends = st.one_of(st.integers(-5, 5), st.floats(-20, 20), edge_floats)


@EXAMPLES
@given(start=ends, stop=ends, num=st.integers(0, 9), base=st.sampled_from([10.0, 2, 0.5, -2.0]))
@example(start=0, stop=2, num=1, base=10.0)
@example(start=0, stop=2, num=-1, base=10.0)  # NumPy's ValueError
def test_logspace_matches_numpy(start, stop, num: int, base) -> None:  # noqa: ANN001
    assert_same(logspace_default, start, stop, num)


@EXAMPLES
@given(start=ends, stop=ends, num=st.integers(0, 9), base=st.sampled_from([10.0, 2, 0.5, -2.0]))
def test_logspace_without_endpoint_matches_numpy(start, stop, num: int, base) -> None:  # noqa: ANN001
    assert_same(logspace_open, start, stop, num, base)


@FEW
@given(start=st.floats(-3, 3, width=32), stop=st.floats(-3, 3, width=32), num=st.integers(0, 6))
def test_logspace_of_float32_ends_is_float32(start: float, stop: float, num: int) -> None:
    got = assert_same(logspace_default, np.float32(start), np.float32(stop), num)
    assert got.dtype == np.float32


nonzero_ends = st.one_of(
    st.integers(-1000, 1000), st.floats(-1e6, 1e6), st.sampled_from([math.inf, math.nan, 1e-300])
)


@EXAMPLES
@given(start=nonzero_ends, stop=nonzero_ends, num=st.integers(0, 9))
@example(start=0, stop=3, num=3)  # NumPy's ValueError: the sequence cannot include zero
@example(start=-1.0, stop=-1000.0, num=4)
@example(start=1, stop=-1000.0, num=4)  # log10 of a negative: NaN inside, ends kept
def test_geomspace_matches_numpy(start, stop, num: int) -> None:  # noqa: ANN001
    assert_same(geomspace_default, start, stop, num)
    assert_same(geomspace_open, start, stop, num)


# --- meshgrid -----------------------------------------------------------------------------------


def meshgrid_xy(x, y):
    return np.meshgrid(x, y)


def meshgrid_ij(x, y):
    return np.meshgrid(x, y, indexing="ij")


def meshgrid_three(x, y, z):
    return np.meshgrid(x, y, z), np.meshgrid(x, y, z, indexing="ij")


def meshgrid_one(x):
    return np.meshgrid(x)


@EXAMPLES
@given(x=plain_vectors("float64"), y=plain_vectors("int32"))
def test_meshgrid_matches_numpy(x: np.ndarray, y: np.ndarray) -> None:
    assert_same_arrays(meshgrid_xy, x, y)
    assert_same_arrays(meshgrid_ij, x, y)
    assert_same_arrays(meshgrid_one, x)


@FEW
@given(x=plain_vectors("float64"), y=plain_vectors("int32"), z=plain_vectors("uint8"))
def test_meshgrid_of_three_matches_numpy(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> None:
    assert_same_arrays(meshgrid_three, z, y, x)


# --- ascontiguousarray, asfortranarray ----------------------------------------------------------


def contiguous(a):
    return np.ascontiguousarray(a), np.asfortranarray(a)


def contiguous_writes_through(a):
    """Writes into the result reach `a` exactly when NumPy returned `a` itself."""
    c = np.ascontiguousarray(a)
    c += 1
    return c


def fortran_writes_through(a):
    f = np.asfortranarray(a)
    f += 1
    return f


def contiguous_of_number(x):
    return np.ascontiguousarray(x), np.asfortranarray(x)


def contiguous_of_0d_writes_through(a):
    c = np.ascontiguousarray(a)
    c[0] = 1
    return c


@EXAMPLES
@given(a=arrays(dtype="float64", min_dims=1, max_dims=3) | arrays(dtype="int32", max_dims=2))
@example(a=np.zeros((4, 1))[::2])  # contiguous although strided: a length-1 axis
@example(a=np.asfortranarray(np.zeros((3, 1))))
def test_contiguous_arrays_match_numpy(a: np.ndarray) -> None:
    assert_same_arrays(contiguous, a)


@EXAMPLES
@given(a=arrays(dtype="float64", min_dims=1, max_dims=3))
@example(a=np.zeros((4, 1))[::2])
@example(a=np.asfortranarray(np.zeros((3, 1))))
def test_contiguous_arrays_are_views_where_numpys_are(a: np.ndarray) -> None:
    assert_same_arrays(contiguous_writes_through, a)
    assert_same_arrays(fortran_writes_through, a)


@FEW
@given(x=st.one_of(st.integers(-3, 3), floats, st.booleans()))
def test_contiguous_of_numbers_and_0d_arrays(x) -> None:  # noqa: ANN001
    assert_same(contiguous_of_number, x)
    assert_same_arrays(contiguous_of_0d_writes_through, np.array(x))


# --- vander, rot90 ------------------------------------------------------------------------------


def vander_default(x):
    return np.vander(x)


def vander_n(x, n, increasing):
    return np.vander(x, n, increasing=increasing)


@EXAMPLES
@given(x=vectors(max_side=5), n=st.integers(-1, 5), increasing=st.booleans())
@example(x=np.array([INT64_MAX, INT64_MIN, 3]), n=4, increasing=False)  # powers wrap
@example(x=np.array([2**64 - 1], np.uint64), n=3, increasing=True)  # promoted to float64
def test_vander_matches_numpy(x: np.ndarray, n: int, increasing: bool) -> None:
    assert_same(vander_default, x)
    assert_same(vander_n, x, n, increasing)


@FEW
@given(x=complex_arrays())
def test_vander_of_complex_matches_numpy(x: np.ndarray) -> None:
    assert_same(vander_n, x, 3, True)


def vander_2d(x):
    return np.vander(x)


def test_vander_of_a_matrix_raises_numpys_value_error() -> None:
    assert_same(vander_2d, np.ones((2, 2)))


def rot_by(m, k):
    r = np.rot90(m, k)
    r += 1  # a view: the writes reach m (compared after the call)
    return r


def rot_strides(m, k):
    return np.rot90(m, k).strides, np.rot90(m, k, (-1, 0)).strides


def rot_constant(m):
    return np.rot90(m), np.rot90(m, 2), np.rot90(m, -1), np.rot90(m, 4), np.rot90(m, k=3)


def rot_axes(m, k):
    r = np.rot90(m, k, axes=(1, 0))
    r += 1
    return r


rot_k = st.one_of(st.integers(-9, 9), ints)


@EXAMPLES
@given(m=matrices("float64"), k=rot_k)
def test_rot90_matches_numpy(m: np.ndarray, k: int) -> None:
    assert_same_arrays(rot_by, m, k)
    assert_same_arrays(rot_axes, m, k)


@EXAMPLES
@given(m=arrays("int32", min_dims=2, max_dims=3), k=rot_k)
def test_rot90_views_have_numpys_strides(m: np.ndarray, k: int) -> None:
    assert_same_arrays(rot_by, m, k)
    if m.size:  # (an empty array's strides are not NumPy's: see jitcore/lib/layout.py)
        assert_same(rot_strides, m, k)


@EXAMPLES
@given(m=matrices("float64") | arrays("uint8", min_dims=3, max_dims=3))
def test_rot90_by_constants_matches_numpy(m: np.ndarray) -> None:
    assert_same_arrays(rot_constant, m)


def rot_vector(m):
    return np.rot90(m)


def test_rot90_of_a_vector_raises_numpys_value_error() -> None:
    assert_same(rot_vector, np.arange(3.0))


# --- sinc, divmod -------------------------------------------------------------------------------


def sinc(x):
    return np.sinc(x)


@EXAMPLES
@given(x=arrays(max_dims=2) | floats | st.integers(-5, 5) | st.sampled_from([INT64_MIN, True]))
@example(x=np.array([0.0, -0.0, 1.0, np.nan, np.inf], np.float32))
def test_sinc_matches_numpy(x) -> None:  # noqa: ANN001
    assert_same(sinc, x)


def divmod_(a, b):
    return np.divmod(a, b)


def divmod_scalar_array(a, b):
    return np.divmod(a, 3), np.divmod(-7.5, b)


@EXAMPLES
@given(
    a=arrays(dtype="int64", max_dims=2) | arrays(dtype="int8", max_dims=1),
    b=st.one_of(ints, st.just(0), st.just(-1)),
)
@example(a=np.array([INT64_MIN, 7, -7, 0]), b=-1)  # INT64_MIN // -1 wraps as NumPy's
@example(a=np.array([7, -7, 0]), b=0)  # 0 for ints, as NumPy (with its warning)
def test_divmod_of_ints_matches_numpy(a: np.ndarray, b: int) -> None:
    assert_same(divmod_, a, b)
    assert_same(divmod_, a, a[::-1])


@EXAMPLES
@given(a=arrays(dtype="int64", max_dims=1))
def test_divmod_of_numbers_and_arrays_matches_numpy(a: np.ndarray) -> None:
    assert_same(divmod_scalar_array, a, a)


@EXAMPLES
@given(a=arrays(dtype="float64", max_dims=2) | floats, b=floats)
@example(a=np.array([1.0, -1.0, 0.0, np.inf, 5.0, -5.0]), b=0.0)
@example(a=np.array([5.0, -5.0, np.inf]), b=math.inf)
def test_divmod_of_floats_matches_numpy(a, b: float) -> None:  # noqa: ANN001
    assert_same(divmod_, a, b)
    assert_same(divmod_, b, a)


@FEW
@given(a=st.one_of(ints, floats), b=st.one_of(ints, floats))
def test_divmod_of_numbers_matches_numpy(a, b) -> None:  # noqa: ANN001
    assert_same(divmod_, a, b)


# --- vdot, inner --------------------------------------------------------------------------------


def vdot(a, b):
    return np.vdot(a, b)


def inner(a, b):
    return np.inner(a, b)


exact_floats = arrays(dtype="float64", min_dims=1, max_dims=2).map(
    lambda a: np.where(np.isfinite(a), np.trunc(np.clip(a, -4, 4)), a)
)


@EXAMPLES
@given(a=exact_floats, data=st.data())
def test_vdot_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    b = laid_out(a.copy(), data.draw(st.sampled_from(["C", "reversed"])))
    assert_same(vdot, a, b)
    assert_same(vdot, a, b.T)  # same sizes, another order of items


@FEW
@given(a=exact_floats)
def test_inner_matches_numpy(a: np.ndarray) -> None:
    assert_same(inner, a, np.ascontiguousarray(a[::-1]))


def test_inner_of_mismatched_last_axes_raises_numpys_value_error() -> None:
    assert_same(inner, np.ones((2, 3)), np.ones((2, 1)))
    assert_same(inner, np.ones(3), np.ones((2, 2)))


@FEW
@given(a=arrays(dtype="int64", min_dims=1, max_dims=2))
def test_vdot_and_inner_of_ints_match_numpy(a: np.ndarray) -> None:
    assert_same(vdot, a, a)  # int64 products wrap
    assert_same(inner, a, a)


# (finite: BLAS's complex products of infinities are its own, NaN where C99's are not)
@FEW
@given(data=st.data(), shape=hnp.array_shapes(min_dims=1, max_dims=2, max_side=4))
def test_vdot_of_complex_matches_numpy(data: st.DataObject, shape: tuple) -> None:
    a = data.draw(complex_arrays(shape=shape, finite=True))
    b = data.draw(complex_arrays(shape=shape, finite=True))
    assert_same(vdot, a, b)  # conjugates a


@FEW
@given(data=st.data(), shape=hnp.array_shapes(min_dims=1, max_dims=2, max_side=4))
def test_inner_of_complex_matches_numpy(data: st.DataObject, shape: tuple) -> None:
    a = data.draw(complex_arrays(shape=shape, finite=True, dtype="complex64"))
    b = data.draw(complex_arrays(shape=shape, finite=True, layouts=("C",)))
    assert_same(inner, a, b)  # does not conjugate


def test_vdot_of_booleans_and_mismatched_sizes() -> None:
    assert_same(vdot, np.array([True, False]), np.array([True, True]))
    assert_same(vdot, np.arange(3.0), np.arange(4.0))


# --- polyval, trapezoid -------------------------------------------------------------------------


def polyval(p, x):
    return np.polyval(p, x)


@EXAMPLES
@given(
    p=vectors("float64", max_side=5) | vectors("int64", max_side=5),
    x=arrays(max_dims=2) | floats | st.integers(-3, 3),
)
@example(p=np.array([INT64_MAX, 2]), x=np.array([3, -1]))  # int64 wraps
@example(p=np.array([1.0, -0.0]), x=np.array([-2, 0]))  # 0 * x in x's dtype first
def test_polyval_matches_numpy(p: np.ndarray, x) -> None:  # noqa: ANN001
    if p.size == 0 and not (isinstance(x, np.ndarray) and np.result_type(p, x) == x.dtype):
        return  # documented: an empty p gives zeros of the result's dtype
    assert_same(polyval, p, x)


def trapezoid_dx(y, dx):
    return np.trapezoid(y), np.trapezoid(y, dx=dx)


def trapezoid_x(y, x):
    return np.trapezoid(y, x)


def trapezoid_int_dx(y):
    return np.trapezoid(y, dx=2), np.trapezoid(y, None, 1, -1)


@EXAMPLES
@given(y=vectors("float64", max_side=12) | vectors("int8") | vectors("bool"), dx=floats)
@example(y=np.array([], np.float64), dx=1.0)
@example(y=np.array([np.inf, -np.inf, 1.0]), dx=0.5)
def test_trapezoid_matches_numpy(y: np.ndarray, dx: float) -> None:
    assert_same(trapezoid_dx, y, dx)
    assert_same(trapezoid_int_dx, y)


@FEW
@given(
    y=vectors("float64", max_side=5),
    x=vectors("float64", max_side=5) | plain_vectors("int32") | vectors("bool", max_side=4),
)
@example(y=np.arange(5.0), x=np.array([0.0, 2.0]))  # one spacing for every step
@example(y=np.arange(2.0), x=np.arange(5.0))  # one step for every spacing
@example(y=np.arange(4.0), x=np.arange(3.0))  # NumPy's ValueError
def test_trapezoid_with_sample_points_matches_numpy(y: np.ndarray, x: np.ndarray) -> None:
    assert_same(trapezoid_x, y, x)


def test_trapz_is_gone_from_this_numpy() -> None:
    """np.trapz was removed in NumPy 2.4 (the venv's): nothing to compile."""
    assert not hasattr(np, "trapz")


# --- cov, corrcoef ------------------------------------------------------------------------------


def cov_all(m, ddof):
    return np.cov(m), np.cov(m, bias=True), np.cov(m, ddof=ddof), np.cov(m, rowvar=False)


def corrcoef_all(m):
    return np.corrcoef(m), np.corrcoef(m, rowvar=False)


stat_values = arrays(dtype="float64", min_dims=1, max_dims=2, max_side=5).map(
    lambda a: np.where(np.isfinite(a), np.round(np.clip(a, -9, 9), 1), a)
)


@EXAMPLES
@given(m=stat_values | arrays(dtype="int32", min_dims=1, max_dims=2), ddof=st.integers(-1, 6))
@example(m=np.zeros((0, 3)), ddof=1)
@example(m=np.arange(6.0).reshape(3, 2), ddof=5)  # no degrees of freedom left: inf scale
def test_cov_matches_numpy(m: np.ndarray, ddof: int) -> None:
    if m.ndim == 2 and 1 in m.shape:
        return  # documented: one variable gives a 1x1 array (NumPy: 0-d)
    # BLAS sums the products in its own order: equal to a small absolute tolerance
    assert_same(cov_all, m, ddof, ulps=64, atol=1e-9)


@EXAMPLES
@given(m=stat_values)
@example(m=np.array([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]]))  # a constant row: NaN
def test_corrcoef_matches_numpy(m: np.ndarray) -> None:
    if m.ndim == 2 and 1 in m.shape:
        return  # documented: one variable gives a 1x1 array (NumPy: a float)
    assert_same(corrcoef_all, m, ulps=64, atol=1e-9)


def cov_one_variable(m):
    return np.cov(m), np.corrcoef(m)


def test_cov_of_one_variable_in_a_matrix_is_1x1() -> None:
    m = np.array([[1.0, 2.0, 4.0]])
    c, r = jit(mode="compiled")(cov_one_variable)(m)
    assert c.shape == (1, 1) and c[0, 0] == np.cov(m)
    assert r.shape == (1, 1) and r[0, 0] == 1.0


# --- ndarray.fill, item, view -------------------------------------------------------------------


def fill(a, value):
    a.fill(value)


@EXAMPLES
@given(
    a=arrays(max_dims=3),
    value=st.one_of(ints, floats, st.booleans(), st.integers(-300, 300)),
)
@example(a=np.zeros(3, np.int8), value=300)  # OverflowError, as NumPy's fill
@example(a=np.zeros(3, np.int32), value=math.nan)  # ValueError
@example(a=np.zeros(3, np.int64), value=math.inf)  # OverflowError
def test_fill_matches_numpy(a: np.ndarray, value) -> None:  # noqa: ANN001
    assert_same_arrays(fill, a, value)


def fill_from_element(a, b):
    a.fill(b[0])


@FEW
@given(a=arrays(dtype="int8", max_dims=2), b=vectors("int64").filter(lambda v: v.size > 0))
def test_fill_with_a_numpy_int_checks_its_range(a: np.ndarray, b: np.ndarray) -> None:
    assert_same_arrays(fill_from_element, a, b)


def fill_complex(a, z):
    a.fill(z)


def test_fill_with_a_python_complex_raises_numpys_type_error() -> None:
    assert_same_arrays(fill_complex, np.zeros(2), 1 + 2j)
    assert_same_arrays(fill_complex, np.zeros(2, np.complex128), 1 + 2j)


def item(a):
    return a.item()


def item_at(a, i):
    return a.item(i)


@EXAMPLES
@given(a=arrays(max_dims=3, max_side=3), i=st.one_of(st.integers(-30, 30), ints))
@example(a=np.array([7], np.int8), i=0)
@example(a=np.zeros((0, 2)), i=0)  # IndexError, ValueError
def test_item_matches_numpy(a: np.ndarray, i: int) -> None:
    assert_same(item, a)
    assert_same(item_at, a, i)


@FEW
@given(a=complex_arrays())
def test_item_of_complex_matches_numpy(a: np.ndarray) -> None:
    assert_same(item_at, a, -1)


def test_item_of_a_big_uint64_is_out_of_the_compiled_domain() -> None:
    assert_same(item, np.array([7], np.uint64))
    with pytest.raises(OverflowError):
        jit(mode="compiled")(item)(np.array([2**64 - 1], np.uint64))


def views(a, b, c):
    return a.view(np.int64), a.view(np.uint64), b.view(np.float32), c.view(np.int8), a.view()


def view_writes_through(a):
    v = a.view(np.int64)
    v += 1
    return v


@EXAMPLES
@given(
    a=arrays(dtype="float64", max_dims=3),
    b=arrays(dtype="int32", max_dims=2),
    c=arrays(dtype="uint8", max_dims=2),
)
def test_view_matches_numpy(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> None:
    assert_same_arrays(views, a, b, c)
    assert_same_arrays(view_writes_through, a)


# --- .conjugate() and .conj() of numbers ---------------------------------------------------------


def conjugate(z):
    return z.conjugate()


def conjugate_elements(a):
    return a[0].conjugate(), a[0].conj(), a[0].real.conjugate()


@EXAMPLES
@given(z=st.one_of(st.complex_numbers(), floats, st.integers(-9, 9), st.booleans(), ints))
def test_conjugate_of_python_numbers_matches_python(z) -> None:  # noqa: ANN001
    assert_same(conjugate, z)


@FEW
@given(a=complex_arrays().filter(lambda a: a.size > 0) | vectors("float32").filter(len))
def test_conjugate_of_numpy_scalars_matches_numpy(a: np.ndarray) -> None:
    assert_same(conjugate_elements, a)


# --- what is refused -----------------------------------------------------------------------------


def logspace_dtype(n):
    return np.logspace(0, 1, n, dtype=np.float32)


def meshgrid_2d(a):
    return np.meshgrid(a, a)


def meshgrid_sparse(a):
    return np.meshgrid(a, a, sparse=True)


def view_other_size(a):
    return a.view(np.int32)


def cov_with_y(a):
    return np.cov(a, a)


def inner_3d(a):
    return np.inner(a, a)


def trapezoid_2d(a):
    return np.trapezoid(a)


def sinc_complex(z):
    return np.sinc(z)


@pytest.mark.parametrize(
    ("f", "arg", "words"),
    [
        (logspace_dtype, 3, "dtype argument is not supported"),
        (meshgrid_2d, np.ones((2, 2)), "1-D arrays"),
        (meshgrid_sparse, np.ones(2), "sparse=False"),
        (view_other_size, np.ones(2), "differ in size"),
        (cov_with_y, np.ones(2), "y argument is not supported"),
        (inner_3d, np.ones((2, 2, 2)), "1-D and 2-D"),
        (trapezoid_2d, np.ones((2, 2)), "1-D y"),
        (sinc_complex, 1j, "real numbers"),
    ],
)
def test_unsupported_forms_are_typing_errors_in_plain_words(f, arg, words: str) -> None:  # noqa: ANN001
    with pytest.raises(TypingError) as info:
        jit(mode="compiled")(f)(arg)
    text = str(info.value)
    assert words in text
    assert "hint:" in text or "np." in text
    for ast_name in ("ast.", "Call", "Attribute", "Name(", "Constant"):
        assert ast_name not in text
