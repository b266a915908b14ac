"""`np.linalg.norm`, natively: vector norms of any `ord` along an axis of any ndim (or of the
flattened array), and the matrix norms (1, -1, inf, -inf, 'fro'; 2, -2 and 'nuc' from singular
values, `npextrak`) of 2-D arrays and over any two axes (in NumPy's order: `axis=(1, 0)` is
the norm of the transpose) of N-D ones.

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
from jitcore.lib import lapack, npextrak
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
def matrix_norm(a, rows_, cols, code, space, work):  # noqa: ANN001, ANN201
    """The norm of a (rows_, cols) C matrix given flat as `a`: code 1 max column sum, -1 min
    column sum, 2 max row sum, -2 min row sum (of |x|); column sums add rows in order, row
    sums pairwise (NumPy's add.reduce along each axis). `space` holds rows_ + cols sums,
    `work` one row."""
    if code == 1 or code == -1:
        sums = space[:cols]
        for j in range(cols):
            sums[j] = 0
        for i in range(rows_):
            for j in range(cols):
                sums[j] += abs(a[i * cols + j])
    else:
        sums = space[:rows_]
        for i in range(rows_):
            for j in range(cols):
                work[j] = abs(a[i * cols + j])
            sums[i] = pairwise_sum(work, 0, cols)
    if code > 0:
        m = a.dtype.type(0)  # NumPy's initial=0
        for k in range(sums.shape[0]):
            if sums[k] > m or sums[k] != sums[k]:
                m = sums[k]
        return m
    m = sums[0]
    for k in range(1, sums.shape[0]):
        if sums[k] < m or sums[k] != sums[k]:
            m = sums[k]
    return m


@_lib
def matrix_norm_rows(a, rows_, cols, code, out, space, work):  # noqa: ANN001, ANN201
    """`matrix_norm` of each row of `a`, a (rows_, cols) matrix, into `out`. A minimum over
    no sums raises before any matrix is looked at: NumPy's `min` of an empty axis raises
    even when the result (no matrices) is empty."""
    if (code == -1 and cols == 0) or (code == -2 and rows_ == 0):
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    for r in range(a.shape[0]):
        out[r] = matrix_norm(a[r], rows_, cols, code, space, work)
    return out


# --- the rule -------------------------------------------------------------------------------

_VECTOR_CODES = {math.inf: 1, -math.inf: 2, 0: 3, 1: 4, 2: 0}
_MATRIX_CODES = {1: 1, -1: -1, math.inf: 2, -math.inf: -2}


@register_function(
    np.linalg.norm,
    params="x: array, ord?: const, axis?: axis | tuple | None, keepdims?: bool",
    listed_as="np.linalg.norm",
    notes="ord 2, -2 and 'nuc' of matrices through SciPy's LAPACK (?gesdd); the 2-norm of a "
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
        pair = _matrix_pair(ops["axis"], t.ndim)
        return _matrix_norm(args, kwargs, t, dtype, order, pair, keepdims)
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
    pair: tuple[int, int],
    keepdims: bool,
) -> Resolved:
    """The matrix norm over the axes `pair` (row axis, column axis) of an array of any ndim:
    the two axes are moved last in increasing order, so that each matrix is one row of a 2-D
    C array, and the kernel sums along whichever of them is the row axis."""
    axes = sorted(pair)
    vec = T.Array(dtype, 1, "C")
    if order in (2, -2, "nuc"):  # of the singular values (either order of the axes has them)
        lapack._check_available(f"np.linalg.norm(ord={order!r}) of a matrix")
        k = call_kernel(
            npextrak.svd_norm_rows,
            [T.Array(dtype, 2, "C"), T.I64, T.I64, T.I64, vec, T.Array(T.F64, 1, "C")],
        )
        code = {2: 2, -2: -2, "nuc": 0}[order]  # type: ignore[index]

        def lower_svd(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            r = rows(b, v[0], axes, dtype)
            out = L.allocate(b, dtype, [r.count], "C")
            work = L.allocate(b, T.F64, [i64(0)], "C")
            k.lower(b, [r.rows, *r.along, i64(code), out, work], {})  # type: ignore[misc]
            return unrows_reduced(b, out, r, t.ndim, axes, keepdims)

        return Resolved(
            (None,) * len(args),
            reduced_type(dtype, t.ndim, axes, keepdims),
            lower_svd,
            kwargs=dict.fromkeys(kwargs),
            may_raise=True,
        )
    if order in (None, "fro", "f"):
        # the Frobenius norm: the two-norm of each matrix's items
        k = call_kernel(vector_norm_rows, [T.Array(dtype, 2, "C"), vec, T.I64, dtype, vec])
        code = 0
    elif order in _MATRIX_CODES:
        k = call_kernel(
            matrix_norm_rows, [T.Array(dtype, 2, "C"), T.I64, T.I64, T.I64, vec, vec, vec]
        )
        code = _matrix_code(order, pair)
    else:
        raise TypingError("np.linalg.norm: invalid norm order for matrices")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        r = rows(b, v[0], axes, dtype)
        out = L.allocate(b, dtype, [r.count], "C")
        if code == 0:
            work = L.allocate(b, dtype, [r.length], "C")
            k.lower(b, [r.rows, out, i64(0), ir.Const(0.0, type=dtype), work], {})  # type: ignore[misc]
        else:
            nrows, ncols = r.along
            space = L.allocate(b, dtype, [b.binop("add", nrows, ncols)], "C")
            work = L.allocate(b, dtype, [ncols], "C")
            k.lower(b, [r.rows, nrows, ncols, i64(code), out, space, work], {})  # type: ignore[misc]
        return unrows_reduced(b, out, r, t.ndim, axes, keepdims)

    return Resolved(
        (None,) * len(args),
        reduced_type(dtype, t.ndim, axes, keepdims),
        lower,
        kwargs=dict.fromkeys(kwargs),
        may_raise=True,
    )


def _matrix_code(order: object, pair: tuple[int, int]) -> int:
    """The kernel's code for `order` over the axes `pair`. The kernel sees the two axes in
    increasing order; NumPy sums over the row axis (pair[0]) for ord 1 and -1 and over the
    column axis for inf and -inf, so a row axis after the column axis swaps column sums (1,
    -1) for row sums (2, -2) and back."""
    code = _MATRIX_CODES[order]  # type: ignore[index]
    if pair[0] > pair[1]:
        code = {1: 2, 2: 1, -1: -2, -2: -1}[code]
    return code


def _matrix_pair(op: Operand | None, ndim: int) -> tuple[int, int]:
    """(row axis, column axis) of a 2-tuple `axis=` as given, normalized but not sorted
    (`axes_arg` sorts them and has checked them); (0, 1) without one."""
    if op is None or not op.is_const or not isinstance(op.const, tuple):
        return (0, 1)
    row, col = op.const
    return (row % ndim, col % ndim)
