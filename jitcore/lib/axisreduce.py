"""Reductions over axes that leave the last axis (`np.sum(a, axis=0)`, `a.max(axis=(0, 1))`,
`a.mean(axis=1, keepdims=True)`, ...) without a copy.

`nprows` brings any axis reduction down to rows of a C-contiguous copy with the reduced axes
last; for the first axis of an array that means a transposing copy, which for a column sum of a
large matrix costs far more than the sum (25x Numba's time, issue 17). Here the result instead
starts as the sub-array at the first reduced index (converted to the accumulator's dtype) and
each further sub-array, in C order of the reduced indices, is combined into it by one
elementwise pass over a view: memory is read in its own order, nothing is copied, and the loops
vectorize along the last axis.

This is also NumPy's own order for these reductions: when the last axis is not reduced (it has
the smallest stride), NumPy's iterator keeps it innermost and accumulates sub-array by
sub-array (`out += a[i, j]`), so each result element is a sequential sum of its elements in C
order, and sums and products agree with NumPy bit for bit. (The rows kernels instead sum
pairwise along a row, as NumPy does when the reduced axis is the innermost one.)
"""

from __future__ import annotations

from collections.abc import Callable

from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.lib import layout as L
from jitcore.lib import scalar
from jitcore.lib.loops import elementwise

# name -> (elementwise combination, identity for an empty axis: a value or None for an error)
_COMBINE: dict[str, tuple[str, object]] = {
    "sum": ("add", 0),
    "mean": ("add", 0),
    "prod": ("mul", 1),
    "min": ("minimum", None),
    "max": ("maximum", None),
    "amin": ("minimum", None),
    "amax": ("maximum", None),
    "any": ("or", False),
    "all": ("and", True),
    "var": ("add", 0),  # two passes: the mean, then the squared deviations (`_variance`)
    "std": ("add", 0),
}


def applies(name: str, t: T.Array, axes: list[int] | None) -> bool:
    """Whether a reduction of `t` over `axes` is one this module does: some axes, but not the
    last one, of an array of 2 or more dimensions; no complex min/max (NumPy orders them
    oddly)."""
    if axes is None or not axes or t.ndim - 1 in axes or name not in _COMBINE:
        return False
    return not (t.dtype.is_complex and name in {"min", "max", "amin", "amax"})


def reduce_outer_axes(
    b: LowBuilder,
    a: ir.Value,
    axes: list[int],
    keepdims: bool,
    name: str,
    acc: T.Scalar,
    out_dtype: T.Scalar,
    empty_error: str,
    ddof: ir.Value | None = None,
) -> ir.Value:
    """`a` reduced over `axes` (sorted, without the last axis): a new C array of the kept axes'
    shape, viewed with 1 at the reduced axes under `keepdims` (see the module docstring).
    `acc` is the dtype the reduction computes in (var's and std's mean: float64 for ints);
    `ddof` is var's and std's (an i64)."""
    t = a.type
    assert isinstance(t, T.Array)
    op, identity = _COMBINE[name]
    shapes = L.shapes_of(b, a)
    kept = [k for k in range(t.ndim) if k not in axes]
    n = L.size_of(b, [shapes[k] for k in axes])  # elements combined into each result element
    if name in {"var", "std"}:
        out = _variance(b, a, axes, n, acc, out_dtype, name == "std", ddof or i64(0))
        return _kept_view(b, out, t.ndim, axes, shapes, out_dtype) if keepdims else out
    out = L.allocate(b, out_dtype, [shapes[k] for k in kept], "C")
    if identity is None:
        b.raise_if(b.cmp("eq", n, i64(0)), ValueError, empty_error)
    sub = _sub_arrays(b, a, axes)
    element = _element(op, out_dtype)
    if identity is None:  # min, max: from the first sub-array (the axes are not empty)
        elementwise(b, [sub(i64(0))], out_dtype, lambda bb, xs: xs[0], out=out)
        first: ir.Value = i64(1)
    else:  # from the identity, as NumPy (0 + -0.0 is 0.0)
        value = ir.Const(identity, type=out_dtype)
        elementwise(b, [], out_dtype, lambda bb, xs: value, out=out)
        first = i64(0)
    loop = Loop(b, first, n)
    elementwise(
        b, [out, sub(loop.index)], out_dtype, lambda bb, xs: element(bb, xs[0], xs[1]), out=out
    )
    loop.finish()
    if name == "mean":
        elementwise(b, [out], out_dtype, lambda bb, xs: _by_count(bb, xs[0], n), out=out)
    return _kept_view(b, out, t.ndim, axes, shapes, out_dtype) if keepdims else out


def _sub_arrays(b: LowBuilder, a: ir.Value, axes: list[int]) -> Callable[[ir.Value], ir.Value]:
    """The sub-array of `a` at the `index`-th combination of the reduced indices, in C order
    (the last reduced axis varies fastest): a view over the kept axes."""
    t = a.type
    assert isinstance(t, T.Array)
    shapes, strides, data = L.shapes_of(b, a), L.strides_of(b, a), L.data_of(b, a)
    kept = [k for k in range(t.ndim) if k not in axes]
    sub_t = T.Array(t.dtype, len(kept), "A")

    def sub(index: ir.Value) -> ir.Value:
        offset: ir.Value = i64(0)
        for k in reversed(axes[1:]):
            offset = b.binop(
                "add", offset, b.binop("mul", b.binop("trem", index, shapes[k]), strides[k])
            )
            index = b.binop("tdiv", index, shapes[k])
        offset = b.binop("add", offset, b.binop("mul", index, strides[axes[0]]))
        start = b.ptr_add(data, offset)
        return L.make_view(
            b, a, sub_t, start, [shapes[k] for k in kept], [strides[k] for k in kept]
        )

    return sub


