"""Joining and repeating arrays: concatenate, stack, vstack, hstack, column_stack, append,
repeat, tile, roll, flip, copyto, and delete/insert on 1-D arrays.

Arrays to join come as a tuple (`np.concatenate((a, b))`); their number and dimensions are
known while compiling, so NumPy's errors about those are TypingErrors, and the shapes are
checked at run time (ValueError, as NumPy). The result dtype is NumPy's `result_type` of the
inputs. Each input is copied into its slot of a new C-ordered array with the elementwise
loop (`elementwise` into a view of the slot), so inputs of any layout join at full speed.
`flip` is a view with negative strides, as in NumPy; the others make new arrays.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from jitcore.errors import TypingError
from jitcore.ir import nodes as ir
from jitcore.ir import types as T
from jitcore.ir.builder import Loop, LowBuilder, i64
from jitcore.lib import arrays as A
from jitcore.lib import indexing, repeatcounts
from jitcore.lib import shapes as S
from jitcore.lib.layout import (
    TOO_BIG,
    contiguous_strides,
    data_of,
    index_values,
    itemsize,
    load,
    make_view,
    shapes_of,
    size_of,
    store,
    strides_of,
)
from jitcore.lib.loops import elementwise
from jitcore.lib.registry import Operand, Resolved, register_function

# --- helpers --------------------------------------------------------------------------------


def result_dtype(types: list[T.Type]) -> T.Scalar:
    """NumPy's result_type of arrays and numbers being joined (numbers as their NumPy type)."""
    dtypes = []
    for t in types:
        if isinstance(t, T.Array):
            dtypes.append(t.dtype.dtype)
        elif isinstance(t, T.Scalar):
            dtypes.append(t.dtype)
        else:
            raise TypingError(f"cannot join {t} with arrays")
    return T.from_dtype(np.result_type(*dtypes))


def _sequence(op: Operand, what: str) -> list[T.Array]:
    t = op.type
    if isinstance(t, T.Array):
        raise TypingError(
            f"{what} takes a tuple of arrays",
            hint=f"write np.{what}((a, b)) with the arrays in a tuple",
        )
    if not isinstance(t, T.Tuple) or not t.items:
        raise TypingError(f"{what} needs a non-empty tuple of arrays, not {t}")
    out = []
    for item in t.items:
        if not isinstance(item, T.Array):
            raise TypingError(f"{what}: every item must be an array, not {item}")
        out.append(item)
    return out


def _axis(op: Operand | None, ndim: int, what: str, default: int | None = 0) -> int | None:
    if op is None:
        return default
    axes = S.const_axes(op, ndim, what)
    if axes is None:
        return None
    if len(axes) != 1:
        raise TypingError(f"{what}: axis must be one int")
    return axes[0]


def copy_into(b: LowBuilder, dest: ir.Value, src: ir.Value) -> None:
    """Copy `src` (same shape, or broadcastable) into the fresh array view `dest`, converting."""
    dtype = cast(T.Array, dest.type).dtype
    elementwise(b, [src], dtype, lambda bb, xs: bb.cast(xs[0], dtype), out=dest)


def slot(b: LowBuilder, out: ir.Value, axis: int, start: ir.Value, length: ir.Value) -> ir.Value:
    """The view of `out[..., start:start + length, ...]` along `axis`."""
    t = cast(T.Array, out.type)
    shapes, strides = shapes_of(b, out), strides_of(b, out)
    data = b.ptr_add(data_of(b, out), b.binop("mul", start, strides[axis]))
    shapes = list(shapes)
    shapes[axis] = length
    return make_view(b, out, T.Array(t.dtype, t.ndim, "A"), data, shapes, strides)


