"""`@`, `np.matmul`, `np.dot` and `ndarray.dot`: through BLAS when SciPy is installed.

For float32, float64, complex64 and complex128 results, and SciPy importable (the optional
extra `jitcore[linalg]`), 2-D products call `?gemm`, matrix-vector products `?gemv` and real
vector dot products `?dot` of SciPy's BLAS (`blas`). BLAS takes a matrix as it is when one of
its axes has unit stride, row-major or column-major, so a transposed (Fortran-ordered) operand
or a slice of rows or columns is passed with the transpose flag and its leading dimension,
never copied; only other strides (a step along both axes, negative or zero strides) are
copied first. Integer and boolean products, and everything when SciPy is missing, run the
blocked kernels of `npkernels` on C-contiguous copies (booleans as int64, then `!= 0`).

Shapes follow NumPy: `matmul` (and `@`) takes 1-D and 2-D operands and stacks of matrices
(ndim > 2, broadcast over the leading axes: each item of the stack is one product); `dot`
of N-D operands sums over a's last axis and b's second-to-last (one 2-D product). Operands
are converted to the result dtype first (`np.result_type`); the result is C-contiguous, as
NumPy's.
"""

from __future__ import annotations

import numpy as np

from jitcore.errors import SourceLoc, TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import arrays as A
from jitcore.lib import blas
from jitcore.lib import layout as L
from jitcore.lib import shapes as S
from jitcore.lib.loops import elementwise
from jitcore.lib.npkernels import dot_mm, dot_mv, dot_vm, dot_vv
from jitcore.lib.registry import (
    Operand,
    Resolved,
    call_kernel,
    register_function,
    register_method,
)
from jitcore.lib.registry import library_kernel as _lib

INT32_MAX = blas.INT32_MAX
NOTRANS, TRANS = 78, 84  # 'N', 'T'

# --- kernels (plain Python compiled by jitcore) ----------------------------------------------


