"""`np.linalg.norm`, natively: vector norms of any `ord` along an axis of any ndim (or of the
flattened array), and the matrix norms of 2-D arrays that need no SVD (1, -1, inf, -inf, 'fro').

Integer and boolean arrays are converted to float64 first, as NumPy does. The kernels below are
library kernels (plain Python compiled by jitcore) working on 2-D rows (`nprows`).
"""

from __future__ import annotations

import math

import numpy as np

from jitcore.errors import TypingError, UnsupportedError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import layout as L
from jitcore.lib.npkernels import pairwise_sum
from jitcore.lib.nprows import axes_arg, const_flag, reduced_type, rows, take_args, unrows_reduced
from jitcore.lib.registry import Operand, Resolved, call_kernel, register_function
from jitcore.lib.registry import library_kernel as _lib

# --- kernels ------------------------------------------------------------------------------


@_lib
def vector_norm_rows(a, out, code, p, work):  # noqa: ANN001, ANN201
    """Each row's norm: code 0 two-norm, 1 max |x|, 2 min |x|, 3 count of non-zeros,
    4 sum |x|, 5 (sum |x|**p)**(1/p). Sums are pairwise, as NumPy's add.reduce."""
    n = a.shape[1]
    if code == 2 and n == 0:
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    for r in range(a.shape[0]):
        row = a[r]
        if code == 1:
            m = out.dtype.type(0)
            for i in range(n):
                x = abs(row[i])
                if x > m or x != x:
                    m = x
                if m != m:
                    break
            out[r] = m
        elif code == 2:
            m = abs(row[0])
            for i in range(1, n):
                x = abs(row[i])
                if x < m or x != x:
                    m = x
                if m != m:
                    break
            out[r] = m
        elif code == 3:
            c = out.dtype.type(0)
            for i in range(n):
                if row[i] != 0:
                    c += 1
            out[r] = c
        else:
            for i in range(n):
                x = row[i]
                if code == 0:
                    work[i] = x * x
                elif code == 4:
                    work[i] = abs(x)
                else:
                    work[i] = abs(x) ** p
            s = pairwise_sum(work, 0, n)
            if code == 0:
                out[r] = np.sqrt(s)
            elif code == 4:
                out[r] = s
            else:
                out[r] = s ** (out.dtype.type(1) / p)
    return out


@_lib
def matrix_norm(a, code, space, work):  # noqa: ANN001, ANN201
    """Norms of a 2-D C array: code 1 max column sum, -1 min column sum, 2 max row sum,
    -2 min row sum (of |x|); column sums add rows in order, row sums pairwise (NumPy's
    add.reduce along each axis). `space` holds rows + cols sums, `work` one row."""
    rows_, cols = a.shape
    if code == 1 or code == -1:
        sums = space[:cols]
        for j in range(cols):
            sums[j] = 0
        for i in range(rows_):
            for j in range(cols):
                sums[j] += abs(a[i, j])
    else:
        sums = space[:rows_]
        for i in range(rows_):
            for j in range(cols):
                work[j] = abs(a[i, j])
            sums[i] = pairwise_sum(work, 0, cols)
    if code > 0:
        m = a.dtype.type(0)  # NumPy's initial=0
        for k in range(sums.shape[0]):
            if sums[k] > m or sums[k] != sums[k]:
                m = sums[k]
        return m
    if sums.shape[0] == 0:
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    m = sums[0]
    for k in range(1, sums.shape[0]):
        if sums[k] < m or sums[k] != sums[k]:
            m = sums[k]
    return m


# --- the rule -------------------------------------------------------------------------------

_VECTOR_CODES = {math.inf: 1, -math.inf: 2, 0: 3, 1: 4, 2: 0}
_MATRIX_CODES = {1: 1, -1: -1, math.inf: 2, -math.inf: -2}


