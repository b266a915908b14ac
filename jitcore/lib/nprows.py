"""Operations along axes of N-D arrays, brought down to 2-D "rows" for library kernels.

Sorting, searching, reductions and scans along `axis=` all work the same way here: the axes the
operation runs along are moved to the end, the array is copied C-contiguous in the kernel's
dtype, and the copy is viewed as a 2-D array of shape (rows, length) where each row is one
lane of the operation. A kernel written for 2-D C arrays then serves every ndim and every
axis (and tuple of axes); the result is viewed back into NumPy's shape (`unrows_*`).

When the array already is C-contiguous in the right dtype and the axes are the last ones, no
copy is made (the rows are a view): callers that write into the rows copy first
(`rows(..., copy=True)`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import LowBuilder, i64
from jitcore.lib import layout as L
from jitcore.lib.loops import elementwise
from jitcore.lib.registry import Operand


def axes_arg(op: Operand | None, ndim: int, what: str) -> list[int] | None:
    """The normalized, sorted axes of a constant `axis=` operand (None: every axis).

    NumPy's errors: an axis outside [-ndim, ndim) is out of bounds, a repeated one is an error;
    both are TypingErrors here since the axis is a compile-time constant."""
    if op is None or isinstance(op.type, T.NoneType) or (op.is_const and op.const is None):
        return None
    value = op.const if op.is_const else None
    items = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in items):
        raise TypingError(
            f"{what}: axis must be a constant integer or tuple of integers",
            hint="write axis=0, axis=-1 or axis=(0, 1)",
        )
    out: list[int] = []
    for x in items:
        assert isinstance(x, int)
        if not -ndim <= x < ndim:
            raise TypingError(f"{what}: axis {x} is out of bounds for array of dimension {ndim}")
        k = x % ndim
        if k in out:
            raise TypingError(f"{what}: repeated axis in axis={value}")
        out.append(k)
    return sorted(out)


def bind_operands(
    args: list[Operand], kwargs: dict[str, Operand], names: list[str], what: str
) -> dict[str, Operand | None]:
    """The operands by parameter name, positional or keyword (TypingError for unknown or
    repeated ones); None for those not given."""
    if len(args) > len(names):
        raise TypingError(f"{what} takes at most {len(names)} arguments")
    out: dict[str, Operand | None] = dict.fromkeys(names)
    for name, op in zip(names, args):
        out[name] = op
    for name, op in kwargs.items():
        if name not in out:
            raise TypingError(f"{what}: unexpected keyword argument {name!r}")
        if out[name] is not None:
            raise TypingError(f"{what}: argument {name!r} given twice")
        out[name] = op
    return out


def take_args(
    args: list[Operand], kwargs: dict[str, Operand], names: list[str], what: str
) -> dict[str, Operand | None]:
    """The operands after the array (`args[0]`), by parameter name (`bind_operands`)."""
    if len(args) - 1 > len(names):
        raise TypingError(f"{what} takes at most {len(names)} arguments after the array")
    return bind_operands(args[1:], kwargs, names, what)


def const_flag(op: Operand | None, what: str) -> bool:
    """A constant True/False operand (False when not given)."""
    if op is None:
        return False
    if not (op.is_const and isinstance(op.const, bool | int)):
        raise TypingError(f"{what} must be a constant True or False")
    return bool(op.const)


def is_none(op: Operand | None) -> bool:
    """Not given, or given as None."""
    return op is None or isinstance(op.type, T.NoneType) or (op.is_const and op.const is None)


@dataclass(frozen=True)
class Rows:
    """A 2-D C-contiguous (rows, length) array and the shapes it came from."""

    rows: ir.Value
    kept: list[ir.Value]  # the shapes of the axes not operated on, in order
    along: list[ir.Value]  # the shapes of the axes operated on, in order
    count: ir.Value  # number of rows
    length: ir.Value  # length of each row


def rows(
    b: LowBuilder,
    a: ir.Value,
    axes: Sequence[int] | None,
    dtype: T.Scalar,
    *,
    copy: bool = False,
) -> Rows:
    """`a` with `axes` (None: all) moved last, as C-contiguous rows of `dtype`."""
    t = a.type
    assert isinstance(t, T.Array)
    ndim = t.ndim
    along_axes = list(range(ndim)) if axes is None else list(axes)
    kept_axes = [k for k in range(ndim) if k not in along_axes]
    perm = kept_axes + along_axes
    shapes = L.shapes_of(b, a)
    moved_shapes = [shapes[k] for k in perm]
    source = a
    if copy or t.dtype != dtype or t.layout != "C" or perm != list(range(ndim)):
        strides = L.strides_of(b, a)
        view_t = T.Array(t.dtype, ndim, "A")
        moved = L.make_view(
            b, a, view_t, L.data_of(b, a), moved_shapes, [strides[k] for k in perm]
        )
        source = L.allocate(b, dtype, moved_shapes, "C")
        elementwise(b, [moved], dtype, lambda bb, xs: xs[0], out=source)
    count = L.size_of(b, [shapes[k] for k in kept_axes])
    length = L.size_of(b, [shapes[k] for k in along_axes])
    size = i64(dtype.dtype.itemsize)
    view = L.make_view(
        b,
        source,
        T.Array(dtype, 2, "C"),
        L.data_of(b, source),
        [count, length],
        [b.binop("mul", length, size), size],
    )
    return Rows(
        view, [shapes[k] for k in kept_axes], [shapes[k] for k in along_axes], count, length
    )


def reduced_type(dtype: T.Scalar, ndim: int, axes: Sequence[int] | None, keepdims: bool) -> T.Type:
    """NumPy's result type of a reduction of an ndim array over `axes`. A 0-d array reduces
    to a scalar even with keepdims (NumPy's ufunc reductions unwrap a 0-d result), which is
    what `unrows_reduced` gives for it."""
    if keepdims and ndim > 0:
        return T.Array(dtype, ndim, "C")
    left = 0 if axes is None else ndim - len(axes)
    return dtype if left == 0 else T.Array(dtype, left, "C")


def unrows_reduced(
    b: LowBuilder,
    out: ir.Value,
    r: Rows,
    ndim: int,
    axes: Sequence[int] | None,
    keepdims: bool,
) -> ir.Value:
    """A 1-D C array of one value per row, viewed as the reduction's result (a scalar when no
    axis is left and keepdims is off)."""
    t = out.type
    assert isinstance(t, T.Array)
    along_axes = list(range(ndim)) if axes is None else list(axes)
    if keepdims:
        shapes: list[ir.Value] = []
        kept = iter(r.kept)
        for k in range(ndim):
            shapes.append(i64(1) if k in along_axes else next(kept))
    else:
        shapes = list(r.kept)
    if not shapes:
        return L.load(b, L.data_of(b, out), t.dtype)
    strides = L.contiguous_strides(b, shapes, t.dtype.dtype.itemsize, "C")
    return L.make_view(
        b, out, T.Array(t.dtype, len(shapes), "C"), L.data_of(b, out), shapes, strides
    )


def lane_type(dtype: T.Scalar, ndim: int, axis: int) -> T.Array:
    """The type `unrows_lanes` gives: C when the axis is the last one."""
    return T.Array(dtype, ndim, "C" if axis == ndim - 1 or ndim == 1 else "A")


def unrows_lanes(
    b: LowBuilder, out: ir.Value, r: Rows, ndim: int, axis: int, length: ir.Value | None = None
) -> ir.Value:
    """A 2-D C (rows, m) result of a per-lane operation along one axis (sort, cumsum, diff)
    viewed back in NumPy's shape: the axis returns to its place, of length m (`length`, the
    row length by default)."""
    t = out.type
    assert isinstance(t, T.Array)
    m = L.shape_of(b, out, 1) if length is None else length
    moved = list(r.kept) + [m]
    strides = L.contiguous_strides(b, moved, t.dtype.dtype.itemsize, "C")
    # moved position p holds original axis perm[p]; put each back
    perm = [k for k in range(ndim) if k != axis] + [axis]
    shapes: list[ir.Value] = [i64(0)] * ndim
    back: list[ir.Value] = [i64(0)] * ndim
    for p, k in enumerate(perm):
        shapes[k] = moved[p]
        back[k] = strides[p]
    return L.make_view(b, out, lane_type(t.dtype, ndim, axis), L.data_of(b, out), shapes, back)