def _kept_view(
    b: LowBuilder,
    out: ir.Value,
    ndim: int,
    axes: list[int],
    shapes: list[ir.Value],
    dtype: T.Scalar,
) -> ir.Value:
    """`out` (the kept axes' C array) viewed with a 1 at each reduced axis (`keepdims`)."""
    kept_shapes = iter([shapes[k] for k in range(ndim) if k not in axes])
    dims = [i64(1) if k in axes else next(kept_shapes) for k in range(ndim)]
    strides_c = L.contiguous_strides(b, dims, dtype.dtype.itemsize, "C")
    return L.make_view(b, out, T.Array(dtype, ndim, "C"), L.data_of(b, out), dims, strides_c)


def _by_count(b: LowBuilder, x: ir.Value, n: ir.Value) -> ir.Value:
    """x / n as NumPy's mean divides: by an intp count, so a float32 quotient is the float64
    one rounded (the same as float32 division), and a complex64 one is complex128 division
    rounded back (NumPy's complex division multiplies by 1/n)."""
    t = x.type
    assert isinstance(t, T.Scalar)
    if not t.is_complex:
        return b.binop("div", x, b.cast(n, t))
    wide = b.cast(x, T.C128)
    quotient = scalar.numpy_complex_div(b, wide, b.cast(n, T.C128))
    return b.cast(quotient, t)


def _variance(
    b: LowBuilder,
    a: ir.Value,
    axes: list[int],
    n: ir.Value,
    acc: T.Scalar,
    out_dtype: T.Scalar,
    root: bool,
    ddof: ir.Value,
) -> ir.Value:
    """NumPy's var (std with `root`) over `axes`, in its order: the mean (`acc`: the items'
    float or complex dtype, float64 for ints) as the sum of the sub-arrays over n, then the
    sum of the sub-arrays' squared deviations (|d|**2 for complex items, real) over
    max(n - ddof, 0)."""
    t = a.type
    assert isinstance(t, T.Array)
    shapes = L.shapes_of(b, a)
    kept_shapes = [shapes[k] for k in range(t.ndim) if k not in axes]
    sub = _sub_arrays(b, a, axes)
    mean = L.allocate(b, acc, kept_shapes, "C")
    zero = ir.Const(0, type=acc)
    elementwise(b, [], acc, lambda bb, xs: zero, out=mean)
    loop = Loop(b, i64(0), n)
    add = lambda bb, xs: bb.binop("add", xs[0], bb.cast(xs[1], acc))  # noqa: E731
    elementwise(b, [mean, sub(loop.index)], acc, add, out=mean)
    loop.finish()
    elementwise(b, [mean], acc, lambda bb, xs: _by_count(bb, xs[0], n), out=mean)

    def squared_deviation(bb: LowBuilder, x: ir.Value, m: ir.Value) -> ir.Value:
        d = bb.binop("sub", bb.cast(x, acc), m)
        if not acc.is_complex:
            return bb.binop("mul", d, d)
        re, im = bb.real(d), bb.imag(d)
        return bb.binop("add", bb.binop("mul", re, re), bb.binop("mul", im, im))

    out = L.allocate(b, out_dtype, kept_shapes, "C")
    real_zero = ir.Const(0, type=out_dtype)
    elementwise(b, [], out_dtype, lambda bb, xs: real_zero, out=out)
    loop = Loop(b, i64(0), n)
    accumulate = lambda bb, xs: bb.binop("add", xs[0], squared_deviation(bb, xs[1], xs[2]))  # noqa: E731
    elementwise(b, [out, sub(loop.index), mean], out_dtype, accumulate, out=out)
    loop.finish()
    dof = b.cast(b.select(b.cmp("gt", n, ddof), b.binop("sub", n, ddof), i64(0)), out_dtype)
    if root:
        finish = lambda bb, xs: bb.intrinsic("sqrt", [bb.binop("div", xs[0], dof)], out_dtype)  # noqa: E731
    else:
        finish = lambda bb, xs: bb.binop("div", xs[0], dof)  # noqa: E731
    elementwise(b, [out], out_dtype, finish, out=out)
    return out


def _element(op: str, dtype: T.Scalar) -> Callable[[LowBuilder, ir.Value, ir.Value], ir.Value]:
    """`acc op x` for one element, `x` converted to the accumulator's dtype first."""
    if op in {"or", "and"}:
        return lambda b, acc, x: b.binop(op, acc, scalar.truth(b, x))
    if op in {"minimum", "maximum"}:
        return lambda b, acc, x: scalar.extreme(b, op, acc, b.cast(x, dtype))
    if dtype.is_bool:  # a bool product (sums of bools count in int64)
        return lambda b, acc, x: b.binop("and", acc, b.cast(x, dtype))
    return lambda b, acc, x: b.binop(op, acc, b.cast(x, dtype))