def join(b: LowBuilder, parts: list[ir.Value], axis: int, dtype: T.Scalar) -> ir.Value:
    """NumPy's concatenate of arrays of one ndim along `axis`."""
    first = shapes_of(b, parts[0])
    total: ir.Value = i64(0)
    for p in parts:
        ps = shapes_of(b, p)
        for k, (n, m) in enumerate(zip(first, ps)):
            if k != axis:
                b.raise_if(
                    b.cmp("ne", n, m),
                    ValueError,
                    "all the input array dimensions except for the concatenation axis must "
                    "match exactly",
                )
        # the lengths are >= 0: a sum beyond int64 wrapped, and the copies wrote past the
        # allocation of the wrapped size
        too_big = b.intrinsic("sadd_overflows", [total, ps[axis]], T.BOOL)
        b.raise_if(too_big, ValueError, TOO_BIG)
        total = b.binop("add", total, ps[axis])
    shape = list(first)
    shape[axis] = total
    out = A.allocate(b, dtype, shape, "C")
    start: ir.Value = i64(0)
    for p in parts:
        n = shapes_of(b, p)[axis]
        copy_into(b, slot(b, out, axis, start, n), p)
        start = b.binop("add", start, n)
    return out


def reshaped(b: LowBuilder, a: ir.Value, ndim: int, where: str) -> ir.Value:
    """`a` viewed with axes of length 1 added to reach `ndim`: in `where` 'front'
    (atleast_2d) or 'back' (column_stack's columns)."""
    t = cast(T.Array, a.type)
    if t.ndim >= ndim:
        return a
    missing = ndim - t.ndim
    before, after = (missing, 0) if where == "front" else (0, missing)
    shapes = [i64(1)] * before + shapes_of(b, a) + [i64(1)] * after
    strides = [i64(0)] * before + strides_of(b, a) + [i64(0)] * after
    return make_view(b, a, T.Array(t.dtype, ndim, "A"), data_of(b, a), shapes, strides)


def _items(b: LowBuilder, tup: ir.Value) -> list[ir.Value]:
    return index_values(b, tup)


# --- concatenate and the stacks ------------------------------------------------------------