@register_function(
    np.linalg.norm,
    params="x: array, ord?: const, axis?: axis | tuple | None, keepdims?: bool",
    listed_as="np.linalg.norm",
    notes="ord 2, -2 and 'nuc' of matrices need an SVD: not supported; the 2-norm of a "
    "flattened array sums squares pairwise where NumPy calls BLAS dot (rounding may differ)",
)
def _norm(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if not args or not isinstance(args[0].type, T.Array):
        raise TypingError("np.linalg.norm needs an array")
    t = args[0].type
    if t.dtype.is_complex:
        raise UnsupportedError("np.linalg.norm of complex arrays is not supported")
    ops = take_args(args, kwargs, ["ord", "axis", "keepdims"], "np.linalg.norm")
    ord_op = ops["ord"]
    if ord_op is not None and not ord_op.is_const:
        raise TypingError("np.linalg.norm: ord must be a constant")
    order = None if ord_op is None else ord_op.const
    keepdims = const_flag(ops["keepdims"], "keepdims")
    dtype = t.dtype if t.dtype.is_float else T.F64
    axes = axes_arg(ops["axis"], t.ndim, "np.linalg.norm")
    matrix = (axes is None and t.ndim == 2 and order is not None) or (
        axes is not None and len(axes) == 2
    )
    if matrix:
        return _matrix_norm(args, kwargs, t, dtype, order, axes, keepdims)
    if axes is not None and len(axes) > 2:
        raise TypingError("np.linalg.norm: improper number of dimensions to norm")
    if axes is None and order is not None and not (order == 2 and t.ndim == 1):
        if t.ndim != 1:
            raise TypingError("np.linalg.norm: improper number of dimensions to norm")
    if isinstance(order, str):
        raise TypingError(f"np.linalg.norm: invalid norm order {order!r} for vectors")
    if order is not None and not isinstance(order, int | float):
        raise TypingError("np.linalg.norm: ord must be a number")
    code = 0 if order is None else _VECTOR_CODES.get(order, 5)
    p = 0.0 if code != 5 else float(order)  # type: ignore[arg-type]
    k = call_kernel(
        vector_norm_rows,
        [T.Array(dtype, 2, "C"), T.Array(dtype, 1, "C"), T.I64, dtype, T.Array(dtype, 1, "C")],
    )

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r = rows(b, v[0], axes, dtype)
        out = L.allocate(b, dtype, [r.count], "C")
        work = L.allocate(b, dtype, [r.length], "C")
        k.lower(b, [r.rows, out, i64(code), ir.Const(p, type=dtype), work], {})  # type: ignore[misc]
        return unrows_reduced(b, out, r, t.ndim, axes, keepdims)

    return Resolved(
        (None,) * len(args),
        reduced_type(dtype, t.ndim, axes, keepdims),
        lower,
        kwargs=dict.fromkeys(kwargs),
        may_raise=True,
    )


def _matrix_norm(
    args: list[Operand],
    kwargs: dict[str, Operand],
    t: T.Array,
    dtype: T.Scalar,
    order: object,
    axes: list[int] | None,
    keepdims: bool,
) -> Resolved:
    if t.ndim != 2 or (axes is not None and sorted(axes) != [0, 1]):
        raise UnsupportedError("np.linalg.norm: matrix norms are supported for 2-D arrays")
    if order in (2, -2, "nuc"):
        raise UnsupportedError(
            f"np.linalg.norm(ord={order!r}) of a matrix needs singular values (an SVD), "
            "which compiled code does not compute"
        )
    if order in (None, "fro", "f"):
        # the Frobenius norm: the two-norm of all the items
        k = call_kernel(
            vector_norm_rows,
            [T.Array(dtype, 2, "C"), T.Array(dtype, 1, "C"), T.I64, dtype, T.Array(dtype, 1, "C")],
        )
        code = 0
    elif order in _MATRIX_CODES:
        vec = T.Array(dtype, 1, "C")
        k = call_kernel(matrix_norm, [T.Array(dtype, 2, "C"), T.I64, vec, vec])
        code = _MATRIX_CODES[order]  # type: ignore[index]
    else:
        raise TypingError("np.linalg.norm: invalid norm order for matrices")
    result: T.Type = T.Array(dtype, 2, "C") if keepdims else dtype

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        if code == 0 and order in (None, "fro", "f"):
            r = rows(b, v[0], None, dtype)
            out = L.allocate(b, dtype, [i64(1)], "C")
            work = L.allocate(b, dtype, [r.length], "C")
            k.lower(b, [r.rows, out, i64(0), ir.Const(0.0, type=dtype), work], {})  # type: ignore[misc]
            value = L.load(b, L.data_of(b, out), dtype)
        else:
            r = rows(b, v[0], [0, 1], dtype)
            shapes = L.shapes_of(b, v[0])
            size = i64(dtype.dtype.itemsize)
            m2 = L.make_view(
                b,
                r.rows,
                T.Array(dtype, 2, "C"),
                L.data_of(b, r.rows),
                shapes,
                [b.binop("mul", shapes[1], size), size],
            )
            space = L.allocate(b, dtype, [b.binop("add", shapes[0], shapes[1])], "C")
            work = L.allocate(b, dtype, [shapes[1]], "C")
            value = k.lower(b, [m2, i64(code), space, work], {})  # type: ignore[misc]
        if not keepdims:
            return value
        out = L.allocate(b, dtype, [i64(1), i64(1)], "C")
        L.store(b, L.data_of(b, out), value)
        return out

    return Resolved(
        (None,) * len(args), result, lower, kwargs=dict.fromkeys(kwargs), may_raise=True
    )
