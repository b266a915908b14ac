"""Reductions along the first axis (`np.sum(a, axis=0)`, `a.max(axis=0)`, ...) without a copy.

`nprows` brings any axis reduction down to rows of a C-contiguous copy with the reduced axis
last; for the first axis of an array that means a transposing copy, which for a column sum of a
large matrix costs far more than the sum (25x Numba's time, issue 17). Here the result instead
starts as the first sub-array `a[0]` (converted to the accumulator's dtype) and each further
`a[i]` is combined into it by one elementwise pass over a view: memory is read in its own
order, nothing is copied, and the loops vectorize along the last axis.

This is also NumPy's own order for these reductions: when the reduced axis is not the one
with the smallest stride, NumPy accumulates sub-array by sub-array (`out += a[i]`), so sums and
products agree with NumPy bit for bit (the rows kernels sum pairwise along the row).
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
}


def applies(name: str, t: T.Array, axes: list[int] | None, acc: T.Scalar) -> bool:
    """Whether a reduction of `t` over `axes` is one this module does (the first axis only,
    of an array of 2 or more dimensions; no complex min/max, which NumPy orders oddly)."""
    if axes != [0] or t.ndim < 2 or name not in _COMBINE:
        return False
    return not (acc.is_complex and name not in {"sum", "prod", "any", "all"})


def reduce_first_axis(
    b: LowBuilder, a: ir.Value, name: str, acc: T.Scalar, out_dtype: T.Scalar, empty_error: str
) -> ir.Value:
    """`a` reduced over axis 0: a new C array of the other axes' shape (see the docstring)."""
    t = a.type
    assert isinstance(t, T.Array)
    op, identity = _COMBINE[name]
    shapes, strides = L.shapes_of(b, a), L.strides_of(b, a)
    n, rest = shapes[0], shapes[1:]
    out = L.allocate(b, out_dtype, rest, "C")
    if identity is None:
        b.raise_if(b.cmp("eq", n, i64(0)), ValueError, empty_error)
    data = L.data_of(b, a)
    sub_t = T.Array(t.dtype, t.ndim - 1, "A")

    def sub(index: ir.Value) -> ir.Value:
        start = b.ptr_add(data, b.binop("mul", index, strides[0]))
        return L.make_view(b, a, sub_t, start, rest, strides[1:])

    element = _element(op, out_dtype)
    if identity is None:  # min, max: from the first sub-array (the axis is not empty)
        elementwise(b, [sub(i64(0))], out_dtype, lambda bb, xs: xs[0], out=out)
        start: ir.Value = i64(1)
    else:  # from the identity, as NumPy (0 + -0.0 is 0.0)
        value = ir.Const(identity, type=out_dtype)
        elementwise(b, [], out_dtype, lambda bb, xs: value, out=out)
        start = i64(0)
    loop = Loop(b, start, n)
    elementwise(
        b, [out, sub(loop.index)], out_dtype, lambda bb, xs: element(bb, xs[0], xs[1]), out=out
    )
    loop.finish()
    if name == "mean":
        count = b.cast(n, out_dtype)
        elementwise(b, [out], out_dtype, lambda bb, xs: bb.binop("div", xs[0], count), out=out)
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