@register_function(np.concatenate, params="arrays: tuple, axis?: axis | None")
def _concatenate(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    axis_op = kwargs.pop("axis", args[1] if len(args) > 1 else None)
    if kwargs or not 1 <= len(args) <= 2:
        return None
    items = _sequence(args[0], "concatenate")
    ndim = items[0].ndim
    dtype = result_dtype(list(items))
    flat = axis_op is not None and axis_op.is_const and axis_op.const is None
    if not flat and any(t.ndim != ndim for t in items):  # (axis=None flattens each first)
        raise TypingError("concatenate: all the input arrays must have same number of dimensions")
    if ndim == 0 and not flat:
        raise TypingError("zero-dimensional arrays cannot be concatenated")
    axis = 0 if flat else _axis(axis_op, ndim, "concatenate")
    out = T.Array(dtype, 1 if flat else ndim, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        parts = _items(b, v[0])
        if flat:
            parts = [S.c_view_or_copy(b, p, [size_of(b, shapes_of(b, p))]) for p in parts]
        return join(b, parts, cast(int, axis), dtype)

    return Resolved((None,) * len(args), out, lower, kwargs={"axis": None})


def _stacker(kind: str):  # noqa: ANN202
    """vstack, hstack, column_stack and dstack: NumPy's reshaping of the inputs, then a join."""

    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or kwargs:
            return None
        items = _sequence(args[0], kind)
        dtype = result_dtype(list(items))
        top = max(t.ndim for t in items)
        if kind == "vstack":
            ndim, axis, where = max(top, 2), 0, "front"
        elif kind == "hstack":
            ndim, where = max(top, 1), "front"
            axis = 0 if ndim == 1 else 1
        elif kind == "column_stack":
            ndim, axis, where = max(top, 2), 1, "back"
        else:
            ndim, axis, where = max(top, 3), 2, "front"
        lower_ndim = [t.ndim if t.ndim >= ndim else ndim for t in items]
        if len(set(lower_ndim)) != 1:
            raise TypingError(f"{kind}: all the input arrays must have same number of dimensions")
        out = T.Array(dtype, ndim, "C")

        def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            parts = []
            for p in _items(b, v[0]):
                t = cast(T.Array, p.type)
                if kind == "column_stack" and t.ndim < 2:
                    p = reshaped(b, reshaped(b, p, 1, "front"), 2, "back")
                elif kind == "dstack":
                    p = reshaped(b, reshaped(b, p, 2, "front"), 3, "back")
                else:
                    p = reshaped(b, p, ndim, where)
                parts.append(p)
            return join(b, parts, axis, dtype)

        return Resolved((None,), out, lower)

    return rule


for _kind, _f in (
    ("vstack", np.vstack),
    ("hstack", np.hstack),
    ("column_stack", np.column_stack),
    ("dstack", np.dstack),
):
    register_function(_f, params="tup: tuple")(_stacker(_kind))


@register_function(np.stack, params="arrays: tuple, axis?: axis")
def _stack(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    axis_op = kwargs.pop("axis", args[1] if len(args) > 1 else None)
    if kwargs or not 1 <= len(args) <= 2:
        return None
    items = _sequence(args[0], "stack")
    ndim = items[0].ndim
    if any(t.ndim != ndim for t in items):
        raise TypingError("stack: all input arrays must have the same shape")
    axis = cast(int, _axis(axis_op, ndim + 1, "stack"))
    dtype = result_dtype(list(items))
    out = T.Array(dtype, ndim + 1, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return stack(b, _items(b, v[0]), axis, dtype)

    return Resolved((None,) * len(args), out, lower, kwargs={"axis": None})


def stack(b: LowBuilder, parts: list[ir.Value], axis: int, dtype: T.Scalar) -> ir.Value:
    """np.stack: arrays of one shape along a new axis `axis`."""
    first = shapes_of(b, parts[0])
    for p in parts[1:]:
        for n, m in zip(first, shapes_of(b, p)):
            b.raise_if(b.cmp("ne", n, m), ValueError, "all input arrays must have the same shape")
    views = []
    for p in parts:
        t = cast(T.Array, p.type)
        shapes, strides = shapes_of(b, p), strides_of(b, p)
        shapes.insert(axis, i64(1))
        strides.insert(axis, i64(0))
        views.append(
            make_view(b, p, T.Array(t.dtype, t.ndim + 1, "A"), data_of(b, p), shapes, strides)
        )
    return join(b, views, axis, dtype)


@register_function(np.append, params="arr: array, values: number | array, axis?: axis")
def _append(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    axis_op = kwargs.pop("axis", args[2] if len(args) > 2 else None)
    if kwargs or not 2 <= len(args) <= 3:
        return None
    arr, values = args[0].type, args[1].type
    if not isinstance(arr, T.Array):
        return None
    dtype = result_dtype([arr, values])
    flat = axis_op is None or (axis_op.is_const and axis_op.const is None)
    if not flat:
        if not isinstance(values, T.Array) or values.ndim != arr.ndim:
            raise TypingError(
                "append with axis=: values must be an array with the same number of dimensions"
            )
        axis = cast(int, _axis(axis_op, arr.ndim, "append"))
    out = T.Array(dtype, 1 if flat else arr.ndim, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a, x = v[0], v[1]
        if not flat:
            return join(b, [a, x], axis, dtype)
        parts = [S.c_view_or_copy(b, a, [size_of(b, shapes_of(b, a))])]
        if isinstance(x.type, T.Array):
            parts.append(S.c_view_or_copy(b, x, [size_of(b, shapes_of(b, x))]))
        else:
            one = A.allocate(b, cast(T.Scalar, x.type), [i64(1)], "C")
            A.fill_contiguous(b, one, x)
            parts.append(one)
        return join(b, parts, 0, dtype)

    return Resolved((None,) * len(args), out, lower, kwargs={"axis": None})


# --- repeat, tile, roll, flip ------------------------------------------------------------------


def _gather_loops(
    b: LowBuilder,
    src: ir.Value,
    out: ir.Value,
    source_index: list,  # noqa: ANN001 - (b, axis, out index) -> source index, per axis
) -> None:
    """out[idx] = src[f(idx)] over all of `out`, with f given axis by axis."""
    out_shapes, out_strides = shapes_of(b, out), strides_of(b, out)
    src_strides = strides_of(b, src)
    dtype = cast(T.Array, out.type).dtype
    loops = [Loop(b, i64(0), n) for n in out_shapes]
    offset_out: ir.Value = i64(0)
    offset_src: ir.Value = i64(0)
    for k, loop in enumerate(loops):
        offset_out = b.binop("add", offset_out, b.binop("mul", loop.index, out_strides[k]))
        j = source_index[k](b, loop.index)
        offset_src = b.binop("add", offset_src, b.binop("mul", j, src_strides[k]))
    value = load(b, b.ptr_add(data_of(b, src), offset_src), cast(T.Array, src.type).dtype)
    store(b, b.ptr_add(data_of(b, out), offset_out), b.cast(value, dtype))
    for loop in reversed(loops):
        loop.finish()


def _same(b: LowBuilder, i: ir.Value) -> ir.Value:
    return i


@register_function(np.repeat, params="a: array, repeats: int | intarray, axis?: axis")
def _repeat(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    axis_op = kwargs.pop("axis", args[2] if len(args) > 2 else None)
    if "repeats" in kwargs:
        args = [*args, kwargs.pop("repeats")]
    if kwargs or not 2 <= len(args) <= 3:
        return None
    t = S.array_of(args[0], "repeat")
    rt = args[1].type
    if isinstance(rt, T.Array):  # a count per item
        return repeatcounts.resolve(
            t, rt, _axis(axis_op, max(t.ndim, 1), "repeat", None), len(args)
        )
    if not (isinstance(rt, T.Scalar) and rt.kind in "iub"):
        raise TypingError("repeat: repeats must be an int or an array of ints")
    # NumPy repeats a 0-d array as the 1-d array of its item (axis 0, -1 or None alike)
    axis = _axis(axis_op, max(t.ndim, 1), "repeat", None)
    ndim = max(t.ndim, 1) if axis is not None else 1
    out_t = T.Array(t.dtype, ndim, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a, r = v[0], b.cast(v[1], T.I64)
        if axis is None or t.ndim == 0:
            a = S.c_view_or_copy(b, a, [size_of(b, shapes_of(b, a))])
        k = axis or 0
        b.raise_if(b.cmp("lt", r, i64(0)), ValueError, "negative dimensions are not allowed")
        shapes = shapes_of(b, a)
        n = shapes[k]
        b.raise_if(b.intrinsic("smul_overflows", [n, r], T.BOOL), ValueError, TOO_BIG)
        shapes[k] = b.binop("mul", n, r)
        out = A.allocate(b, t.dtype, shapes, "C")
        safe = b.select(b.cmp("eq", r, i64(0)), i64(1), r)
        index = [_same] * ndim
        index[k] = lambda b, i: b.binop("tdiv", i, safe)
        _gather_loops(b, a, out, index)
        return out

    return Resolved((None,) * len(args), out_t, lower, kwargs={"axis": None})


@register_function(np.tile, params="A: array, reps: shape")
def _tile(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    t = S.array_of(args[0], "tile")
    count = S._shape_items(args[1], "tile")
    ndim = max(t.ndim, count)
    out_t = T.Array(t.dtype, ndim, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = reshaped(b, v[0], ndim, "front")
        reps = [i64(1)] * (ndim - count) + S.shape_values(b, v[1])
        shapes = shapes_of(b, a)
        out_shapes = []
        # NumPy repeats a non-empty array (a negative count raises) but only reshapes an empty
        # one, where a negative count is harmless on an axis of length 0.
        empty = b.cmp("eq", size_of(b, shapes), i64(0))
        for n, r in zip(shapes, reps):
            harmless = b.and_(empty, b.cmp("eq", n, i64(0)))
            negative = b.and_(b.cmp("lt", r, i64(0)), b.not_(harmless))
            b.raise_if(negative, ValueError, "negative dimensions are not allowed")
            b.raise_if(b.intrinsic("smul_overflows", [n, r], T.BOOL), ValueError, TOO_BIG)
            out_shapes.append(b.binop("mul", n, r))
        out = A.allocate(b, t.dtype, out_shapes, "C")
        index = []
        for n in shapes:
            safe = b.select(b.cmp("eq", n, i64(0)), i64(1), n)
            index.append(lambda b, i, safe=safe: b.binop("trem", i, safe))
        _gather_loops(b, a, out, index)
        return out

    return Resolved((None, None), out_t, lower)


@register_function(
    np.roll,
    params="a: array, shift: int, axis?: axis",
    notes="a uint64 shift counts by its value (`np.uint64(2**63)` is not negative)",
)
def _roll(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    axis_op = kwargs.pop("axis", args[2] if len(args) > 2 else None)
    if "shift" in kwargs:
        args = [*args, kwargs.pop("shift")]
    if kwargs or not 2 <= len(args) <= 3:
        return None
    t = S.array_of(args[0], "roll")
    st_ = args[1].type
    if not (isinstance(st_, T.Scalar) and st_.kind in "iub"):
        raise TypingError("roll: shift must be an int", hint="tuple shifts are not supported")
    axis = _axis(axis_op, t.ndim, "roll", None)  # a 0-d array has no axis (AxisError)
    out_t = T.Array(t.dtype, t.ndim, "C")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a = v[0]
        src = a if axis is not None else S.c_view_or_copy(b, a, [size_of(b, shapes_of(b, a))])
        k = axis or 0
        n = shapes_of(b, src)[k]
        safe = b.select(b.cmp("eq", n, i64(0)), i64(1), n)
        if st_ == T.U64:  # NumPy takes the shift's value (int(shift)): 2**63 is not negative
            s = b.cast(b.binop("trem", v[1], b.cast(safe, T.U64)), T.I64)
        else:
            s = b.binop("trem", b.cast(v[1], T.I64), safe)
            s = b.select(b.cmp("lt", s, i64(0)), b.binop("add", s, safe), s)  # in [0, n)
        out = A.allocate(b, t.dtype, shapes_of(b, src), "C")

        def rolled(b: LowBuilder, i: ir.Value) -> ir.Value:
            j = b.binop("sub", i, s)
            return b.select(b.cmp("lt", j, i64(0)), b.binop("add", j, n), j)

        index = [_same] * cast(T.Array, src.type).ndim
        index[k] = rolled
        _gather_loops(b, src, out, index)
        if axis is None and t.ndim != 1:
            strides = contiguous_strides(b, shapes_of(b, a), itemsize(t), "C")
            return make_view(b, out, out_t, data_of(b, out), shapes_of(b, a), strides)
        return out

    return Resolved((None,) * len(args), out_t, lower, kwargs={"axis": None})


def _flip_rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    kwargs = dict(kwargs)
    axis_op = kwargs.pop("axis", args[1] if len(args) > 1 else None)
    if kwargs or not 1 <= len(args) <= 2:
        return None
    t = S.array_of(args[0], "flip")
    axes = S.const_axes(axis_op, t.ndim, "flip")
    if axes is None:
        axes = tuple(range(t.ndim))
    if t.ndim == 0:  # NumPy indexes it with an empty tuple of slices: its item
        return Resolved(
            (None,) * len(args),
            t.dtype,
            lambda b, v, kw: load(b, data_of(b, v[0]), t.dtype),
            kwargs={"axis": None},
        )
    out = T.Array(t.dtype, t.ndim, t.layout if not axes else "A")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        return flipped(b, v[0], axes, out)

    return Resolved((None,) * len(args), out, lower, kwargs={"axis": None})


def flipped(b: LowBuilder, a: ir.Value, axes: tuple[int, ...], out: T.Array) -> ir.Value:
    shapes, strides = shapes_of(b, a), strides_of(b, a)
    offset: ir.Value = i64(0)
    for k in axes:
        last = b.select(b.cmp("gt", shapes[k], i64(0)), b.binop("sub", shapes[k], i64(1)), i64(0))
        offset = b.binop("add", offset, b.binop("mul", last, strides[k]))
        strides[k] = b.emit(ir.UnaryOp("neg", strides[k], type=T.I64))
    return make_view(b, a, out, b.ptr_add(data_of(b, a), offset), shapes, strides)


register_function(np.flip, params="m: array, axis?: axis", notes="a view")(_flip_rule)


def _flip_axis(axis: int, name: str):  # noqa: ANN202
    def rule(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
        if len(args) != 1 or kwargs:
            return None
        t = S.array_of(args[0], name)
        out = T.Array(t.dtype, t.ndim, "A")
        if t.ndim <= axis:  # NumPy's ValueError, at run time
            message = f"Input must be >= {axis + 1}-d."
            return Resolved((None,), out, S.always_raise(ValueError, message, out))
        return Resolved((None,), out, lambda b, v, kw: flipped(b, v[0], (axis,), out))

    return rule


register_function(np.flipud, params="m: array", notes="a view")(_flip_axis(0, "flipud"))
register_function(np.fliplr, params="m: array", notes="a view")(_flip_axis(1, "fliplr"))


# --- copyto, delete, insert --------------------------------------------------------------------


# The order of kinds under casting='same_kind': a Python bool goes anywhere, an int into any
# integer (signed or not), float or complex array, a float into a float or complex one.
_KIND_LEVEL = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


@register_function(
    np.copyto, params="dst: array, src: number | array", notes="casting='same_kind' only"
)
def _copyto(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    dst = S.array_of(args[0], "copyto")
    src = args[1].type
    src_dtype = src.dtype if isinstance(src, T.Array) else src
    if not isinstance(src_dtype, T.Scalar):
        raise TypingError(f"copyto: cannot copy {src}")
    weak = args[1].weak and not isinstance(src, T.Array)
    if weak:  # a Python number: by its kind alone (NumPy 2's weak scalars)
        castable = _KIND_LEVEL[dst.dtype.kind] >= _KIND_LEVEL[src_dtype.kind]
    else:
        castable = bool(np.can_cast(src_dtype.dtype, dst.dtype.dtype, "same_kind"))
    if not castable:
        raise TypingError(
            f"copyto: cannot cast from {src_dtype.dtype} to {dst.dtype.dtype} with casting "
            "rule 'same_kind'"
        )

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        # a NumPy scalar is cast as an array is (np.copyto(a8, np.int16(200)) stores -56)
        A.assign(b, v[0], v[1], python=args[1].weak, one_value=False)
        return ir.Const(None, type=T.NONE)

    return Resolved((None, None), T.NONE, lower, may_raise=True)


def _one_d(op: Operand, what: str) -> T.Array:
    t = S.array_of(op, what)
    if t.ndim != 1:
        raise TypingError(f"{what} is supported for 1-D arrays", hint="ravel the array first")
    return t


@register_function(np.delete, params="arr: array, obj: int | intarray", notes="1-D arrays")
def _delete(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 2 or kwargs:
        return None
    t = _one_d(args[0], "delete")
    ot = args[1].type
    out_t = T.Array(t.dtype, 1, "C")
    if ot == T.BOOL:  # NumPy takes a bool as a mask of the wrong shape
        message = (
            "boolean array argument obj to delete must be one dimensional and match the axis "
            "length"
        )
        return Resolved((None, None), out_t, S.always_raise(ValueError, message, out_t))
    if isinstance(ot, T.Scalar) and ot.kind in "iu":

        def lower_one(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
            a = v[0]
            n = shapes_of(b, a)[0]
            i = b.cast(v[1], T.I64)
            i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)
            b.raise_if(
                b.or_(b.cmp("lt", i, i64(0)), b.cmp("ge", i, n)),
                IndexError,
                "index out of bounds for axis 0",
            )
            out = A.allocate(b, t.dtype, [b.binop("sub", n, i64(1))], "C")
            copy_into(b, slot(b, out, 0, i64(0), i), slot(b, a, 0, i64(0), i))
            rest = b.binop("sub", b.binop("sub", n, i), i64(1))
            copy_into(b, slot(b, out, 0, i, rest), slot(b, a, 0, b.binop("add", i, i64(1)), rest))
            return out

        return Resolved((None, None), out_t, lower_one)
    if isinstance(ot, T.Array) and ot.ndim == 1 and ot.dtype.kind in "iub":
        return Resolved((None, None), out_t, _lower_delete_many)
    raise TypingError(f"delete: obj must be an int or a 1-D array of ints or bools, not {ot}")


def _lower_delete_many(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
    """Mark the deleted positions in a boolean array, then keep the others (NumPy's way)."""
    a, obj = v
    n = shapes_of(b, a)[0]
    keep = A.allocate(b, T.BOOL, [n], "C")
    A.fill_contiguous(b, keep, ir.Const(True, type=T.BOOL))
    keep_data = data_of(b, keep)
    odt = cast(T.Array, obj.type).dtype
    m = shapes_of(b, obj)[0]
    if odt.is_bool:
        b.raise_if(
            b.cmp("ne", m, n),
            ValueError,
            "boolean array argument obj to delete must be one dimensional and match the axis "
            "length",
        )
    loop = Loop(b, i64(0), m)
    x = load(b, b.ptr_add(data_of(b, obj), b.binop("mul", loop.index, strides_of(b, obj)[0])), odt)
    if odt.is_bool:
        store(b, b.ptr_add(keep_data, loop.index), b.not_(x))
    else:
        i = b.cast(x, T.I64)
        i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)
        b.raise_if(
            b.or_(b.cmp("lt", i, i64(0)), b.cmp("ge", i, n)),
            IndexError,
            "index out of bounds for axis 0",
        )
        store(b, b.ptr_add(keep_data, i), ir.Const(False, type=T.BOOL))
    loop.finish()
    dtype = cast(T.Array, a.type).dtype
    count = indexing.element_count(b, keep)
    out = A.allocate(b, dtype, [count], "C")
    out_data = data_of(b, out)
    loop = Loop(b, i64(0), n, carried=[i64(0)])
    j = loop.values[0]
    hit = load(b, b.ptr_add(keep_data, loop.index), T.BOOL)
    src = b.ptr_add(data_of(b, a), b.binop("mul", loop.index, strides_of(b, a)[0]))
    then, join_b = b.new_block("kept"), b.new_block("next")
    b.branch(hit, then, join_b)
    b.position(then)
    store(
        b, b.ptr_add(out_data, b.binop("mul", j, i64(dtype.dtype.itemsize))), load(b, src, dtype)
    )
    b.jump(join_b)
    b.position(join_b)
    loop.finish([b.binop("add", j, b.cast(hit, T.I64))])
    return out


@register_function(
    np.insert, params="arr: array, obj: int, values: number | array", notes="1-D arrays"
)
def _insert(args: list[Operand], kwargs: dict[str, Operand]) -> Resolved | None:
    if len(args) != 3 or kwargs:
        return None
    t = _one_d(args[0], "insert")
    ot, vt = args[1].type, args[2].type
    out_t = T.Array(t.dtype, 1, "C")
    if ot == T.BOOL:  # NumPy 2 fails on a bool obj with this AttributeError
        message = "'bool' object has no attribute 'ndim'"
        return Resolved((None,) * 3, out_t, S.always_raise(AttributeError, message, out_t))
    if not (isinstance(ot, T.Scalar) and ot.kind in "iu"):
        raise TypingError("insert: obj must be an int", hint="index arrays are not supported")
    if isinstance(vt, T.Array) and vt.ndim > 1:
        raise TypingError("insert: values must be a number or a 1-D array")
    if not isinstance(vt, T.Array | T.Scalar):
        raise TypingError(f"insert: cannot insert {vt}")

    def lower(b: LowBuilder, v: list[ir.Value], kw: dict) -> ir.Value:
        a, i, x = v[0], b.cast(v[1], T.I64), v[2]
        n = shapes_of(b, a)[0]
        b.raise_if(
            b.or_(b.cmp("lt", i, b.emit(ir.UnaryOp("neg", n, type=T.I64))), b.cmp("gt", i, n)),
            IndexError,
            "index out of bounds for axis 0",
        )
        i = b.select(b.cmp("lt", i, i64(0)), b.binop("add", i, n), i)
        if isinstance(x.type, T.Array):
            k = shapes_of(b, x)[0] if cast(T.Array, x.type).ndim == 1 else i64(1)
            if cast(T.Array, x.type).ndim == 0:
                x = reshaped(b, x, 1, "front")
        else:
            k = i64(1)
        out = A.allocate(b, t.dtype, [b.binop("add", n, k)], "C")
        copy_into(b, slot(b, out, 0, i64(0), i), slot(b, a, 0, i64(0), i))
        middle = slot(b, out, 0, i, k)
        if isinstance(x.type, T.Array):
            copy_into(b, middle, x)
        else:
            # a Python int must fit the dtype, a NumPy scalar is cast (NumPy makes an array)
            A.assign(b, middle, x, python=args[2].weak, one_value=False)
        rest = b.binop("sub", n, i)
        copy_into(b, slot(b, out, 0, b.binop("add", i, k), rest), slot(b, a, 0, i, rest))
        return out

    return Resolved((None, None, None), out_t, lower)