@_lib
def blas_layout(rows, cols, s0, s1, e):  # noqa: ANN001, ANN201
    """How BLAS can take a rows x cols matrix of strides (s0, s1) and item size e as it is:
    (0, ld) row-major, (1, ld) column-major (ld: the leading dimension, in items), or (-1, 0)
    when neither (it must be copied). Plain ints, so one compiled signature serves all
    arrays (a group with one kernel twice is not cached)."""
    if (cols <= 1 or s1 == e) and (
        rows <= 1 or (s0 % e == 0 and s0 >= cols * e and s0 // e <= INT32_MAX)
    ):
        return 0, max(cols, 1) if rows <= 1 else s0 // e
    if (rows <= 1 or s0 == e) and (
        cols <= 1 or (s1 % e == 0 and s1 >= rows * e and s1 // e <= INT32_MAX)
    ):
        return 1, max(rows, 1) if cols <= 1 else s1 // e
    return -1, 0


@_lib
def blas_inc(n, s, e):  # noqa: ANN001, ANN201
    """The BLAS increment of a vector of n items, stride s and item size e as it is, or 0
    when it must be copied."""
    if n <= 1:
        return 1
    if s > 0 and s % e == 0 and s // e <= INT32_MAX:
        return s // e
    return 0


@_lib
def matmul_mm(a, b, out):  # noqa: ANN001, ANN201
    """out = a @ b through ?gemm: out (m x n) row-major is out^T column-major, = b^T a^T."""
    m, k = a.shape
    n = b.shape[1]
    if m == 0 or n == 0:
        return out
    if k == 0:
        for i in range(m):
            for j in range(n):
                out[i, j] = 0
        return out
    if m > INT32_MAX or n > INT32_MAX or k > INT32_MAX:
        return dot_mm(a.copy(), b.copy(), out)
    ta, lda = blas_layout(m, k, a.strides[0], a.strides[1], a.itemsize)
    if ta < 0:
        a = a.copy()
        ta, lda = 0, k
    tb, ldb = blas_layout(k, n, b.strides[0], b.strides[1], b.itemsize)
    if tb < 0:
        b = b.copy()
        tb, ldb = 0, n
    # a row-major operand is its transpose to column-major BLAS: 'N' takes that transpose
    blas.gemm(NOTRANS + 6 * tb, NOTRANS + 6 * ta, n, m, k, b, ldb, a, lda, out, n)
    return out


@_lib
def matmul_mv(a, x, out):  # noqa: ANN001, ANN201
    """out = a @ x through ?gemv."""
    m, k = a.shape
    if m == 0:
        return out
    if k == 0 or m > INT32_MAX or k > INT32_MAX:
        if k == 0:
            for i in range(m):
                out[i] = 0
            return out
        return dot_mv(a.copy(), x.copy(), out)
    ta, lda = blas_layout(m, k, a.strides[0], a.strides[1], a.itemsize)
    if ta < 0:
        a = a.copy()
        ta, lda = 0, k
    incx = blas_inc(x.shape[0], x.strides[0], x.itemsize)
    if incx == 0:
        x = x.copy()
        incx = 1
    if ta == 0:  # column-major, the buffer is a^T (k x m)
        blas.gemv(TRANS, k, m, a, lda, x, incx, out, 1)
    else:
        blas.gemv(NOTRANS, m, k, a, lda, x, incx, out, 1)
    return out


@_lib
def matmul_vm(x, b, out):  # noqa: ANN001, ANN201
    """out = x @ b = b^T x through ?gemv."""
    k, n = b.shape
    if n == 0:
        return out
    if k == 0 or n > INT32_MAX or k > INT32_MAX:
        if k == 0:
            for j in range(n):
                out[j] = 0
            return out
        return dot_vm(x.copy(), b.copy(), out)
    tb, ldb = blas_layout(k, n, b.strides[0], b.strides[1], b.itemsize)
    if tb < 0:
        b = b.copy()
        tb, ldb = 0, n
    incx = blas_inc(x.shape[0], x.strides[0], x.itemsize)
    if incx == 0:
        x = x.copy()
        incx = 1
    if tb == 0:  # the buffer is b^T (n x k)
        blas.gemv(NOTRANS, n, k, b, ldb, x, incx, out, 1)
    else:
        blas.gemv(TRANS, k, n, b, ldb, x, incx, out, 1)
    return out


@_lib
def matmul_vv(x, y):  # noqa: ANN001, ANN201
    """x @ y of real vectors through ?dot."""
    n = x.shape[0]
    if n == 0 or n > INT32_MAX:
        return dot_vv(x.copy(), y.copy())
    incx = blas_inc(x.shape[0], x.strides[0], x.itemsize)
    if incx == 0:
        x = x.copy()
        incx = 1
    incy = blas_inc(n, y.strides[0], y.itemsize)
    if incy == 0:
        y = y.copy()
        incy = 1
    return blas.dot(n, x, incx, y, incy)


@_lib
def matmul_vv_any(x, y):  # noqa: ANN001, ANN201
    """x @ y in order (complex vectors: BLAS's complex dot returns its result in registers
    SciPy's C declaration and LLVM's disagree on, for complex64)."""
    s = x.dtype.type(0)
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    return s


@_lib
def stack_blas(a, b, out):  # noqa: ANN001, ANN201
    """Each matrix of a stack: a, b and out have out's ndim (a and b broadcast to the stack's
    shape by zero strides)."""
    for idx in np.ndindex(out.shape[:-2]):
        matmul_mm(a[idx], b[idx], out[idx])
    return out


@_lib
def stack_generic(a, b, out):  # noqa: ANN001, ANN201
    for idx in np.ndindex(out.shape[:-2]):
        dot_mm(a[idx].copy(), b[idx].copy(), out[idx])
    return out


# --- the rule -------------------------------------------------------------------------------

_DOT_MISMATCH = "shapes not aligned: the last axis of a and the first (or second-to-last) of b"
_MATMUL_MISMATCH = (
    "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
    "(n?,k),(k,m?)->(n?,m?)"
)


def uses_blas(dtype: T.Scalar) -> bool:
    """Whether products of this result dtype go to BLAS (here, now)."""
    return dtype in blas.LETTERS and blas.available()


def resolve_matmul(
    args: list[Operand], loc: SourceLoc | None = None, *, what: str = "matmul"
) -> Resolved:
    """`@`/np.matmul (`what="matmul"`) or np.dot (`what="dot"`) of two arrays."""
    name = "np.dot" if what == "dot" else "np.matmul and @"
    if len(args) != 2 or not all(isinstance(a.type, T.Array) for a in args):
        raise TypingError(f"{name} need two arrays here", loc=loc)
    ta, tb = args[0].type, args[1].type
    assert isinstance(ta, T.Array) and isinstance(tb, T.Array)
    dtype = T.from_dtype(np.result_type(ta.dtype.dtype, tb.dtype.dtype))
    if ta.ndim == 0 or tb.ndim == 0:
        raise TypingError(f"{name}: 0-d arrays are not supported (use *)", loc=loc)
    work = T.I64 if dtype.is_bool else dtype
    mismatch = _DOT_MISMATCH if what == "dot" else _MATMUL_MISMATCH
    if what == "dot" and max(ta.ndim, tb.ndim) > 2:
        product = _dot_nd(ta, tb, work, mismatch)
    elif max(ta.ndim, tb.ndim) > 2:
        product = _stack(ta, tb, work, mismatch)
    else:
        product = _small(ta, tb, work, mismatch)
    ret_t, emit = product
    if dtype.is_bool:
        ret_t = dtype if ret_t == work else T.Array(dtype, ret_t.ndim, "C")  # type: ignore[union-attr]

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        x, y = (_as_dtype(b, a, work) for a in v)
        result = emit(b, x, y)
        if not dtype.is_bool:
            return result
        zero = ir.Const(0, type=T.I64)
        if not isinstance(result.type, T.Array):
            return b.cmp("ne", result, zero)
        return elementwise(b, [result], T.BOOL, lambda bb, xs: bb.cmp("ne", xs[0], zero))

    return Resolved((None, None), ret_t, lower)


def _as_dtype(b: LowBuilder, a: ir.Value, dtype: T.Scalar) -> ir.Value:
    t = a.type
    assert isinstance(t, T.Array)
    return a if t.dtype == dtype else A.copy_as(b, a, dtype)


_KERNELS = {  # (ndims) -> (the BLAS kernel, the blocked one)
    (2, 1): (matmul_mv, dot_mv),
    (1, 2): (matmul_vm, dot_vm),
    (2, 2): (matmul_mm, dot_mm),
}


def _small(ta: T.Array, tb: T.Array, dtype: T.Scalar, mismatch: str):  # noqa: ANN202
    """1-D and 2-D operands: (result type, emitter)."""
    blas_path = uses_blas(dtype)
    ka, kb = (T.Array(dtype, t.ndim, t.layout if t.dtype == dtype else "C") for t in (ta, tb))
    vec, mat = T.Array(dtype, 1, "C"), T.Array(dtype, 2, "C")
    shapes = (ta.ndim, tb.ndim)
    if shapes == (1, 1):
        if blas_path and not dtype.is_complex:
            k = call_kernel(matmul_vv, [ka, kb])
        elif blas_path:
            k = call_kernel(matmul_vv_any, [ka, kb])
        else:
            k = call_kernel(dot_vv, [vec, vec])
        ret: T.Type = dtype
    else:
        fast, plain = _KERNELS[shapes]
        out_t = mat if shapes == (2, 2) else vec
        if blas_path:
            k = call_kernel(fast, [ka, kb, out_t])
        else:
            c_types: list[T.Type] = [
                T.Array(dtype, ta.ndim, "C"),
                T.Array(dtype, tb.ndim, "C"),
                out_t,
            ]
            k = call_kernel(plain, c_types)
        ret = out_t

    def emit(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
        inner_x = L.shape_of(b, x, ta.ndim - 1)
        inner_y = L.shape_of(b, y, 0)
        b.raise_if(b.cmp("ne", inner_x, inner_y), ValueError, mismatch)
        if not blas_path:
            x, y = _c_copy(b, x), _c_copy(b, y)
        if shapes == (1, 1):
            return k.lower(b, [x, y], {})  # type: ignore[misc]
        dims = []
        if ta.ndim == 2:
            dims.append(L.shape_of(b, x, 0))
        if tb.ndim == 2:
            dims.append(L.shape_of(b, y, 1))
        out = L.allocate(b, dtype, dims, "C")
        return k.lower(b, [x, y, out], {})  # type: ignore[misc]

    return ret, emit


def _c_copy(b: LowBuilder, a: ir.Value) -> ir.Value:
    t = a.type
    assert isinstance(t, T.Array)
    return a if t.layout == "C" else A.copy_array(b, a)


def _stack(ta: T.Array, tb: T.Array, dtype: T.Scalar, mismatch: str):  # noqa: ANN202
    """Stacks of matrices (matmul only): a 1-D operand is a matrix of one row (a) or column
    (b) whose axis the result drops; the leading axes broadcast."""
    nd = max(ta.ndim, tb.ndim, 2)
    blas_path = uses_blas(dtype)
    view_t = T.Array(dtype, nd, "A")
    out_t = T.Array(dtype, nd, "C")
    k = call_kernel(stack_blas if blas_path else stack_generic, [view_t, view_t, out_t])
    ret_nd = nd - (ta.ndim == 1) - (tb.ndim == 1)
    ret = T.Array(dtype, ret_nd, "C")

    def emit(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
        xs, xst = _matrix_dims(b, x, row=True)
        ys, yst = _matrix_dims(b, y, row=False)
        b.raise_if(b.cmp("ne", xs[-1], ys[-2]), ValueError, mismatch)
        batch = broadcast_batch(b, xs[:-2], ys[:-2], nd - 2)
        out = L.allocate(b, dtype, [*batch, xs[-2], ys[-1]], "C")
        xv = broadcast_view(b, x, xs, xst, batch, view_t)
        yv = broadcast_view(b, y, ys, yst, batch, view_t)
        k.lower(b, [xv, yv, out], {})  # type: ignore[misc]
        if ret_nd == nd:
            return out
        shapes = L.shapes_of(b, out)
        strides = L.strides_of(b, out)
        drop = {nd - 2} if ta.ndim == 1 else set()
        if tb.ndim == 1:
            drop.add(nd - 1)
        keep = [i for i in range(nd) if i not in drop]
        return L.make_view(
            b,
            out,
            ret,
            L.data_of(b, out),
            [shapes[i] for i in keep],
            [strides[i] for i in keep],
        )

    return ret, emit


def _dot_nd(ta: T.Array, tb: T.Array, dtype: T.Scalar, mismatch: str):  # noqa: ANN202
    """np.dot with an operand of ndim > 2: the sum over a's last axis and b's second-to-last
    (its only one when 1-D), as one 2-D product: a as (I, k) rows, b's axes moved to
    (k, J * m) (a copy), the (I, J * m) result viewed as a.shape[:-1] + b.shape[:-2] +
    b.shape[-1:]."""
    na, nb = ta.ndim, tb.ndim
    left = T.Array(dtype, 1 if na == 1 else 2, "C")
    right = T.Array(dtype, 1 if nb == 1 else 2, "C")
    inner_ret, inner = _small(left, right, dtype, mismatch)
    ret = T.Array(dtype, (na - 1) + max(nb - 2, 0) + (1 if nb > 1 else 0), "C")

    def emit(b: LowBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
        xs, ys = L.shapes_of(b, x), L.shapes_of(b, y)
        if na == 1:
            x2 = S.c_view_or_copy(b, x, [xs[0]])
        else:
            x2 = S.c_view_or_copy(b, x, [L.size_of(b, xs[:-1]), xs[-1]])
        if nb == 1:
            y2 = S.c_view_or_copy(b, y, [ys[0]])
            out_shapes = xs[:-1]
        else:
            order = [nb - 2, *range(nb - 2), nb - 1]  # k first, then b's leading axes, m
            strides = L.raw_strides_of(b, y)
            moved = L.make_view(
                b,
                y,
                T.Array(dtype, nb, "A"),
                L.data_of(b, y),
                [ys[i] for i in order],
                [strides[i] for i in order],
            )
            y2 = S.c_view_or_copy(b, moved, [ys[-2], L.size_of(b, [*ys[:-2], ys[-1]])])
            out_shapes = [*xs[:-1], *ys[:-2], ys[-1]]
        flat = inner(b, x2, y2)
        strides_out = L.contiguous_strides(b, out_shapes, dtype.dtype.itemsize, "C")
        return L.make_view(b, flat, ret, L.data_of(b, flat), out_shapes, strides_out)

    assert isinstance(inner_ret, T.Array | T.Scalar)
    return ret, emit


def _matrix_dims(
    b: LowBuilder, a: ir.Value, *, row: bool
) -> tuple[list[ir.Value], list[ir.Value]]:
    """Shape and strides of `a` as a (stack of) matrices: a 1-D `a` becomes one row (the left
    operand) or one column (the right one)."""
    shapes, strides = L.shapes_of(b, a), L.raw_strides_of(b, a)
    if len(shapes) == 1:
        if row:
            return [i64(1), shapes[0]], [i64(0), strides[0]]
        return [shapes[0], i64(1)], [strides[0], i64(0)]
    return shapes, strides


def broadcast_batch(
    b: LowBuilder, xs: list[ir.Value], ys: list[ir.Value], n: int, what: str = "matmul"
) -> list[ir.Value]:
    """The broadcast of two batch shapes (NumPy's rules), aligned at the end."""
    xs = [i64(1)] * (n - len(xs)) + xs
    ys = [i64(1)] * (n - len(ys)) + ys
    out = []
    for x, y in zip(xs, ys):
        ok = b.or_(b.or_(b.cmp("eq", x, y), b.cmp("eq", x, i64(1))), b.cmp("eq", y, i64(1)))
        b.raise_if(b.not_(ok), ValueError, f"{what}: operands could not be broadcast together")
        out.append(b.select(b.cmp("eq", x, i64(1)), y, x))
    return out


def broadcast_view(
    b: LowBuilder,
    a: ir.Value,
    shapes: list[ir.Value],
    strides: list[ir.Value],
    batch: list[ir.Value],
    t: T.Array,
) -> ir.Value:
    """A view of `a` (given as a stack of matrices) over the whole batch: axes it lacks or
    has of length 1 get stride 0."""
    own = len(shapes) - 2
    missing = len(batch) - own
    new_shapes = list(batch) + shapes[-2:]
    new_strides: list[ir.Value] = [i64(0)] * missing
    for s, st in zip(shapes[:-2], strides[:-2]):
        new_strides.append(b.select(b.cmp("eq", s, i64(1)), i64(0), st))
    new_strides += strides[-2:]
    return L.make_view(b, a, t, L.data_of(b, a), new_shapes, new_strides)


_NOTES = (
    "BLAS (?gemm, ?gemv, ?dot) of SciPy for float and complex results when SciPy is "
    "installed (`pip install jitcore[linalg]`), else a blocked loop; ints and bools exactly"
)


@register_function(np.dot, params="a: array, b: array", notes="any ndim; " + _NOTES)
def _dot(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs:
        return None
    return resolve_matmul(args, what="dot")


@register_function(
    np.matmul, params="a: array, b: array", notes="stacks of matrices too; " + _NOTES
)
def _matmul(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if kwargs:
        return None
    return resolve_matmul(args)


register_method(T.Array, "dot", params="b: array", notes="as `np.dot`")(_dot)
